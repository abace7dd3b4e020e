"""text_match and regex_match on the agent's text."""

from __future__ import annotations

import pytest

from droidpilot.verify.checkers import Verdict, get_checker
from droidpilot.verify.frame import Frame


@pytest.fixture
def frame() -> Frame:
    return Frame(index=0, text="Reasoning: open the Search page. Action: click(搜索) text=Coffee Beans")


def test_declarations() -> None:
    text, regex = get_checker("text_match"), get_checker("regex")
    assert (text.reads, regex.reads) == ("action", "action")
    assert text.cost <= regex.cost
    assert set(text.params_spec) == {"any", "all", "ignore_case", "whole_numbers", "value"}
    assert regex.params_spec["pattern"].required


@pytest.mark.parametrize(("params", "verdict"), [
    ({"any": ["search", "nothing"]}, Verdict.YES),          # case folded
    ({"any": "搜索"}, Verdict.YES),                          # a single string works too
    ({"any": ["nothing", "missing"]}, Verdict.NO),
    ({"all": ["coffee", "beans", "搜索"]}, Verdict.YES),
    ({"all": ["coffee", "tea"]}, Verdict.NO),
    ({"any": ["search"], "all": ["tea"]}, Verdict.NO),       # both given: both must hold
    ({"any": ["search"], "ignore_case": False}, Verdict.NO),
    ({"any": ["Search"], "ignore_case": False}, Verdict.YES),
])
def test_text_match(frame: Frame, params: dict, verdict: Verdict) -> None:
    assert get_checker("text_match").run(frame, params, None).verdict is verdict


def test_text_match_details_say_what_matched(frame: Frame) -> None:
    result = get_checker("text").run(frame, {"all": ["coffee", "tea"], "any": ["search"]}, None)
    assert result.no and result.event == "action"
    assert result.details == {"found": ["coffee", "search"], "missing": ["tea"]}
    assert "tea" in result.reason
    yes = get_checker("text").run(frame, {"any": ["beans"]}, None)
    assert yes.details == {"found": ["beans"]}


def test_text_match_without_text_is_no() -> None:
    result = get_checker("text_match").run(Frame(index=3), {"any": ["x"]}, None)
    assert result.no and result.reason == "the frame has no text"


def test_text_match_reads_mobiflow_frame_dicts() -> None:
    assert get_checker("text_match").run({"text": "已加入购物车"}, {"any": ["购物车"]}, None).yes  # type: ignore[arg-type]


def test_text_match_validate() -> None:
    checker = get_checker("text_match")
    assert checker.validate({"any": ["x"]}) == []
    assert checker.validate({}) == [
        "text_match needs 'any' or 'all' with at least one keyword, or a typed 'value'"]
    assert "empty keyword" in checker.validate({"any": [""]})[0]


def test_regex_match(frame: Frame) -> None:
    checker = get_checker("regex_match")
    result = checker.run(frame, {"pattern": r"click\((.+?)\)"}, None)
    assert result.yes and result.details["match"] == "click(搜索)"
    assert checker.run(frame, {"pattern": "coffee beans"}, None).no
    assert checker.run(frame, {"pattern": "coffee beans", "ignore_case": True}, None).yes
    assert checker.run(Frame(index=0), {"pattern": "x"}, None).reason == "the frame has no text"


def test_regex_validate_names_the_bad_pattern() -> None:
    (problem,) = get_checker("regex_match").validate({"pattern": "a(b"})
    assert problem.startswith("invalid regular expression 'a(b':")
    assert get_checker("regex_match").validate({"pattern": "a(b)"}) == []
