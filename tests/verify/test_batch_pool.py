"""verify-batch when a worker process dies: the pool is replaced and no queued trace is lost."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any

from droidpilot.verify.batch import _run_pooled, run_batch
from droidpilot.verify.setup import VerifierChoices

RULE = """task_id: t
nodes:
  - id: a
    condition: {type: text_match, params: {any: [alpha]}}
success: {any_of: [a]}
"""


def _traces(folder: Path, n: int) -> list[Path]:
    folder.mkdir()
    paths = []
    for i in range(n):
        path = folder / f"t{i:02d}.json"
        path.write_text(json.dumps([{"text": "alpha" if i % 2 == 0 else "beta"}]), encoding="utf-8")
        paths.append(path)
    return paths


def test_killing_a_worker_loses_no_queued_trace(tmp_path: Path) -> None:
    rule = tmp_path / "rule.yaml"
    rule.write_text(RULE, encoding="utf-8")
    traces = _traces(tmp_path / "traces", 12)
    killed: list[int] = []

    def kill_one_worker(line: dict[str, Any]) -> None:
        if not killed:
            worker = multiprocessing.active_children()[0]
            os.kill(worker.pid, signal.SIGKILL)  # type: ignore[arg-type]
            killed.append(worker.pid)  # type: ignore[arg-type]

    summary = run_batch(rule, traces, VerifierChoices(), jobs=2, on_done=kill_one_worker)
    assert killed
    assert sorted(line["trace"] for line in summary.lines) == sorted(map(str, traces))
    assert summary.errors <= 1, [line for line in summary.lines if "error" in line]
    assert summary.passed + summary.failed + summary.errors == 12


def crash_on_poison(trace: str) -> dict[str, Any]:
    """Runs in a pool worker: dies like a native crash on the poisoned trace, answers for the others."""
    if trace == "poison":
        os._exit(70)
    return {"trace": trace, "ok": True}


def test_only_the_trace_that_kills_its_worker_fails() -> None:
    traces = [f"t{i}" for i in range(5)] + ["poison"] + [f"u{i}" for i in range(5)]
    lines: list[dict[str, Any]] = []
    _run_pooled(2, traces, lambda pool, t: pool.submit(crash_on_poison, t), lines.append)
    assert sorted(line["trace"] for line in lines) == sorted(traces)
    failed = [line for line in lines if not line["ok"]]
    assert [line["trace"] for line in failed] == ["poison"]
    assert "the process verifying this trace died" in failed[0]["error"]
