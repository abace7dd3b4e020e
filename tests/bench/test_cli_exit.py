"""`droidpilot bench` exits non-zero, saying why, when no task could run to an end of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from droidpilot.cli.bench import failed_everywhere


def test_exit_status_from_the_rows() -> None:
    ok = {"id": "a", "termination": "completed", "error": ""}
    dev = {"id": "b", "termination": "device_error", "error": "cannot take a screenshot"}
    model = {"id": "c", "termination": "brain_error", "error": "LLM service unreachable"}
    crashed = {"id": "d", "termination": "error", "error": "RuntimeError: boom"}
    assert failed_everywhere([]) == (0, "")
    assert failed_everywhere([ok, dev])[0] == 0
    assert failed_everywhere([dev, dev]) == (3, "every task ended on a device error; first: "
                                                "cannot take a screenshot")
    assert failed_everywhere([model])[0] == 4
    assert failed_everywhere([dev, model, crashed])[0] == 1


def test_bench_where_every_task_hits_a_device_error_exits_3(tmp_path: Path) -> None:
    empty = tmp_path / "no-fonts"
    empty.mkdir()  # SimPhone cannot draw the home screen's Chinese app names: every task is a device error
    env = {**os.environ, "DROIDPILOT_FONT_DIRS": str(empty), "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "droidpilot", "bench", "--tasks", "settings-1", "--out",
                           str(tmp_path / "out"), "--no-report"], capture_output=True, text=True, timeout=300,
                          env=env)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "every task ended on a device error" in " ".join(proc.stdout.split())
