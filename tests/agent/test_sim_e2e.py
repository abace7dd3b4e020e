"""End to end on SimPhone: the replay brain (app, ambiguous text with a crop choice, icon), the same run
through AdbDevice via SimPhone's ADB front (real TCP on loopback), and the offline heuristic brain."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from droidpilot.agent.brains.heuristic import HeuristicBrain
from droidpilot.agent.brains.replay import ReplayBrain
from droidpilot.agent.loop import Agent, Limits
from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.realphone import AdbDevice
from droidpilot.device.sim.phone import SimDevice
from droidpilot.verify.engine import verify
from droidpilot.verify.spec import load_rule_text
from droidpilot.verify.trace import load_trace

RULE = """
task_id: sim-airplane
app_id: com.simphone.settings
description: turn on airplane mode
nodes:
  - id: opened
    condition: {type: action_match, params: {type: click, contains: {text: Settings}}}
  - id: switched
    deps: [opened]
    condition: {type: action_match, params: {type: click, contains: {text: Airplane mode}}}
  - id: done
    deps: [switched]
    condition: {type: action_match, params: {type: done}}
"""

REPLIES: list[Any] = [
    "Observation: the home screen\nThought: open Settings\nAction: open App (Settings)",
    "Observation: Settings\nThought: the network page\nAction: click text (Network)",
    {"text": "1", "kind": "choose"},
    "Observation: Network\nThought: switch it\nAction: click text (Airplane mode)",
    "Observation: switched\nThought: back to settings\nAction: back",
    "Observation: Settings\nThought: search\nAction: click icon (gray magnifier, top)",
    "Observation: search\nThought: done\nAction: stop",
    {"text": "Completed: yes\nReason: airplane mode is on", "kind": "complete"},
]


def _check_replay_trace(folder: Path) -> None:
    steps = [json.loads(x) for x in (folder / "steps.jsonl").read_text().splitlines()]
    network = steps[1]["grounding"]
    assert network["status"] == "ambiguous" and network["chosen"] == 1
    assert 2 <= len(network["candidates"]) <= 4
    icon = steps[4]["grounding"]
    assert icon["status"] == "found" and icon["point"][1] < 500  # the search box's magnifier, at the top
    actions = json.loads((folder / "actions.json").read_text())["actions"]
    assert [a["type"] for a in actions] == ["click", "click", "click", "back", "click", "done"]
    clicks = [a for a in actions if a["type"] == "click"]
    assert all(isinstance(a["bounds"], list) and len(a["bounds"]) == 4 for a in clicks)
    result = verify(load_rule_text(RULE), load_trace(folder))
    assert result.ok, result.reason


def test_replay_on_simphone(ocr_engine: Any, tmp_path: Path) -> None:
    sim = SimDevice()
    result = Agent(sim, ReplayBrain(REPLIES), ocr_engine=ocr_engine, out_dir=tmp_path).run(
        "Turn on the airplane mode.")
    assert result.termination == "completed"
    assert sim.state()["settings"]["airplane_mode"] is True
    assert json.loads((tmp_path / "run.json").read_text())["final_state"]["settings"]["airplane_mode"] is True
    assert (tmp_path / "1.xml").read_text().lstrip().startswith("<?xml")
    _check_replay_trace(tmp_path)


@pytest.fixture
def adb_front() -> Iterator[tuple[AdbServer, SimDevice]]:
    sim = SimDevice()
    server = AdbServer([sim], port=0).start()
    try:
        yield server, sim
    finally:
        server.stop()


@pytest.mark.slow
def test_same_replay_through_adb_front(adb_front: tuple[AdbServer, SimDevice], ocr_engine: Any,
                                       tmp_path: Path) -> None:
    server, sim = adb_front
    device = AdbDevice("simphone-1", port=server.port, start_server=False)
    result = Agent(device, ReplayBrain(REPLIES), ocr_engine=ocr_engine, out_dir=tmp_path).run(
        "Turn on the airplane mode.")
    assert result.termination == "completed"
    assert sim.state()["settings"]["airplane_mode"] is True
    _check_replay_trace(tmp_path)


@pytest.mark.slow
def test_heuristic_brain_turns_on_airplane_mode(ocr_engine: Any, tmp_path: Path) -> None:
    sim = SimDevice()
    result = Agent(sim, HeuristicBrain(), ocr_engine=ocr_engine, out_dir=tmp_path,
                   limits=Limits(max_steps=10)).run("Turn on the airplane mode.")
    assert result.termination == "completed", result.termination
    assert sim.state()["settings"]["airplane_mode"] is True
    result_verdict = verify(load_rule_text(RULE), load_trace(tmp_path))
    assert result_verdict.ok, result_verdict.reason
