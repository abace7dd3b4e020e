"""The table of which module registers each command, and that a command imports its own module alone."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys

import typer

import droidpilot.cli as cli


def _top_level_commands(module_name: str) -> set[str]:
    """The top-level commands ``module_name``'s register() adds to a fresh app."""
    fresh = typer.Typer()
    fresh.callback()(lambda: None)  # a group, even with one command
    module = importlib.import_module(f"droidpilot.cli.{module_name}")
    register = getattr(module, "register", None)
    if callable(register):
        register(fresh)
    return set(typer.main.get_group(fresh).commands)


def test_the_command_table_names_the_module_of_every_command() -> None:
    modules = [m.name for m in pkgutil.iter_modules(cli.__path__) if not m.name.startswith("_")]
    registered = {name: _top_level_commands(name) for name in modules}
    every_command = set().union(*registered.values())
    assert set(cli.COMMAND_MODULES) == every_command
    for module, commands in registered.items():
        for command in commands:
            assert module in cli.COMMAND_MODULES[command], (command, module)


def _cold_run(argv: list[str], prefixes: tuple[str, ...]) -> tuple[int, str, list[str]]:
    """``droidpilot ARGV`` in a fresh interpreter: (exit code, stdout, loaded modules under ``prefixes``)."""
    script = ("import sys, json\n"
              "from droidpilot.cli import main\n"
              f"sys.argv = ['droidpilot', *{argv!r}]\n"
              "try:\n    main()\n"
              "except SystemExit as exc:\n"
              f"    mods = sorted(m for m in sys.modules if m.startswith({prefixes!r}))\n"
              "    print(json.dumps({'code': exc.code, 'modules': mods}), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    return report["code"], proc.stdout, report["modules"]


def test_verify_imports_only_the_verify_command_module(tmp_path) -> None:
    rule = tmp_path / "rule.yaml"
    rule.write_text("task_id: t\nnodes:\n  - id: a\n    condition: {type: text_match, params: {any: [go]}}\n",
                    encoding="utf-8")
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps([{"text": "go"}]), encoding="utf-8")
    code, stdout, modules = _cold_run(["verify", str(rule), str(trace), "--json"], ("droidpilot.",))
    assert code == 0 and json.loads(stdout)["ok"] is True
    others = [m for m in modules
              if m.startswith(("droidpilot.cli.", "droidpilot.agent", "droidpilot.bench", "droidpilot.studio",
                               "droidpilot.device"))
              and not m.startswith(("droidpilot.cli.verify", "droidpilot.cli._"))]
    assert others == []


def test_help_still_lists_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "droidpilot", "--help"], capture_output=True, text=True,
                         check=True, env={"COLUMNS": "200", "PATH": ""})
    for command in cli.COMMAND_MODULES:
        assert command in out.stdout, command


def test_a_cold_ocr_imports_neither_the_verifier_nor_the_agent_nor_rich(tmp_path) -> None:
    from PIL import Image

    shot = tmp_path / "blank.png"
    Image.new("RGB", (120, 60), "white").save(shot)
    code, stdout, modules = _cold_run(["ocr", str(shot), "--json", "--no-cache"], ("droidpilot.", "rich"))
    assert code == 0 and json.loads(stdout) == []
    others = [m for m in modules
              if m.startswith(("rich", "droidpilot.verify", "droidpilot.agent", "droidpilot.bench",
                               "droidpilot.perception.cache", "droidpilot.cli."))
              and not m.startswith(("droidpilot.cli.perception", "droidpilot.cli._"))]
    assert others == []
