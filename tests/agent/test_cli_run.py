"""`droidpilot run`: exit 0 when the run ends normally (whatever the outcome), 2 on bad input or no such
device, 3 on a device error, 4 on a model error, the reason printed; screen and model text shown escaped."""

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


def test_replay_run_that_runs_out_exits_4_and_escapes_model_text(tmp_path: Path) -> None:
    responses = tmp_path / "r.json"
    responses.write_text(json.dumps([
        "Observation: home\nThought: [bold red]not markup[/] here\nAction: wait (1)",
        "Observation: home\nThought: finish\nAction: stop",
        "Completed: no\nReason: [link=x]still[/link] missing",
        "Observation: home\nThought: again\nAction: page down",
    ]))
    out = _run("Do nothing much", "--device", "sim", "--brain", "replay", "--responses", str(responses),
               "--out", str(tmp_path / "trace"), cwd=tmp_path)
    assert out.returncode == 4, out.stderr  # the replay ran out: a model error, told plainly
    assert "[bold red]not markup[/] here" in out.stdout
    assert "[link=x]still[/link] missing" in out.stdout
    assert "brain_error" in out.stdout and "reason: " in out.stdout
    assert f"trace: {tmp_path / 'trace'}" in out.stdout.replace("\n", "")
    assert json.loads((tmp_path / "trace" / "run.json").read_text())["termination"] == "brain_error"


def test_finished_run_exits_0(tmp_path: Path) -> None:
    responses = tmp_path / "r.json"
    responses.write_text(json.dumps(["Observation: home\nThought: nothing to do\nAction: stop"]))
    out = _run("Do nothing", "--brain", "replay", "--responses", str(responses), "--no-completion-check",
               "--out", str(tmp_path / "trace"), "--quiet", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "completed" in out.stdout


def test_failing_model_exits_4_and_names_runs_own_flags(tmp_path: Path) -> None:
    from tests.support.openai_server import OpenAITestServer, Reply

    with OpenAITestServer(default=Reply(status=503, text="overloaded", retry_after="0")) as server:
        env = {**os.environ, "COLUMNS": "200"}
        out = subprocess.run([sys.executable, "-m", "droidpilot", "run", "Open Settings", "--brain", "openai",
                              "--model", "m", "--base-url", server.base_url, "--max-steps", "1", "--out",
                              str(tmp_path / "t"), "--quiet"], capture_output=True, text=True, cwd=tmp_path,
                             env=env, timeout=300)
    assert out.returncode == 4, out.stdout + out.stderr
    text = " ".join(out.stdout.split())
    assert "brain_error" in text and "reason: " in text and "--base-url" in text
    assert "--llm-base-url" not in text


def test_missing_model_names_runs_own_flag(tmp_path: Path) -> None:
    env_free = {k: v for k, v in os.environ.items() if k != "DROIDPILOT_LLM_MODEL"}
    out = subprocess.run([sys.executable, "-m", "droidpilot", "run", "go", "--brain", "openai", "--base-url",
                          "http://127.0.0.1:9/v1"], capture_output=True, text=True, cwd=tmp_path,
                         env={**env_free, "COLUMNS": "200"}, timeout=120)
    assert out.returncode == 2
    text = " ".join(out.stderr.split())
    assert "pass --model" in text and "--llm-model" not in text


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _free_port_below_ephemeral() -> int:
    """A free local port outside the kernel's ephemeral range: connecting to a port inside it while nothing
    listens there can connect the socket to itself (TCP simultaneous open), and adb then reads its own
    request back ("protocol fault (status 30 30 30 63)")."""
    import random
    import socket

    for port in random.Random().sample(range(20000, 32000), 200):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free local port between 20000 and 32000")


def test_no_such_device_exits_2_and_leaves_no_adb_server_behind(tmp_path: Path) -> None:
    import shutil

    if shutil.which("adb") is None:
        pytest.skip("adb (distribution package) is not installed")
    port = _free_port_below_ephemeral()  # no adb server the user started can be there
    out = _run("Open Settings", "--device", "no-such-serial", "--adb-port", str(port), "--out",
               str(tmp_path / "t"), cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    text = " ".join(out.stderr.split())
    assert "no device 'no-such-serial'" in text and "Traceback" not in out.stderr
    assert not _listening(port)  # the server started for the command was stopped again


def test_device_error_exits_3_and_prints_the_reason(tmp_path: Path) -> None:
    empty = tmp_path / "no-fonts"
    empty.mkdir()  # SimPhone cannot draw its home screen's Chinese app names without a CJK font
    env = {**os.environ, "COLUMNS": "200", "DROIDPILOT_FONT_DIRS": str(empty)}
    out = subprocess.run([sys.executable, "-m", "droidpilot", "run", "Open Settings", "--out",
                          str(tmp_path / "t"), "--quiet"], capture_output=True, text=True, cwd=tmp_path,
                         env=env, timeout=300)
    assert out.returncode == 3, out.stdout + out.stderr
    text = " ".join(out.stdout.split())
    assert "device_error after 0 steps" in text and "reason: cannot take a screenshot" in text
    assert "apt-get install fonts-wqy-microhei" in text
