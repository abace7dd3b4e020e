"""How the verifier scales: a 60-node chain over 3,000 JSON frames, a 200-node random DAG over 1,000,
and 10k-node rules over 1,000 frames (a chain, and a "ladder" whose nodes each have next: [n+1, n+2],
with astronomically many success paths), each also explained as `droidpilot verify` prints it.

Prints one figure per line (``name value``): wall time, checker calls and, for the chain, the bound
frames + nodes that checker calls must not exceed; for the 10k rules, the peak memory of a fresh process
(goal: under 5 s and 500 MB each). Uses the built-in text_match (pinned to the action) and ui_flag
(pinned to the screen) checkers, so it needs no model.

    .venv/bin/python benchmarks/verify_scale.py [--seed 7]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from rich.console import Console

from droidpilot.verify.engine import verify
from droidpilot.verify.explain import render
from droidpilot.verify.rule import Condition, Node, Success, Task
from droidpilot.verify.spec import load_rule
from droidpilot.verify.trace import load_trace


def chain(n_nodes: int, n_frames: int, last_holds: bool) -> tuple[Task, list[dict[str, object]]]:
    """Node k alternates text (action) and ui (screen) checks and holds once, around frame k*gap."""
    gap = n_frames // n_nodes
    nodes = []
    for k in range(n_nodes):
        cond = (Condition(type="text_match", params={"any": [f"step-{k}"]}) if k % 2 == 0 else
                Condition(type="ui_flag", params={"key": f"s{k}", "equals": True}))
        nodes.append(Node(id=f"n{k}", next=[f"n{k + 1}"] if k + 1 < n_nodes else [], condition=cond))
    frames: list[dict[str, object]] = [{"text": f"frame {f}", "ui": {}} for f in range(n_frames)]
    for k in range(n_nodes):
        if k == n_nodes - 1 and not last_holds:
            break
        at = min(k * gap + gap - 1, n_frames - 1)
        if k % 2 == 0:
            frames[at]["text"] = f"frame {at} step-{k}"
        else:
            frames[at]["ui"] = {f"s{k}": True}
    return Task(task_id="chain", nodes=nodes), frames


def random_dag(n_nodes: int, n_frames: int, rng: random.Random) -> tuple[Task, list[dict[str, object]]]:
    """Nodes with random deps (AND) or next parents (OR) among earlier nodes; each frame makes a few
    random conditions true."""
    deps: dict[int, list[int]] = {}
    nexts: dict[int, list[int]] = {k: [] for k in range(n_nodes)}
    for k in range(1, n_nodes):
        earlier = list(range(max(0, k - 20), k))
        if rng.random() < 0.3:
            deps[k] = rng.sample(earlier, min(len(earlier), rng.randint(1, 2)))
        elif rng.random() < 0.9:
            for parent in rng.sample(earlier, min(len(earlier), rng.randint(1, 3))):
                nexts[parent].append(k)
    nodes = []
    for k in range(n_nodes):
        cond = (Condition(type="text_match", params={"any": [f"w{k}."]}) if k % 2 == 0 else
                Condition(type="ui_flag", params={"key": f"u{k}", "equals": True}))
        has_parent = bool(deps.get(k)) or any(k in c for c in nexts.values())
        nodes.append(Node(id=f"n{k}", deps=[f"n{d}" for d in deps.get(k, [])],
                          next=[f"n{c}" for c in nexts[k]],
                          condition=None if has_parent and k % 7 == 3 else cond))
    frames: list[dict[str, object]] = []
    for f in range(n_frames):
        band = range(max(0, f * n_nodes // n_frames - 10), min(n_nodes, f * n_nodes // n_frames + 10))
        hot = rng.sample(list(band), min(len(band), 6))
        frames.append({"text": " ".join(f"w{k}." for k in hot if k % 2 == 0),
                       "ui": {f"u{k}": True for k in hot if k % 2 == 1}})
    targets = [n.id for n in nodes[-40:] if not n.next and n.condition is not None][-3:]
    return Task(task_id="dag", nodes=nodes, success=Success(all_of=targets)), frames


def big(shape: str, n_nodes: int, n_frames: int) -> tuple[Task, list[dict[str, object]]]:
    """A 10k-node ``chain`` or ``ladder`` (next: [n+1, n+2]); a fifth of the nodes have a condition, the
    others pass through. Conditioned node number j holds at event j, so both traces pass."""
    nodes = []
    for k in range(n_nodes):
        nexts = [f"n{j}" for j in ((k + 1,) if shape == "chain" else (k + 1, k + 2)) if j < n_nodes]
        # a chain conditions every 5th node; a ladder a pair per 10 (so no jump of two skips both)
        j = k // 5 if shape == "chain" else 2 * (k // 10) + k % 10
        cond = None
        if (shape == "chain" and k % 5 == 0) or (shape == "ladder" and k % 10 in (0, 1)):
            cond = (Condition(type="ui_flag", params={"key": f"s{j}", "equals": True}) if j % 2 == 0 else
                    Condition(type="text_match", params={"any": [f"step-{j}."]}))
        nodes.append(Node(id=f"n{k}", next=nexts, condition=cond))
    frames: list[dict[str, object]] = [{"text": f"step-{2 * f + 1}.", "ui": {f"s{2 * f}": True}}
                                       for f in range(n_frames)]
    return Task(task_id=shape, nodes=nodes), frames


def compact(value: object) -> object:
    """A dumped rule without its empty lists and mappings (a node's ``deps: []``), as a person writes it:
    the rule models are dataclasses whose ``model_dump`` has no ``exclude_defaults``."""
    if isinstance(value, dict):
        kept = {k: compact(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in ([], {})}
    if isinstance(value, list):
        return [compact(v) for v in value]
    return value


def run_big(name: str, shape: str) -> None:
    """One 10k-node case in this (fresh) process: load, verify, explain; peak memory included."""
    built, frames = big(shape, 10_000, 1_000)
    with tempfile.TemporaryDirectory() as tmp:
        path, rule = Path(tmp) / "trace.json", Path(tmp) / "rule.yaml"
        path.write_text(json.dumps(frames), encoding="utf-8")
        rule.write_text(yaml.safe_dump(compact(built.model_dump(exclude_none=True))), encoding="utf-8")
        begin = time.perf_counter()
        task = load_rule(rule)  # parsed and validated as `droidpilot verify` does
        start = time.perf_counter()
        result = verify(task, load_trace(path))
        verified = time.perf_counter()
        render(result, task, Console(file=io.StringIO(), width=120))
        explained = time.perf_counter()
    print(f"{name}.nodes {len(task.nodes)}")
    print(f"{name}.frames {len(frames)}")
    print(f"{name}.ok {result.ok}")
    print(f"{name}.load_rule_seconds {start - begin:.3f}")
    print(f"{name}.verify_seconds {verified - start:.3f}")
    print(f"{name}.explain_seconds {explained - verified:.3f}")
    print(f"{name}.checker_calls {result.checker_calls}")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{name}.cpu_seconds {usage.ru_utime + usage.ru_stime:.3f}")
    print(f"{name}.peak_rss_mb {usage.ru_maxrss / 1024:.0f}")


def run(name: str, task: Task, frames: list[dict[str, object]], bound: int | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        path.write_text(json.dumps(frames), encoding="utf-8")
        start = time.perf_counter()
        trace = load_trace(path)
        loaded = time.perf_counter()
        result = verify(task, trace)
        done = time.perf_counter()
    print(f"{name}.nodes {len(task.nodes)}")
    print(f"{name}.frames {len(frames)}")
    print(f"{name}.ok {result.ok}")
    print(f"{name}.load_seconds {loaded - start:.3f}")
    print(f"{name}.verify_seconds {done - loaded:.3f}")
    print(f"{name}.checker_calls {result.checker_calls}")
    print(f"{name}.evaluations {result.evaluations}")
    if bound is not None:
        print(f"{name}.bound_frames_plus_nodes {bound}")
        print(f"{name}.within_bound {result.checker_calls <= bound}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--big", choices=("chain", "ladder"), help=argparse.SUPPRESS)  # one 10k case
    args = parser.parse_args()
    if args.big:
        run_big(f"{args.big}10k", args.big)
        return 0
    for label, holds in (("chain60_pass", True), ("chain60_fail", False)):
        task, frames = chain(60, 3000, holds)
        run(label, task, frames, bound=len(frames) + len(task.nodes))
    task, frames = random_dag(200, 1000, random.Random(args.seed))
    run("dag200", task, frames)
    print(f"dag200.success_all_of {len(task.success.all_of or [])}")
    sys.stdout.flush()
    for shape in ("chain", "ladder"):  # a fresh process each, so peak memory is the case's own
        subprocess.run([sys.executable, __file__, "--big", shape], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
