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


def test_version_option_prints_the_package_version() -> None:
    out = subprocess.run([sys.executable, "-m", "droidpilot", "--version"], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == __version__


def test_demo_on_a_machine_without_a_cjk_font_says_why_it_ended(tmp_path) -> None:
    import os

    empty = tmp_path / "no-fonts"
    empty.mkdir()
    env = {**os.environ, "DROIDPILOT_FONT_DIRS": str(empty), "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "droidpilot", "demo", "--out", str(tmp_path / "demo")],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    text = " ".join(proc.stdout.split())
    assert "device_error" in text and "reason: " in text
    assert "apt-get install fonts-wqy-microhei" in text and "Traceback" not in proc.stderr
