"""The replay brain: raw responses from a JSON file, validated, consumed in order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from droidpilot.agent.brains.base import BrainError, BrainRequest
from droidpilot.agent.brains.replay import ReplayBrain
from droidpilot.agent.screen import ScreenView
from droidpilot.errors import InputError


def _request(kind: str = "operate") -> BrainRequest:
    return BrainRequest(kind=kind, instruction="x", prompt="p",  # type: ignore[arg-type]
                        screen=ScreenView(Image.new("RGB", (10, 10))), step=1)


def test_replays_in_order_and_checks_kinds(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(["Action: back", {"text": "Completed: yes", "kind": "complete"}]))
    brain = ReplayBrain(path)
    assert brain.decide(_request()).text == "Action: back"
    with pytest.raises(BrainError, match="answers a 'complete' request"):
        brain.decide(_request("operate"))


def test_exhausted(tmp_path: Path) -> None:
    brain = ReplayBrain(["Action: back"])
    brain.decide(_request())
    with pytest.raises(BrainError, match="replay exhausted"):
        brain.decide(_request())


@pytest.mark.parametrize(("content", "fragment"), [
    ("{", "not valid JSON (line 1"),
    ('{"a": 1}', "expected a JSON list"),
    ('[1]', "item 0 must be a string"),
    ('[{"text": "x", "kind": "guess"}]', "kind 'guess'"),
])
def test_bad_files_are_input_errors(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    with pytest.raises(InputError, match=fragment.replace("(", r"\(")):
        ReplayBrain(path)
    with pytest.raises(InputError, match="not found"):
        ReplayBrain(tmp_path / "missing.json")


def _demo(tmp_path: Path, target: str, must_ground: bool | None) -> Path:
    """A studio-style responses file: one click, stop, completion; the click flagged as it says."""
    click: dict[str, object] = {"text": f"Thought: t\nAction: click text ({target})", "kind": "operate"}
    if must_ground is not None:
        click["must_ground"] = must_ground
    path = tmp_path / "responses.json"
    path.write_text(json.dumps([click, {"text": "Thought: t\nAction: stop", "kind": "operate"},
                                {"text": "Yes", "kind": "complete"}]))
    return path


@pytest.mark.parametrize(("target", "must_ground", "termination"), [
    ("New note", True, "brain_error"),  # a content-desc, not on the screen: the replay diverged
    ("New note", None, "completed"),  # an old responses file without the flag keeps its meaning
    ("Settings", True, "completed"),  # on the screen: it grounds and the replay completes
])
def test_a_reply_that_must_ground_ends_the_replay_when_it_does_not(
        tmp_path: Path, target: str, must_ground: bool | None, termination: str) -> None:
    from droidpilot.agent.loop import Agent, Limits
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    brain = ReplayBrain(_demo(tmp_path, target, must_ground))
    agent = Agent(SimDevice(), brain, ocr_engine=cached(make_ocr_engine("rapidocr")),
                  limits=Limits(max_steps=5, max_model_calls=10))
    result = agent.run("Open the app.")
    assert result.termination == termination, result.error
    assert result.completed is (termination == "completed")
    if termination == "brain_error":
        assert "replay diverged at step 1: 'click text (New note)'" in result.error


def test_must_ground_must_be_a_boolean(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"text": "Action: back", "must_ground": "yes"}]))
    with pytest.raises(InputError, match="item 0: must_ground must be true or false, got 'yes'"):
        ReplayBrain(path)


def test_droidpilot_run_of_a_demonstration_that_no_longer_grounds_exits_4(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    responses = _demo(tmp_path, "New note", True)  # the old recorder's words for the Notes "+"
    out = subprocess.run([sys.executable, "-m", "droidpilot", "run", "Write a note.", "--device", "sim",
                          "--brain", "replay", "--responses", str(responses), "--out", str(tmp_path / "t")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={**os.environ, "COLUMNS": "200"})
    assert out.returncode == 4, out.stdout + out.stderr  # a model error: never 0, never "completed"
    assert "replay diverged at step 1" in " ".join(out.stdout.split())
