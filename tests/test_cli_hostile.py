"""The command line against hostile input: unwritable --out, huge images, odd files, closed pipes and
escape sequences. Each is a clear message and the documented exit status, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from droidpilot.cli import _discover, app
from droidpilot.verify.examples import example_dir

EXAMPLE = example_dir()


def _cli(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "droidpilot", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300, input=stdin)


@pytest.fixture
def runner() -> CliRunner:
    _discover()
    return CliRunner()


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header claims ``width`` x ``height`` pixels (a decompression bomb's calling card)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                     + chunk(b"IEND", b""))


def test_ocr_on_a_decompression_bomb_is_a_clear_error(tmp_path: Path, runner: CliRunner) -> None:
    image = tmp_path / "huge.png"
    _png_header_only(image, 20000, 20000)
    result = runner.invoke(app, ["ocr", str(image)])
    assert result.exit_code == 2, result.output
    assert "too large to read" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("kind", ["loop", "fifo", "devzero"])
def test_odd_image_files_are_named_for_what_they_are(tmp_path: Path, runner: CliRunner, kind: str) -> None:
    image = tmp_path / "shot.png"
    if kind == "loop":
        image.symlink_to(image)
        expected = "symbolic link that loops"
    elif kind == "fifo":
        os.mkfifo(image)
        expected = "is a FIFO (named pipe), not a regular file"
    else:
        image.symlink_to("/dev/zero")
        expected = "is a character device (a link to /dev/zero), not a regular file"
    result = runner.invoke(app, ["ocr", str(image)])
    assert result.exit_code == 2, result.output
    assert expected in " ".join(result.output.split()) and "does not exist" not in result.output


def test_a_looping_actions_json_is_not_called_missing(tmp_path: Path, runner: CliRunner) -> None:
    trace = tmp_path / "trace"
    shutil.copytree(EXAMPLE / "trace", trace)
    (trace / "actions.json").unlink()
    (trace / "actions.json").symlink_to(trace / "actions.json")
    result = runner.invoke(app, ["verify", str(EXAMPLE / "rule.yaml"), str(trace), "--json"])
    assert result.exit_code == 2, result.output
    assert "symbolic link that loops" in result.output and "no actions.json" not in result.output


def test_a_screenshot_that_is_a_fifo_is_named_as_such(tmp_path: Path, runner: CliRunner) -> None:
    trace = tmp_path / "trace"
    shutil.copytree(EXAMPLE / "trace", trace)
    (trace / "2.png").unlink()
    os.mkfifo(trace / "2.png")
    result = runner.invoke(app, ["verify", str(EXAMPLE / "rule.yaml"), str(trace), "--json"])
    assert result.exit_code == 2, result.output
    assert "2.png is a FIFO" in " ".join(result.output.split())


def test_verify_into_a_closed_pipe_ends_as_a_closed_pipe(tmp_path: Path) -> None:
    command = (f"{sys.executable} -m droidpilot verify {EXAMPLE / 'rule.yaml'} {EXAMPLE / 'trace'} -v"
               " | head -1; echo \"status=${PIPESTATUS[0]}\"")
    proc = subprocess.run(command, shell=True, executable="/bin/bash", capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("PASS ")
    assert lines[-1] == "status=141"  # killed by SIGPIPE, as `yes | head -1`; not 1 (FAIL)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_bench_tasks_naming_no_task_is_refused(tmp_path: Path, runner: CliRunner) -> None:
    result = runner.invoke(app, ["bench", "--tasks", ",", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "names no task" in result.output


def test_bench_out_that_is_a_file_is_refused(tmp_path: Path, runner: CliRunner) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    result = runner.invoke(app, ["bench", "--tasks", "demo-1", "--out", str(afile)])
    assert result.exit_code == 2, result.output
    assert "is a file; give a folder" in " ".join(result.output.split())


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_run_with_an_unwritable_out_exits_2(tmp_path: Path, where: str) -> None:
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "sub" if where == "under-a-file" else Path("/proc/droidpilot-x")
    proc = _cli("run", "do nothing", "--out", str(out), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "cannot write there" in " ".join(proc.stderr.split()) and "Traceback" not in proc.stderr


def test_run_prints_no_terminal_escapes_from_the_model_or_the_instruction(tmp_path: Path) -> None:
    evil = "\x1b]0;OWNED\x07\x1b[2J"
    responses = tmp_path / "r.json"
    responses.write_text(json.dumps([f"Observation: home{evil}\nThought: think{evil}\nAction: stop",
                                     f"Completed: yes\nReason: done{evil}"]))
    proc = _cli("run", f"Do it{evil}", "--brain", "replay", "--responses", str(responses),
                "--out", str(tmp_path / "trace"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Do it" in proc.stdout and "think" in proc.stdout
    assert "\x1b" not in proc.stdout + proc.stderr and "\x07" not in proc.stdout + proc.stderr


def _ocr_rule(tmp_path: Path) -> Path:
    """The example rule with its first node read by OCR, so `verify` looks into the trace folder before
    loading anything (to start the OCR models early)."""
    text = (EXAMPLE / "rule.yaml").read_text(encoding="utf-8").replace("type: xml_text_match",
                                                                       "type: ocr_match", 1)
    rule = tmp_path / "ocr_rule.yaml"
    rule.write_text(text, encoding="utf-8")
    return rule


@pytest.mark.parametrize("name", ["2.png", "2.xml", "actions.json", "react.json", "folder", "frames.json",
                                  "frames.json image"])
@pytest.mark.parametrize("rule_kind", ["ocr", "plain"])
def test_a_looping_link_in_place_of_any_trace_file_is_a_clear_error(tmp_path: Path, runner: CliRunner,
                                                                     name: str, rule_kind: str) -> None:
    trace = tmp_path / "trace"
    shutil.copytree(EXAMPLE / "trace", trace)
    looping = trace / name
    if name == "folder":
        shutil.rmtree(trace)
        looping = trace
    elif name.startswith("frames.json"):
        shutil.rmtree(trace)
        trace = tmp_path / "frames.json"
        looping = trace if name == "frames.json" else tmp_path / "shot.png"
        trace.write_text(json.dumps([{"text": "a", "image": "shot.png"}]), encoding="utf-8")
    looping.unlink(missing_ok=True)
    looping.symlink_to(looping)
    rule = _ocr_rule(tmp_path) if rule_kind == "ocr" else EXAMPLE / "rule.yaml"
    result = runner.invoke(app, ["verify", str(rule), str(trace), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    message = " ".join(result.output.split())
    assert f"{looping} is a symbolic link that loops" in message, message
    assert "Traceback" not in result.output
