"""Every count a user can type has a documented limit: past it, exit 2 with a message naming the option,
the limit and how to do more, before anything is built (no hang, no MemoryError); at the limit, the
command goes on. Bad `--ray` addresses and fixed suites given template options are refused the same way."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from droidpilot import limits
from droidpilot.cli import _discover, app


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    _discover()
    return CliRunner()


def _text(result) -> str:  # type: ignore[no-untyped-def]
    return " ".join(result.output.split())


@pytest.mark.parametrize(("args", "message"), [
    (["--suite", "world", "--instances", "1000000000"],
     "--instances 1,000,000,000 is over the limit of 1,000 per template; to do more, draw more from other "
     "seeds"),
    (["--suite", "world", "--instances", "1000"], "templates x 1,000 instances), over the limit"),
    (["--trials", "101"], "--trials 101 is over the limit of 100"),
    (["--devices", "65"], "--devices 65 is over the limit of 64"),
    (["--jobs", "65"], "--jobs 65 is over the limit of 64"),
    (["--max-steps", "1001"], "--max-steps 1,001 is over the limit of 1,000"),
    (["--seed", str(2**32)], "--seed 4,294,967,296 is over the limit of 4,294,967,295"),
    (["--seed", "-1"], "--seed must be at least 0"),
    (["--image-max-side", "8193"], "--image-max-side 8,193 is over the limit of 8,192 pixels"),
    (["--adb-port", "70000"], "--adb-port 70,000 is over the limit of 65,535"),
    (["--ray", "127.0.0.1:99999"], "the port 99999 is not from 1 to 65535"),
    (["--ray", "127.0.0.1:0"], "the port 0 is not from 1 to 65535"),
    (["--ray", "headnode"], "not HOST:PORT"),
    (["--ray", ":6379"], "not HOST:PORT"),
    (["--tier", "easy"], "--tier only applies to template suites such as world; mobile-eval is a suite of "
                         "fixed tasks"),
    (["--instances", "2", "--templates", "x"], "--instances and --templates only apply to template suites"),
])
def test_bench_counts_past_their_limit_exit_2(runner: CliRunner, tmp_path: Path, args: list[str],
                                              message: str) -> None:
    result = runner.invoke(app, ["bench", "--brain", "reference", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2, result.output
    assert message in _text(result)
    assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "results.json").exists()


def test_the_largest_allowed_counts_are_accepted(runner: CliRunner, tmp_path: Path) -> None:
    """At every limit the checks pass; the run then stops at the first check that is not a count (an
    unknown task), so nothing runs."""
    result = runner.invoke(app, ["bench", "--out", str(tmp_path / "out"), "--trials", "100",
                                 "--devices", "64", "--jobs", "64", "--max-steps", "1000",
                                 "--seed", str(2**32 - 1),
                                 "--image-max-side", "8192", "--adb-port", "65535", "--tasks", "nope"])
    assert result.exit_code == 2 and "no task 'nope'" in _text(result), result.output


@pytest.mark.parametrize(("args", "message"), [
    (["suite", "validate", "world", "--seeds", "1000000000"],
     "--seeds 1,000,000,000 is over the limit of 100; to do more, validate in several calls, each from the "
     "next --first-seed"),
    (["suite", "validate", "world", "--first-seed", str(2**32 - 1), "--seeds", "2"],
     "--first-seed + --seeds 4,294,967,296 is over the limit"),
    (["suite", "show", "clock-label", "--instance", "1000"], "--instance 1,000 is over the limit of 999"),
    (["suite", "show", "clock-label", "--seed", "-3"], "--seed must be at least 0"),
    (["run", "open settings", "--max-steps", "5000"], "--max-steps 5,000 is over the limit of 1,000"),
    (["run", "open settings", "--adb-port", "0"], "--adb-port must be at least 1, got 0"),
    (["verify-batch", "rule.yaml", ".", "--jobs", "1000"], "--jobs 1,000 is over the limit of 64"),
    (["studio", "--devices", "100"], "--devices 100 is over the limit of 64"),
    (["sim", "shot", "x.png", "--seed", "-1"], "--seed must be at least 0"),
    (["sim", "serve", "--port", "70000"], "--port must be from 0 (any free port) to 65535"),
])
def test_other_commands_counts_past_their_limit_exit_2(runner: CliRunner, args: list[str],
                                                       message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in _text(result) and "Traceback" not in result.output


def test_a_suite_of_too_many_template_variants_is_refused(tmp_path: Path, runner: CliRunner) -> None:
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    variants = "".join(f"      - {{id: v{i}}}\n" for i in range(limits.TEMPLATES + 1))
    (folder / "notes.yaml").write_text(
        "app: notes\ntemplates:\n  - id: many\n    kind: edit\n    instruction: Open Notes.\n"
        "    reference: ['open App (Notes)']\n    checkpoints: [[Notes]]\n"
        "    oracle: {path: notes.notes, length_at_least: 0}\n    variants:\n" + variants, encoding="utf-8")
    for args in (["suite", "list", "--suite", str(folder)], ["suite", "validate", str(folder)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "10,001 variants, over the limit of 10,000 templates in a suite" in _text(result)
        assert "notes.yaml:3" in result.output


def test_a_long_listing_shows_progress_on_a_terminal_only(tmp_path: Path) -> None:
    """stderr a terminal (a pty), stdout a pipe: the rows go to the pipe whole, the progress bar to the
    terminal; with stderr a pipe too, no progress at all."""
    cmd = [sys.executable, "-m", "droidpilot", "suite", "list", "--templates", "clock-*"]
    env = {**os.environ, "COLUMNS": "100"}
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    shown = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    out = proc.stdout.read().decode() if proc.stdout else ""
    assert proc.wait(timeout=120) == 0
    os.close(master)
    assert b"instantiating" in shown and b"templates over 1 apps" in shown
    assert out.splitlines()[0].startswith("template\tapps")
    piped = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert "instantiating" not in piped.stderr and "\x1b" not in piped.stderr
    assert piped.stderr.strip().endswith("templates over 1 apps") and piped.stdout == out


def test_a_template_file_over_the_size_limit_is_refused_before_parsing(tmp_path: Path,
                                                                       runner: CliRunner) -> None:
    folder = tmp_path / "huge"
    folder.mkdir()
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    filler = "# padding\n" * (limits.TEMPLATE_FILE_BYTES // 10 + 1)
    (folder / "notes.yaml").write_text("app: notes\ntemplates: []\n" + filler, encoding="utf-8")
    result = runner.invoke(app, ["suite", "list", "--suite", str(folder)])
    assert result.exit_code == 2, result.output
    assert "over the limit of 1,048,576 for one file of a suite" in _text(result)
    assert "split it into several files" in _text(result)
