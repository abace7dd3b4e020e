"""What ``--ray`` costs and gives on this machine: the reference run of a suite with the local runner
(N = 1, 2 SimPhones) and on a local Ray (1, 2, 4 phone actors), then ``verify-batch`` of 200 traces with
``--jobs 2`` and with ``--ray``. Prints one figure per line, then Ray's overhead per task and what a
cluster of several such nodes would give by the per-task figures.

    .venv/bin/python benchmarks/ray_scale.py [--suite mobile-eval] [--tasks ID,...] [--traces 200]

The suite runs share one OCR cache, warmed by a first untimed local run, so every timed run does the same
work; each verify-batch run starts with an empty OCR cache of its own.
Each Ray run starts its own loopback-only Ray (as ``--ray`` with no address does); its start-up (Ray
itself, then the phone actors loading their OCR engines) is timed separately from the tasks.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from droidpilot.ray_env import prepare_loopback

prepare_loopback()  # before anything imports ray

from droidpilot.bench.ray_runner import run_suite_ray  # noqa: E402
from droidpilot.bench.runner import run_suite  # noqa: E402
from droidpilot.bench.worker import RunConfig  # noqa: E402
from droidpilot.verify.batch import run_batch  # noqa: E402
from droidpilot.verify.ray_batch import run_batch_ray  # noqa: E402
from droidpilot.verify.setup import VerifierChoices  # noqa: E402


class Clock:
    """Driver-side timestamps of a run's events: start-up, and each task's submit -> result time."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.first_ready: float | None = None
        self.started: dict[str, float] = {}
        self.latency: dict[str, float] = {}

    def __call__(self, kind: str, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if kind == "ready" and self.first_ready is None:
            self.first_ready = now - self.t0
        elif kind == "start":
            self.started[info["task"]] = now
        elif kind == "done" and info["task"] in self.started:
            self.latency[info["task"]] = now - self.started[info["task"]]


def suite_runs(suite: str, ids: list[str] | None, tmp: Path) -> dict[str, Any]:
    """Time the local and Ray runs; the figures the summary needs."""
    run_suite(RunConfig(suite=suite, brain="reference", out=tmp / "warm"), ["sim", "sim"], task_ids=ids)
    figures: dict[str, Any] = {}
    for n in (1, 2):
        outcome = run_suite(RunConfig(suite=suite, brain="reference", out=tmp / f"local-{n}"), ["sim"] * n,
                            task_ids=ids)
        ok = sum(1 for r in outcome.rows if r["su"] and r["su_oracle"])
        print(f"local runner, {n} SimPhone(s): {outcome.seconds:.1f} s wall, {len(outcome.rows)} tasks, "
              f"{ok} passed rule and oracle", flush=True)
        figures[f"local{n}"] = outcome.seconds
        figures["tasks"] = len(outcome.rows)
        figures["task_s"] = statistics.mean(r["seconds"] for r in outcome.rows)
    for n in (1, 2, 4):
        clock = Clock()
        outcome = run_suite_ray(RunConfig(suite=suite, brain="reference", out=tmp / f"ray-{n}"), ["sim"] * n,
                                task_ids=ids, on_event=clock)
        ok = sum(1 for r in outcome.rows if r["su"] and r["su_oracle"])
        startup = clock.first_ready or 0.0
        overhead = [clock.latency[r["id"]] - r["seconds"] for r in outcome.rows if r["id"] in clock.latency]
        print(f"Ray, {n} phone actor(s): {outcome.seconds:.1f} s wall ({startup:.1f} s start-up: Ray and the "
              f"first actor ready; {outcome.seconds - startup:.1f} s of tasks), {ok}/{len(outcome.rows)} "
              f"passed rule and oracle", flush=True)
        figures[f"ray{n}"] = (outcome.seconds, startup, statistics.median(overhead))
    return figures


def verify_runs(suite_out: Path, count: int, tmp: Path) -> tuple[float, float]:
    """verify-batch of ``count`` copies of the suite's traces against one rule: --jobs 2 vs --ray."""
    sources = sorted(p for p in (suite_out / "traces").iterdir() if p.is_dir())
    rule = sources[0] / "rule.yaml"
    folder = tmp / "batch"
    folder.mkdir()
    traces = []
    for i in range(count):
        traces.append(Path(shutil.copytree(sources[i % len(sources)], folder / f"t{i:04d}")))
    choices = VerifierChoices(ocr="rapidocr")
    os.environ["DROIDPILOT_CACHE_DIR"] = str(tmp / "ocr-cache-jobs")  # each mode starts with no OCR cache
    started = time.monotonic()
    jobs = run_batch(rule, traces, choices, jobs=2)
    local = time.monotonic() - started
    print(f"verify-batch {count} traces, --jobs 2: {local:.1f} s ({len(jobs.lines)} lines, {jobs.passed} "
          f"passed)", flush=True)
    os.environ["DROIDPILOT_CACHE_DIR"] = str(tmp / "ocr-cache-ray")
    started = time.monotonic()
    ray = run_batch_ray(rule, traces, choices)
    remote = time.monotonic() - started
    print(f"verify-batch {count} traces, --ray (local Ray, {len(ray.workers)} actors): {remote:.1f} s "
          f"({len(ray.lines)} lines, {ray.passed} passed)", flush=True)
    return local, remote


def main() -> int:
    """Run both measurements and print the figures and the per-task estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="mobile-eval")
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: all)")
    parser.add_argument("--traces", type=int, default=200, help="traces for the verify-batch figure")
    args = parser.parse_args()
    ids = [t for t in args.tasks.split(",") if t] or None
    with tempfile.TemporaryDirectory(prefix="ray-scale-") as tmp_name:
        tmp = Path(tmp_name)
        os.environ["DROIDPILOT_CACHE_DIR"] = str(tmp / "ocr-cache")
        f = suite_runs(args.suite, ids, tmp)
        local, remote = verify_runs(tmp / "local-1", args.traces, tmp)
    tasks, task_s = f["tasks"], f["task_s"]
    ray1, start1, over1 = f["ray1"]
    print(f"cores: {os.cpu_count()}; mean task time inside a worker: {task_s * 1000:.0f} ms")
    print(f"Ray overhead per task (median submit-to-result minus the task's own time, 1 actor): "
          f"{over1 * 1000:.0f} ms; with 2 actors {f['ray2'][2] * 1000:.0f} ms, 4 actors "
          f"{f['ray4'][2] * 1000:.0f} ms")
    print(f"Ray wall minus local wall, per task, 1 phone: {(ray1 - f['local1']) / tasks * 1000:.0f} ms "
          f"(start-up included), {(ray1 - start1 - f['local1']) / tasks * 1000:.0f} ms (start-up excluded)")
    print(f"speed-up 1 -> 2 phones: local {f['local1'] / f['local2']:.2f}x, Ray "
          f"{(ray1 - start1) / (f['ray2'][0] - f['ray2'][1]):.2f}x; 4 actors on {os.cpu_count()} cores: "
          f"{(ray1 - start1) / (f['ray4'][0] - f['ray4'][1]):.2f}x")
    per_task = task_s + over1
    for nodes in (4,):
        phones = nodes * (os.cpu_count() or 1)
        wall = start1 + math.ceil(tasks / phones) * per_task
        print(f"estimate, {nodes} nodes x {os.cpu_count()} cores ({phones} phone actors), same per-task "
              f"figures: {wall:.1f} s for these {tasks} tasks ({start1:.1f} s start-up + "
              f"{math.ceil(tasks / phones)} rounds x {per_task:.2f} s), vs {f['local2']:.1f} s locally on 2")
    per_trace = (remote - local) / args.traces * 1000
    print(f"verify-batch: --ray / --jobs 2 wall = {remote / local:.2f} ({per_trace:+.0f} ms per trace, Ray "
          f"start-up included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
