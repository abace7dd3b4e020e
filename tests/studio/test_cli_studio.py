"""`droidpilot studio`: prints its URL and serves until interrupted; bad options exit 2 with a message."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import call


def test_studio_command_serves_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    command = [sys.executable, "-u", "-m", "droidpilot", "studio", "--port", "0", "--devices", "2",
               "--out", str(tmp_path)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line + proc.stderr.read() if proc.stderr else line
        status, body = call(found.group(0), "/api/phones")
        assert status == 200 and [p["serial"] for p in body["phones"]] == ["simphone-1", "simphone-2"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    assert proc.returncode == 0


@pytest.mark.parametrize(("args", "message"), [
    (["--devices", "0"], "--devices must be at least 1, got 0"),
    (["--port", "70000"], "--port must be from 0 to 65535"),
])
def test_bad_options_exit_2(args: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "droidpilot", "studio", *args], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
