"""Loading traces given as a JSON list of frame objects, and the clear errors for bad ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from droidpilot.errors import InputError
from droidpilot.verify.frame import Frame
from droidpilot.verify.trace import as_trace, frames_from_dicts, load_trace

XML = ('<hierarchy><node text="Cart" content-desc="" class="android.widget.TextView" '
       'bounds="[0,0][100,50]" clickable="true"/></hierarchy>')


@pytest.fixture
def trace_file(tmp_path: Path) -> Path:
    (tmp_path / "shots").mkdir()
    Image.new("RGB", (20, 40), "white").save(tmp_path / "shots" / "a.png")
    (tmp_path / "dump.xml").write_text(XML, encoding="utf-8")
    frames = [
        {"text": "open the cart", "image": "shots/a.png", "xml": "dump.xml", "ui": {"screen": "home"},
         "action": {"type": "click", "position_x": 10}, "reasoning": "tap cart",
         "task_description": "buy milk", "custom": 7},
        {"text": "done", "xml_text": XML, "screenshot": "shots/a.png"},
    ]
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(frames), encoding="utf-8")
    return path


def test_json_frame_list_loads_every_field(trace_file: Path) -> None:
    trace = load_trace(trace_file)
    first, second = trace.frames
    assert len(trace) == 2 and trace.source == trace_file
    assert first.image_path == trace_file.parent / "shots" / "a.png"
    assert first.image_bytes().startswith(b"\x89PNG")
    assert [e.text for e in first.elements()] == ["Cart"]
    assert first.action == {"type": "click", "position_x": 10}
    assert first.ui == {"screen": "home"} and first.reasoning == "tap cart"
    assert first["custom"] == 7 and first.get("_index") == 0
    assert first.next_frame is second and second.next_frame is None
    assert second.xml_text == XML and second.elements()[0].clickable
    assert trace.task_description == "buy milk"
    assert second.task_description == "buy milk"  # the run's description reaches every frame


def test_explicit_task_description_overrides_the_traces(trace_file: Path) -> None:
    trace = load_trace(trace_file, task_description="buy bread")
    assert trace.task_description == "buy bread"
    assert {f.task_description for f in trace.frames} == {"buy bread"}


def test_object_with_frames_key_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"task_description": "x", "frames": [{"text": "a"}]}), encoding="utf-8")
    trace = load_trace(path)
    assert trace.task_description == "x" and trace.frames[0].text == "a"


@pytest.mark.parametrize(("content", "needle"), [
    ("[{\"text\": 1,}]", "not valid JSON (line 1"),
    ("{\"a\": 1}", "must be a JSON list"),
    ("[3]", "frame 0: must be an object"),
    ("[{}, {\"ui\": []}]", "frame 1: 'ui' must be an object"),
    ("[{\"action\": \"click\"}]", "frame 0: 'action' must be an object"),
    ("[{\"text\": {\"a\": 1}}]", "frame 0: 'text' must be a string"),
    ("[{\"image\": \"missing.png\"}]", "missing.png does not exist"),
    ("[{\"xml\": \"gone.xml\"}]", "gone.xml does not exist"),
    ("[{\"xml_text\": \"<hierarchy><node\"}]", "frame 0 XML: not a valid UI XML dump"),
])
def test_bad_json_traces_name_the_file_frame_and_key(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_trace(path)
    assert needle in str(info.value)
    assert "bad.json" in str(info.value)


def test_missing_trace_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        load_trace(tmp_path / "nope.json")


def test_as_trace_accepts_dicts_and_frames_and_links_them() -> None:
    trace = as_trace([{"text": "a"}, Frame(index=9, text="b")], task_description="goal")
    assert [f.index for f in trace.frames] == [0, 1]
    assert trace.frames[0].next_frame is trace.frames[1]
    assert trace.task_description == "goal"
    assert frames_from_dicts([])  == []


def test_hierarchy_dump_failed_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"xml_text": "<hierarchy_dump_failed/>"}]), encoding="utf-8")
    assert load_trace(path).frames[0].elements() == []
