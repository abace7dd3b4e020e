"""action_match: the action's type and a real containment test on its fields."""

from __future__ import annotations

import pytest

from droidpilot.verify.checkers import Verdict, get_checker
from droidpilot.verify.checkers.action import contains
from droidpilot.verify.frame import Frame

ACTION = {
    "type": "input",
    "text": "Coffee beans 500g",
    "position_x": 540,
    "position_y": 1200,
    "bounds": [10, 20, 300, 80],
    "tags": ["search", "keyboard"],
    "parameters": {"text": "coffee beans", "submit": True},
}


@pytest.fixture
def frame() -> Frame:
    return Frame(index=2, action=dict(ACTION))


@pytest.mark.parametrize(("params", "verdict"), [
    ({"type": "input"}, Verdict.YES),
    ({"type": "INPUT"}, Verdict.YES),
    ({"type": ["click", "input"]}, Verdict.YES),
    ({"type": "click"}, Verdict.NO),
    ({"contains": {"text": "coffee"}}, Verdict.YES),                  # substring, case folded
    ({"contains": {"text": "tea"}}, Verdict.NO),
    ({"type": "click", "contains": {"text": "coffee"}}, Verdict.NO),
    ({"contains": {"position_x": 540}}, Verdict.YES),                  # number: equality
    ({"contains": {"position_x": 54}}, Verdict.NO),                    # not a substring of 540
    ({"contains": {"bounds": [10, 300]}}, Verdict.YES),                # list: subset
    ({"contains": {"bounds": [10, 999]}}, Verdict.NO),
    ({"contains": {"tags": ["keyboard"]}}, Verdict.YES),
    ({"contains": {"tags": ["key"]}}, Verdict.NO),                     # list items compare whole
    ({"contains": {"parameters": {"submit": True}}}, Verdict.YES),     # nested mapping
    ({"contains": {"parameters.text": "beans"}}, Verdict.YES),         # dotted path
    ({"contains": {"parameters.submit": 1}}, Verdict.NO),              # a bool is not the number 1
    ({"contains": {"direction": "up"}}, Verdict.NO),                   # missing field
])
def test_action_match(frame: Frame, params: dict, verdict: Verdict) -> None:
    result = get_checker("action_match").run(frame, params, None)
    assert result.verdict is verdict, result.reason
    assert result.event == "action"


def test_frame_without_action_is_no() -> None:
    result = get_checker("action").run(Frame(index=0), {"type": "click"}, None)
    assert result.no and result.reason == "the frame has no action"


def test_details_say_what_matched_or_not(frame: Frame) -> None:
    checker = get_checker("action_match")
    bad = checker.run(frame, {"contains": {"text": "tea", "position_x": 540}}, None)
    assert bad.details["mismatched"] == {"text": "Coffee beans 500g"}
    good = checker.run(frame, {"type": "input", "contains": {"text": "beans"}}, None)
    assert good.details == {"action_type": "input", "contains": {"text": "beans"}}


def test_contains_helper_edges() -> None:
    assert contains("Hello World", "world")
    assert contains(3.0, 3) and contains("3", 3) and not contains("x", 3)
    assert contains({"a": {"b": [1, 2, 3]}}, {"a": {"b": [3]}})
    assert not contains({"a": 1}, {"b": 1})
    assert contains(None, None) and not contains(0, None)


def test_validate() -> None:
    checker = get_checker("action_match")
    assert checker.validate({"type": "click"}) == []
    assert checker.validate({}) == ["action_match needs 'type', 'contains', 'value', 'declares' or 'exact'"]
    assert checker.validate({"contains": {}}) == ["'contains' is empty"]


@pytest.mark.parametrize(("text", "holds"), [
    ("Send", True), ("send", True), ("Send.", True),          # case and a final stop aside
    ("Send money", False), ("Resend", False), ("", False),   # a longer label is another button
])
def test_exact_is_the_whole_field(text: str, holds: bool) -> None:
    frame = Frame(index=0, action={"type": "click", "text": text})
    result = get_checker("action_match").run(frame, {"type": "click", "exact": "Send"}, None)
    assert result.yes is holds, result.reason


def test_exact_reads_the_named_field_and_is_validated() -> None:
    checker = get_checker("action_match")
    frame = Frame(index=0, action={"type": "click", "text": "x", "target": {"label": "Remove"}})
    assert checker.run(frame, {"exact": ["Delete", "Remove"], "field": "target.label"}, None).yes
    assert not checker.run(frame, {"exact": "Remove"}, None).yes
    assert checker.validate({"exact": [" "]}) == [
        "'exact' names no text; give the whole text the field must be"]
    assert checker.validate({"exact": "Send", "field": "text"}) == []
