"""The command line starts, lists its commands, and prints its version."""

from __future__ import annotations

import json
import os
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
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    env = {**os.environ, "DROIDPILOT_FONT_DIRS": str(empty), "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "droidpilot", "demo", "--out", str(tmp_path / "demo")],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    text = " ".join(proc.stdout.split())
    assert "device_error" in text and "reason: " in text
    assert "apt-get install fonts-wqy-microhei" in text and "Traceback" not in proc.stderr


def _commands_of(module_name: str) -> set[str]:
    """The top-level commands and sub-apps ``register`` of cli/<module_name>.py adds to a fresh app."""
    import importlib

    import typer

    fresh = typer.Typer()
    register = getattr(importlib.import_module(f"droidpilot.cli.{module_name}"), "register", None)
    if callable(register):
        register(fresh)
    return ({c.name for c in fresh.registered_commands if c.name}
            | {g.name for g in fresh.registered_groups if g.name})


def test_the_lazy_command_table_names_every_command_and_the_module_defining_it() -> None:
    from droidpilot.cli import COMMAND_MODULES, _module_names

    defined = {name: module for module in _module_names() for name in _commands_of(module)}
    assert set(COMMAND_MODULES) == set(defined)
    for command, modules in COMMAND_MODULES.items():
        assert defined[command] in modules, command


def test_a_cold_ocr_command_imports_neither_the_verifier_nor_the_agent(tmp_path) -> None:
    from PIL import Image

    shot = tmp_path / "blank.png"
    Image.new("RGB", (120, 60), "white").save(shot)
    code = "\n".join([
        "import contextlib, sys",
        "from droidpilot.cli import main",
        "sys.argv = ['droidpilot', 'ocr', sys.argv[1], '--json', '--no-cache']",
        "with contextlib.suppress(SystemExit):",
        "    main()",
        "print(sorted(m for m in sys.modules if m.startswith(('droidpilot.verify', 'droidpilot.agent'))))",
    ])
    out = subprocess.run([sys.executable, "-c", code, str(shot)], capture_output=True, text=True, check=True,
                         env={**os.environ, "DROIDPILOT_CACHE_DIR": str(tmp_path / "cache")})
    assert out.stdout.strip().splitlines() == ["[]", "[]"]
