"""--resume after a kill: SIGKILL a running `droidpilot bench` (and its workers), then resume it; finished
tasks are kept as they were and the rest are run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TASKS = ["music-3", "settings-2", "shop-1"]
CLI = [sys.executable, "-m", "droidpilot", "bench", "--brain", "reference", "--tasks", ",".join(TASKS),
       "--no-report"]


def _rows(out: Path) -> list[dict]:
    try:
        return json.loads((out / "results.json").read_text())["tasks"]
    except (OSError, json.JSONDecodeError, KeyError):
        return []


@pytest.mark.slow
def test_kill_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = subprocess.Popen([*CLI, "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 300
    try:
        while not _rows(out) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    first = _rows(out)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    assert first, "no task finished before the deadline: " + stderr
    assert len(first) < len(TASKS), "the run finished before it could be killed"
    kept = {r["id"]: r for r in first}
    done = subprocess.run([*CLI, "--out", str(out), "--resume"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} finished task(s) kept" in done.stdout
    rows = {r["id"]: r for r in _rows(out)}
    assert sorted(rows) == sorted(TASKS)
    for tid, row in kept.items():
        assert rows[tid] == row  # not run again
    for row in rows.values():
        assert (row["su"], row["su_oracle"]) == (1, 1), row
        assert json.loads((out / row["trace"] / "verify.json").read_text())["ok"] is True
