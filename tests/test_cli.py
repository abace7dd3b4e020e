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


QUICK_PROBE = """import sys, threading, time
from pathlib import Path
from droidpilot.cli import console
out = Path(sys.argv[1])
def late_writer():
    time.sleep(0.5)
    out.write_text("written", encoding="utf-8")
if sys.argv[2] == "thread":
    threading.Thread(target=late_writer).start()  # not a daemon: the process must wait for it
sys.argv = ["droidpilot", "verify", *sys.argv[3:], "--json"]
console()
"""


def test_verify_ends_quickly_yet_loses_no_output_and_waits_for_working_threads(tmp_path) -> None:
    """`verify` exits without the interpreter's teardown, but its verdict, status and log records all come
    out, and a non-daemon thread still working (a writer) is waited for."""
    from droidpilot.verify.examples import example_dir

    trace = example_dir() / "trace"
    rule = tmp_path / "rule.yaml"  # FAIL (status 1), and a warning about a node off the success path
    never = "    condition: {type: text_match, params: {any: [zzz-not-there]}}\n"
    rule.write_text(f"task_id: t\nnodes:\n  - id: never\n{never}  - id: island\n{never}"
                    "success: {any_of: [never]}\n", encoding="utf-8")
    for mode in ("thread", "alone"):
        marker = tmp_path / f"{mode}.txt"
        proc = subprocess.run([sys.executable, "-c", QUICK_PROBE, str(marker), mode, str(rule), str(trace)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 1, proc.stderr
        assert json.loads(proc.stdout)["ok"] is False
        assert "node 'island'" in proc.stderr
        assert marker.is_file() == (mode == "thread")
