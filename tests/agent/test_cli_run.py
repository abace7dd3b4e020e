"""`droidpilot run`: exit 0 when the run ends normally (whatever the outcome), 2 on bad input; screen and
model text shown escaped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "droidpilot", "run", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


@pytest.mark.parametrize(("args", "message"), [
    (["go", "--brain", "oracle"], "unknown brain 'oracle'"),
    (["go", "--brain", "replay"], "--brain replay needs --responses FILE"),
    (["go", "--brain", "replay", "--responses", "missing.json"], "responses file not found"),
    (["go", "--max-steps", "0"], "--max-steps must be positive"),
    (["go", "--coord-space", "pixels"], "unknown coordinate space 'pixels'"),
    (["go", "--lang", "fr", "--brain", "heuristic"], "unknown prompt language 'fr'"),
    (["   "], "the instruction is empty"),
])
def test_bad_input_exits_2_with_a_message(tmp_path: Path, args: list[str], message: str) -> None:
    out = _run(*args, "--out", str(tmp_path / "t"), cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert message in " ".join(out.stderr.split())
    assert "Traceback" not in out.stderr


def test_replay_run_exits_0_and_escapes_model_text(tmp_path: Path) -> None:
    responses = tmp_path / "r.json"
    responses.write_text(json.dumps([
        "Observation: home\nThought: [bold red]not markup[/] here\nAction: wait (1)",
        "Observation: home\nThought: finish\nAction: stop",
        "Completed: no\nReason: [link=x]still[/link] missing",
        "Observation: home\nThought: again\nAction: page down",
    ]))
    out = _run("Do nothing much", "--device", "sim", "--brain", "replay", "--responses", str(responses),
               "--out", str(tmp_path / "trace"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "[bold red]not markup[/] here" in out.stdout
    assert "[link=x]still[/link] missing" in out.stdout
    assert "brain_error" in out.stdout  # the replay ran out: a normal end, told plainly
    assert f"trace: {tmp_path / 'trace'}" in out.stdout.replace("\n", "")
    assert json.loads((tmp_path / "trace" / "run.json").read_text())["termination"] == "brain_error"
