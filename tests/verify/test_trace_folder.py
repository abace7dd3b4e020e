"""Loading MobiFlow runner trace folders: screenshots, dumps, actions.json, react.json (nested function)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from droidpilot.errors import InputError
from droidpilot.verify.frame import parse_ui_xml
from droidpilot.verify.trace import load_trace
from droidpilot.verify.trace_folder import click_target_label

HOME_XML = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node text="" class="android.widget.FrameLayout" bounds="[0,0][540,960]">
    <node text="" content-desc="" class="android.widget.LinearLayout" clickable="true"
          bounds="[0,100][540,200]">
      <node text="Search" class="android.widget.TextView" bounds="[20,120][200,180]" />
    </node>
    <node text="" content-desc="Cart" class="android.widget.ImageView" clickable="true"
          bounds="[400,880][540,960]" />
  </node>
</hierarchy>
"""


def write_folder(folder: Path, actions: Any = None, react: Any = None, shots: int = 3) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, shots + 1):
        Image.new("RGB", (54, 96), (n * 40, 0, 0)).save(folder / f"{n}.{'png' if n % 2 else 'jpg'}")
    (folder / "1.xml").write_text(HOME_XML, encoding="utf-8")
    (folder / "2.xml").write_text("<hierarchy_dump_failed/>", encoding="utf-8")
    if actions is None:
        actions = {"app_name": "Shop", "task_description": "find socks", "old_task_description": "socks",
                   "action_count": 3, "actions": [
                       {"type": "click", "action_index": 1, "position_x": 100, "position_y": 150,
                        "bounds": [0, 100, 540, 200], "status": "success"},
                       {"type": "input", "action_index": 2, "text": "wool socks"},
                       {"type": "done", "action_index": 3}]}
    if react is None:
        react = [{"reasoning": "Open the search box.", "action_index": 1,
                  "function": {"name": "click", "parameters": {"target_element": "search box"}}},
                 {"reasoning": "Type the query.", "action_index": 2,
                  "function": {"name": "input", "parameters": {"text": "wool socks"}}},
                 {"reasoning": "Finished.", "action_index": 3,
                  "function": {"name": "done", "parameters": {}}}]
    (folder / "actions.json").write_text(json.dumps(actions), encoding="utf-8")
    if react is not False:
        (folder / "react.json").write_text(json.dumps(react), encoding="utf-8")
    return folder


def test_runner_folder_becomes_frames_with_text_built_from_react_and_actions(tmp_path: Path) -> None:
    trace = load_trace(write_folder(tmp_path / "run"))
    assert len(trace) == 3 and trace.task_description == "find socks" and trace.app == "Shop"
    f0, f1, f2 = trace.frames
    assert f0.image_path is not None and f0.image_path.name == "1.png"
    assert f1.image_path is not None and f1.image_path.name == "2.jpg"
    assert f0.action is not None and f0.action["type"] == "click"
    assert "Open the search box." in f0.text and "action: click" in f0.text
    assert "target_element: search box" in f0.text
    assert "target: Search" in f0.text  # the label inside the clicked bounds, from the XML
    assert f0["click_target"] == "Search"
    assert f0.reasoning == "Open the search box."
    assert "text: wool socks" in f1.text and f1.elements() == []  # hierarchy_dump_failed tolerated
    assert f2.xml_text is None and "action: done" in f2.text
    assert f0.next_frame is f1 and f2.next_frame is None
    assert {f.task_description for f in trace.frames} == {"find socks"}


def test_zero_based_action_indices_and_missing_react_are_accepted(tmp_path: Path) -> None:
    actions = {"task_description": "t", "actions": [{"type": "click", "action_index": 0},
                                                     {"type": "done", "action_index": 1}]}
    trace = load_trace(write_folder(tmp_path / "run", actions=actions, react=False, shots=2))
    assert [f.action["type"] for f in trace.frames if f.action] == ["click", "done"]
    assert trace.frames[0].text == "action: click"


def test_action_without_screenshot_at_the_end_is_a_frame_without_image(tmp_path: Path) -> None:
    trace = load_trace(write_folder(tmp_path / "run", shots=2))
    assert len(trace) == 3 and trace.frames[2].image_path is None


def test_click_target_falls_back_to_the_smallest_labelled_element_under_the_tap() -> None:
    elements = parse_ui_xml(HOME_XML)
    assert click_target_label({"position_x": 450, "position_y": 900}, elements) == "Cart"
    assert click_target_label({"bounds": "[400,880][540,960]"}, elements) == "Cart"
    assert click_target_label({"position_x": 5, "position_y": 500}, elements) == ""


def _break(folder: Path, name: str, content: str) -> None:
    (folder / name).write_text(content, encoding="utf-8")


@pytest.mark.parametrize(("name", "content", "needle"), [
    ("actions.json", "{oops", "actions.json: not valid JSON"),
    ("actions.json", "3", "actions.json: must be an object"),
    ("actions.json", '{"actions": {"a": 1}}', "'actions' must be a list"),
    ("actions.json", '{"actions": [5]}', "actions.json: entry 0 must be an object"),
    ("actions.json", '{"actions": [{"action_index": 1}, {"action_index": 1}]}', "repeats action_index 1"),
    ("react.json", '{"a": 1}', "react.json: must be a list"),
    ("react.json", '[{"function": "click"}]', "react.json: step 1: 'function' must be an object"),
    ("react.json", '[{"function": {"name": "x", "parameters": [1]}}]', "'function.parameters' must be"),
    ("1.xml", "<hierarchy><node", "1.xml: not a valid UI XML dump"),
])
def test_malformed_files_are_named_in_the_error(tmp_path: Path, name: str, content: str, needle: str) -> None:
    folder = write_folder(tmp_path / "run")
    _break(folder, name, content)
    with pytest.raises(InputError) as info:
        load_trace(folder)
    assert needle in str(info.value)


def test_missing_actions_json_and_screenshot_gaps_are_input_errors(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "run")
    (folder / "2.jpg").unlink()
    with pytest.raises(InputError, match=r"screenshot 2\.jpg or 2\.png is missing"):
        load_trace(folder)
    (folder / "actions.json").unlink()
    with pytest.raises(InputError, match=r"no actions\.json"):
        load_trace(folder)
