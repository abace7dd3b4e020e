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
