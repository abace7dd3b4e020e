"""Trace fields of the wrong type are clear errors, never quiet conversions: ``action_index: 1e8`` once
renumbered the steps by position and the trace passed with exit status 0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from droidpilot.cli import _discover, app
from droidpilot.errors import InputError
from droidpilot.verify.examples import example_dir
from droidpilot.verify.trace import load_trace

EXAMPLE = example_dir()


@pytest.fixture
def runner() -> CliRunner:
    _discover()
    return CliRunner()


def _trace(tmp_path: Path, edit: Any, name: str = "actions.json") -> Path:
    """The example trace with ``edit(data)`` applied to ``name``'s parsed JSON."""
    trace = tmp_path / "trace"
    shutil.copytree(EXAMPLE / "trace", trace)
    path = trace / name
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return trace


def _message(tmp_path: Path, trace: Path) -> str:
    with pytest.raises(InputError) as info:
        load_trace(trace)
    return str(info.value)


@pytest.mark.parametrize("value", [1e8, "abc", 1.5, True, "2", 2.0, [2], {"n": 2}])
def test_an_action_index_that_is_not_a_whole_number_is_refused(tmp_path: Path, runner: CliRunner,
                                                               value: Any) -> None:
    trace = _trace(tmp_path, lambda d: d["actions"][1].update(action_index=value))
    result = runner.invoke(app, ["verify", str(EXAMPLE / "rule.yaml"), str(trace), "--json"])
    assert result.exit_code == 2, result.output
    message = " ".join(result.output.split())
    assert f"{trace / 'actions.json'}: entry 1: action_index must be a whole number such as 2" in message
    assert json.dumps(value)[:10] in message and "without quotes or fraction" in message
    assert "Traceback" not in result.output


@pytest.mark.parametrize("value", [1e8, "abc", 1.5, False])
def test_react_json_indices_are_held_to_the_same_rule(tmp_path: Path, value: Any) -> None:
    trace = _trace(tmp_path, lambda d: d[0].update(action_index=value), "react.json")
    assert "react.json: entry 0: action_index must be a whole number" in _message(tmp_path, trace)


def test_an_index_on_some_entries_only_is_refused(tmp_path: Path) -> None:
    trace = _trace(tmp_path, lambda d: d["actions"][3].pop("action_index"))
    message = _message(tmp_path, trace)
    assert "actions.json: entry 3 has no action_index but entry 0 has one" in message
    trace = _trace(tmp_path / "b", lambda d: d["actions"][3].update(action_index=None))
    assert "entry 3 has no action_index" in _message(tmp_path, trace)


def test_right_indices_written_differently_still_load(tmp_path: Path) -> None:
    def zero_based(d: dict[str, Any]) -> None:
        for i, action in enumerate(d["actions"]):
            action["action_index"] = i

    def none(d: dict[str, Any]) -> None:
        for action in d["actions"]:
            action.pop("action_index")

    plain = [f.action for f in load_trace(EXAMPLE / "trace").frames]
    for k, edit in enumerate((zero_based, none)):
        trace = _trace(tmp_path / str(k), edit)
        loaded = [{k: v for k, v in (f.action or {}).items() if k != "action_index"}
                  for f in load_trace(trace).frames]
        assert loaded == [{k: v for k, v in (a or {}).items() if k != "action_index"} for a in plain]


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("task_description", ["find"], "'task_description' must be a string, got [\"find\"] (a list)"),
    ("app_name", 7, "'app_name' must be a string, got 7 (a whole number)"),
    ("old_task_description", {"x": 1}, "'old_task_description' must be a string"),
])
def test_the_folder_s_task_fields_must_be_text(tmp_path: Path, key: str, value: Any, expected: str) -> None:
    trace = _trace(tmp_path, lambda d: d.update({key: value}))
    assert f"actions.json: {expected}" in _message(tmp_path, trace)


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("position_x", "270", "'position_x' must be a number (pixels), got \"270\" (a string)"),
    ("position_y", True, "'position_y' must be a number (pixels), got true (true/false)"),
    ("text", ["wireless"], "'text' must be a string, got [\"wireless\"]"),
    ("direction", False, "'direction' must be a string"),
    ("bounds", "24,110,516,170", "'bounds' must be \"[x1,y1][x2,y2]\""),
    ("bounds", [24, 110, 516], "'bounds' must be"),
    ("bounds", [24, 110, True, 170], "'bounds' must be"),
    ("bounds", {"left": 24}, "'bounds' must be"),
])
def test_action_fields_of_the_wrong_type_are_refused(tmp_path: Path, key: str, value: Any,
                                                     expected: str) -> None:
    trace = _trace(tmp_path, lambda d: d["actions"][1].update({key: value}))
    assert f"actions.json: action 2: {expected}" in _message(tmp_path, trace)


@pytest.mark.parametrize(("key", "value"), [
    ("bounds", "[24,110][516,170]"), ("bounds", [[24, 110], [516, 170]]), ("bounds", [24.5, 110, 516, 170]),
    ("bounds", ""), ("bounds", None), ("text", 12345), ("position_x", 270.5), ("position_y", None),
])
def test_action_fields_written_differently_still_load(tmp_path: Path, key: str, value: Any) -> None:
    trace = _trace(tmp_path, lambda d: d["actions"][1].update({key: value}))
    assert len(load_trace(trace)) == 5


def test_react_names_must_be_text(tmp_path: Path) -> None:
    trace = _trace(tmp_path, lambda d: d[1]["function"].update(name=["input"]), "react.json")
    assert "react.json: step 2: function: 'name' must be a string" in _message(tmp_path, trace)


def _frames(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "frames.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("record", "expected"), [
    ({"text": True}, "frame 0: 'text' must be a string, got true (true/false)"),
    ({"reasoning": ["a"]}, "frame 0: 'reasoning' must be a string"),
    ({"app": False}, "frame 0: 'app' must be a string"),
    ({"_index": 3}, "frame 0: '_index' is 3 (a whole number), but frames are taken in list order"),
    ({"index": 1}, "frame 0: 'index' is 1 (a whole number), but frames are taken in list order"),
    ({"index": "0"}, "frame 0: 'index' is \"0\" (a string)"),
    ({"_index": 0.0}, "frame 0: '_index' is 0.0 (a number with a fraction or exponent)"),
])
def test_frame_object_fields_of_the_wrong_type_are_refused(tmp_path: Path, record: dict[str, Any],
                                                           expected: str) -> None:
    assert expected in _message(tmp_path, _frames(tmp_path, [record, {"text": "b"}]))


def test_frame_objects_written_differently_still_load(tmp_path: Path) -> None:
    trace = load_trace(_frames(tmp_path, [{"text": 42, "_index": 0}, {"text": "b", "index": 1}]))
    assert [f.text for f in trace.frames] == ["42", "b"]
    wrapped = {"task_description": ["x"], "frames": [{"text": "a"}]}
    assert "'task_description' must be a string" in _message(tmp_path, _frames(tmp_path, wrapped))
