"""The trace recorder writes MobiFlow's runner format atomically, step by step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from droidpilot.agent.recorder import TraceRecorder
from droidpilot.errors import InputError


def _screen(colour: str) -> Image.Image:
    return Image.new("RGB", (108, 240), colour)


def test_frames_actions_and_react_follow_the_runner_format(tmp_path: Path) -> None:
    rec = TraceRecorder(tmp_path / "t", "Open Settings", app_name="Settings")
    assert json.loads((tmp_path / "t" / "actions.json").read_text())["actions"] == []
    rec.record_frame(_screen("white"), "<hierarchy/>",
                     {"type": "click", "position_x": 10, "position_y": 20, "bounds": [0, 10, 20, 30],
                      "text": "Settings"},
                     "open it", {"name": "click", "parameters": {"target_element": "Settings"}})
    rec.record_frame(_screen("gray"), None, {"type": "input", "text": "hi"}, "type",
                     {"name": "input", "parameters": {"text": "hi"}})
    rec.finish(_screen("black"), None, "done now", "completed", {"termination": "completed"})
    folder = tmp_path / "t"
    actions = json.loads((folder / "actions.json").read_text())
    assert actions["task_description"] == "Open Settings" and actions["app_name"] == "Settings"
    assert actions["action_count"] == 3
    assert [a["type"] for a in actions["actions"]] == ["click", "input", "done"]
    assert [a["action_index"] for a in actions["actions"]] == [1, 2, 3]
    assert actions["actions"][0]["bounds"] == [0, 10, 20, 30]
    react = json.loads((folder / "react.json").read_text())
    assert react[0] == {"reasoning": "open it", "function": {"name": "click",
                        "parameters": {"target_element": "Settings"}}, "action_index": 1}
    assert react[-1]["function"]["name"] == "done"
    assert sorted(p.name for p in folder.glob("*.jpg")) == ["1.jpg", "2.jpg", "3.jpg"]
    assert (folder / "1.xml").read_text() == "<hierarchy/>" and not (folder / "2.xml").exists()
    with Image.open(folder / "1.jpg") as img:
        assert img.size == (108, 240)
    assert json.loads((folder / "run.json").read_text())["termination"] == "completed"
    assert not list(folder.glob(".*.tmp"))


def test_steps_jsonl_is_appended_line_by_line(tmp_path: Path) -> None:
    rec = TraceRecorder(tmp_path, "x")
    rec.append_step({"step": 1, "path": tmp_path})
    rec.append_step({"step": 2, "text": "中文"})
    lines = (tmp_path / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["step"] for line in lines] == [1, 2]
    assert json.loads(lines[1])["text"] == "中文"


def test_refuses_to_mix_two_traces(tmp_path: Path) -> None:
    TraceRecorder(tmp_path, "first")
    with pytest.raises(InputError, match="already holds a trace"):
        TraceRecorder(tmp_path, "second")
    TraceRecorder(tmp_path, "second", overwrite=True)
    assert json.loads((tmp_path / "actions.json").read_text())["task_description"] == "second"


@pytest.mark.parametrize("durable", [True, False])
def test_a_trace_that_need_not_survive_a_crash_skips_only_the_fsyncs(tmp_path: Path, monkeypatch,
                                                                       durable: bool) -> None:
    import os

    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    rec = TraceRecorder(tmp_path / "t", "Open Settings", durable=durable)
    rec.record_frame(_screen("white"), "<hierarchy/>", {"type": "click", "position_x": 1, "position_y": 2},
                     "", {"name": "click", "parameters": {}})
    rec.append_step({"step": 1})
    rec.finish(_screen("black"), None, "", "completed", {"termination": "completed"})
    assert bool(synced) is durable
    folder = tmp_path / "t"
    assert json.loads((folder / "actions.json").read_text())["action_count"] == 2  # written all the same
    assert sorted(p.name for p in folder.glob("*.jpg")) == ["1.jpg", "2.jpg"]
    assert json.loads((folder / "run.json").read_text())["termination"] == "completed"
