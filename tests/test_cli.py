"""The command line starts, lists its commands, and prints its version."""

from __future__ import annotations

import json
import subprocess
import sys

from droidpilot import __version__


def test_version_command_prints_the_package_version() -> None:
    out = subprocess.run([sys.executable, "-m", "droidpilot", "version"], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == __version__


def test_help_lists_commands() -> None:
    out = subprocess.run([sys.executable, "-m", "droidpilot", "--help"], capture_output=True, text=True,
                         check=True)
    assert "version" in out.stdout


def test_demo_runs_the_agent_on_simphone_and_verifies_its_trace(tmp_path) -> None:
    out = tmp_path / "demo"
    proc = subprocess.run([sys.executable, "-m", "droidpilot", "demo", "--json", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["oracle_ok"] is True and report["verdict"]["ok"] is True
    assert report["verdict"]["manual_review_needed"] is False
    assert (out / "actions.json").is_file() and (out / "1.jpg").is_file()
