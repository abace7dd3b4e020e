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
# The emulator side of the comparison. AndroidWorld's agents wait ``transition_pause`` = 1.0 s by default
# after every action before they fetch the screenshot and accessibility tree
# (google-research/android_world, android_world/agents/base_agent.py, EnvironmentInteractingAgent); its
# "auto" mode instead polls the UI every 0.5 s until three readings in a row match, two pauses at least
# (android_world/env/interface.py, AsyncAndroidEnv._get_stable_state). An emulator step there is thus at
# least 1 s before the fetch itself and the action's own adb round trips: the ratio below is a lower bound.
EMULATOR_STEP_S = 1.0
EMULATOR_NOTE = "AndroidWorld's default 1.0 s transition pause per step, see EMULATOR_STEP_S"
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


def _demos(count: int, workers: int) -> tuple[float, float]:
    """(episodes a minute, episodes per CPU-minute): ``make_demos`` (what ``droidpilot demos`` runs) over
    the whole world suite, seeds 0..count-1: reference replays recorded as traces and exported. The CPU
    time counts this process and its worker processes."""
    import resource

    from droidpilot.gym.demos import make_demos

    def cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    with tempfile.TemporaryDirectory() as tmp:
        make_demos(Path(tmp) / "warm", [10**6])  # templates loaded, fonts and icon library warm
        start, start_cpu = time.perf_counter(), cpu()
        summary = make_demos(Path(tmp) / "demos", list(range(count)), workers=workers)
        wall, used = time.perf_counter() - start, cpu() - start_cpu
    return 60 * summary.episodes / wall, 60 * summary.episodes / max(used, 1e-9)


def main() -> None:
    """Measure and print one figure per line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100, help="vector steps per timed window")
    parser.add_argument("--envs", default="1,2,4,8")
    parser.add_argument("--sizes", default="540x1200,1080x2400")
    parser.add_argument("--modes", default="sync,async")
    parser.add_argument("--demos", type=int, default=40, help="reference episodes recorded and exported")
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
        print(f"vs an emulator step of ~{EMULATOR_STEP_S:g} s: {EMULATOR_STEP_S / base:.0f}x faster per step "
              f"(wall), {EMULATOR_STEP_S / base_cpu:.0f}x per CPU-second ({EMULATOR_NOTE})")
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
        for workers in (1, 2):
            per_min, per_cpu_min = _demos(args.demos, workers)
            print(f"demonstrations (world suite, {args.demos} seeds, {workers} process"
                  f"{'es' if workers > 1 else ''}): {per_min:.0f} episodes/min recorded and exported "
                  f"({per_cpu_min:.0f} per CPU-minute)", flush=True)
    print(f"load average at end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
