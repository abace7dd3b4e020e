"""A run killed with SIGKILL at any moment leaves a trace on disk that the verifier reads and judges."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from droidpilot.verify.engine import verify
from droidpilot.verify.spec import load_rule_text
from droidpilot.verify.trace import load_trace

RULE = """
task_id: waits
app_id: sim
description: two different waits, in order
nodes:
  - id: first
    condition: {type: action_match, params: {type: wait}}
  - id: second
    deps: [first]
    condition: {type: action_match, params: {type: swipe}}
"""


def _start(tmp_path: Path, out: Path) -> subprocess.Popen[bytes]:
    responses = tmp_path / "responses.json"
    # Alternating actions: no repeat limit ends the run; none needs OCR, so steps are quick.
    replies = [f"Observation: -\nThought: keep going\nAction: {a}"
               for _ in range(200) for a in ("wait (1)", "page down", "wait (2)", "page up")]
    responses.write_text(json.dumps(replies))
    env = {**os.environ, "DROIDPILOT_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.Popen(
        [sys.executable, "-m", "droidpilot", "run", "keep going", "--device", "sim", "--brain", "replay",
         "--responses", str(responses), "--out", str(out), "--max-steps", "700", "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


def _lines(path: Path) -> int:
    try:
        return len(path.read_bytes().splitlines())
    except FileNotFoundError:
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("after_steps", [2, 7])
def test_sigkill_mid_run_leaves_a_valid_verifiable_trace(tmp_path: Path, after_steps: int) -> None:
    out = tmp_path / "trace"
    proc = _start(tmp_path, out)
    try:
        deadline = time.monotonic() + 120
        while _lines(out / "steps.jsonl") < after_steps:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "exited"
            assert time.monotonic() < deadline, "the run made no progress"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    # Every line of the step log is complete JSON; run.json says the run never finished.
    steps = [json.loads(line) for line in (out / "steps.jsonl").read_text().splitlines()]
    assert len(steps) >= after_steps and [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    actions = json.loads((out / "actions.json").read_text())
    assert actions["action_count"] == len(actions["actions"]) >= after_steps - 1
    for action in actions["actions"]:
        assert (out / f"{action['action_index']}.jpg").is_file()
    trace = load_trace(out)
    assert len(trace.frames) >= len(actions["actions"])
    result = verify(load_rule_text(RULE), trace)
    assert result.ok, result.reason
