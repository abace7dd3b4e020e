"""droidpilot.gym speed: environment steps per second with 1, 2, 4 and 8 environments (Gymnasium's sync
and async vector envs), at two observation sizes, the reset time, and the milestone reward's cost.

The policy is a seeded random one over the structured actions (taps anywhere, back, home, page down):
screens change on most steps, as in exploration. Each figure is the median of ``--rounds`` windows of
``--steps`` vector steps; the machine's load average is printed first, since the machine may be shared.

Run: ``.venv/bin/python benchmarks/gym_speed.py [--rounds 5] [--steps 100] [--envs 1,2,4,8]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

from droidpilot.gym import STRUCTURED_TYPES
from droidpilot.gym.factories import world_env

TEMPLATES = "contacts-*,notes-*,settings-*,clock-*"
KINDS = [STRUCTURED_TYPES.index(n) for n in ("tap",) * 6 + ("back", "back", "page_down", "home")]


def _policy(rng: np.random.Generator, n: int) -> dict[str, Any]:
    """``n`` random structured actions."""
    kinds = np.array([KINDS[i] for i in rng.integers(0, len(KINDS), n)])
    coords = rng.uniform(0.05, 0.95, size=(n, 4)).astype(np.float32)
    return {"action_type": kinds, "coords": coords, "text": ("",) * n}


def _make(size: str, reward: str = "oracle") -> Any:
    return world_env(TEMPLATES, action="structured", size=size, reward=reward, max_steps=40)


def _rate(vec: Any, rounds: int, steps: int, seed: int = 0) -> tuple[float, float]:
    """Median environment steps per second (vector steps x environments) over ``rounds`` windows, and
    per second of this process's CPU time (for a sync vector env, all the work is in this process)."""
    rng = np.random.default_rng(seed)
    vec.reset(seed=seed)
    n = vec.num_envs
    vec.step(_policy(rng, n))  # warm up: first frames, icon fonts, caches
    rates, cpu_rates = [], []
    for _ in range(rounds):
        actions = [_policy(rng, n) for _ in range(steps)]
        start, start_cpu = time.perf_counter(), time.process_time()
        for action in actions:
            vec.step(action)
        rates.append(steps * n / (time.perf_counter() - start))
        cpu_rates.append(steps * n / max(time.process_time() - start_cpu, 1e-9))
    vec.close()
    return statistics.median(rates), statistics.median(cpu_rates)


def _per_step(env: Any, rounds: int, steps: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds per single-env step: the CPU time is what the step costs whatever
    else the machine runs, so 2 / CPU time is what two idle cores would do at most."""
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    times, cpu = [], []
    for _ in range(rounds):
        batch = _policy(rng, steps)
        actions = [{"action_type": int(kind), "coords": coords, "text": ""}
                   for kind, coords in zip(batch["action_type"], batch["coords"], strict=True)]
        start, start_cpu = time.perf_counter(), time.process_time()
        for action in actions:
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                env.reset()
        times.append((time.perf_counter() - start) / steps)
        cpu.append((time.process_time() - start_cpu) / steps)
    return statistics.median(times), statistics.median(cpu)


def _reset_time(env: Any, rounds: int) -> float:
    """Median seconds of a reset to a new seed (the task instances are drawn once before timing)."""
    for seed in range(100, 100 + rounds):
        env.reset(seed=seed)
    times = []
    for seed in range(100, 100 + rounds):
        start = time.perf_counter()
        env.reset(seed=seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _demos(count: int) -> tuple[float, float]:
    """(episodes a minute recorded, episodes a minute exported): reference replays of world tasks
    written as trace folders by ``RecordTraces``, then exported as Qwen2.5-VL records."""
    from droidpilot.export.writer import export
    from droidpilot.gym.recording import RecordTraces
    from droidpilot.gym.reference import ReferencePolicy

    with tempfile.TemporaryDirectory() as tmp:
        env = RecordTraces(world_env(TEMPLATES), Path(tmp) / "demos")
        env.reset(seed=0)  # warm up (fonts, icon templates), not timed
        start = time.perf_counter()
        for seed in range(1, count + 1):
            env.reset(seed=seed)
            policy, done = ReferencePolicy(env.unwrapped.task), False
            while not done:
                _, _, terminated, truncated, _ = env.step(policy(env.unwrapped))
                done = terminated or truncated
        recorded = time.perf_counter() - start
        start = time.perf_counter()
        summary = export([Path(tmp) / "demos"], "qwen-mobile-use", Path(tmp) / "out.jsonl",
                         include_failed=True)
        exported = time.perf_counter() - start
    return 60 * count / recorded, 60 * summary.episodes / exported


def main() -> None:
    """Measure and print one figure per line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100, help="vector steps per timed window")
    parser.add_argument("--envs", default="1,2,4,8")
    parser.add_argument("--sizes", default="540x1200,1080x2400")
    parser.add_argument("--modes", default="sync,async")
    parser.add_argument("--demos", type=int, default=20, help="reference episodes recorded and exported")
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}  load average at start: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    counts = [int(v) for v in args.envs.split(",")]
    for size in args.sizes.split(","):
        env = _make(size)
        print(f"reset {size}: {_reset_time(env, args.rounds * 4) * 1000:.2f} ms (median)")
        (base, base_cpu), (dense, dense_cpu) = (_per_step(_make(size, r), args.rounds, args.steps)
                                                for r in ("oracle", "milestones"))
        print(f"single env step {size}: {base * 1000:.2f} ms wall, {base_cpu * 1000:.2f} ms CPU "
              f"(at most {2 / base_cpu:.0f} steps/s on 2 idle cores)")
        print(f"milestone reward {size}: {dense * 1000:.2f} ms wall, {dense_cpu * 1000:.2f} ms CPU per step "
              f"(+{(dense_cpu - base_cpu) * 1000:.2f} ms CPU)")
        for mode in args.modes.split(","):
            for n in counts:
                factory: Callable[[], Any] = partial(_make, size)
                vec = (SyncVectorEnv if mode == "sync" else AsyncVectorEnv)([factory] * n)
                wall, cpu = _rate(vec, args.rounds, max(10, args.steps // n))
                per_cpu = f" ({cpu:.0f} per CPU second)" if mode == "sync" else ""
                print(f"steps/s {mode} {n} env{'s' if n > 1 else ''} {size}: {wall:.0f}{per_cpu}", flush=True)
    if args.demos:
        recorded, exported = _demos(args.demos)
        print(f"demonstrations recorded: {recorded:.0f} episodes/min; exported: {exported:.0f} episodes/min")
    print(f"load average at end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
