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


def test_a_frame_given_as_jpeg_bytes_is_written_byte_for_byte(tmp_path: Path) -> None:
    """The agent's OCR reads ScreenView.for_trace(); the file must be those bytes, so the verifier's
    reading of the file is the agent's reading (same OCR cache key), not a second recognition."""
    from droidpilot.agent.frame_jpeg import encode_frame
    from droidpilot.agent.screen import ScreenView

    view = ScreenView(_screen("teal"), frame_quality=92)
    data = view.for_trace()
    assert isinstance(data, bytes) and data == encode_frame(_screen("teal")) and view.for_trace() is data
    rec = TraceRecorder(tmp_path / "t", "Open Settings")
    rec.record_frame(data, None, {"type": "click"}, "tap", {"name": "click", "parameters": {}})
    rec.finish(view.for_trace(), None, "done", "completed", {})
    assert (tmp_path / "t" / "1.jpg").read_bytes() == data == (tmp_path / "t" / "2.jpg").read_bytes()
    assert ScreenView(_screen("teal")).for_trace().size == (108, 240)  # not recording: the image itself


def test_frame_bytes_that_are_not_a_jpeg_are_refused_with_the_frame_named(tmp_path: Path) -> None:
    import io

    buffer = io.BytesIO()
    _screen("white").save(buffer, format="PNG")  # a real screenshot, in the wrong format for N.jpg
    rec = TraceRecorder(tmp_path / "t", "Open Settings")
    for wrong in (buffer.getvalue(), b"\xff\xd8", b""):
        with pytest.raises(InputError, match=r"frame 1: a trace frame must be JPEG bytes"):
            rec.record_frame(wrong, None, {"type": "click"}, "tap", {"name": "click", "parameters": {}})
    assert not list((tmp_path / "t").glob("*.jpg"))
