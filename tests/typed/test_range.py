"""Typed ranges, ``between: [low, high]``: a reply or a stored field states one value inside the range
(ends included); a screen shows the range when a line states a value inside it. Near misses: a second
outside the ends, two values in one reply, a type with no order, bounds the wrong way round."""

from __future__ import annotations

import pytest

from droidpilot.typed import check_spec, match, shown, validate_spec

LENGTH = {"type": "duration", "between": ["46:00", "48:00"]}


@pytest.mark.parametrize(("text", "ok"), [
    ("47:12", True), ("46:00", True), ("48:00", True), ("47 min 5 s", True), ("2880 seconds", True),
    ("45:59", False), ("48:01", False), ("It is 47:12 or 49:00", False), ("no length", False),
])
def test_a_reply_states_one_value_inside_the_range(text: str, ok: bool) -> None:
    assert match(LENGTH, text).ok is ok, match(LENGTH, text).reason


def test_money_and_count_ranges() -> None:
    assert match({"type": "money", "between": ["$10", "20.00"]}, "It came to $19.99.").ok
    assert not match({"type": "money", "between": ["$10", "20.00"]}, "$20.01").ok
    assert match({"type": "count", "between": [3, 5]}, "four").ok and not match({"type": "count",
                                                                                 "between": [3, 5]}, "6").ok


def test_a_screen_shows_a_range_on_any_one_line() -> None:
    lines = ["Road trip", "4 songs", "Total length 47:12", "1. Sunny Day", "4:29"]
    assert shown(LENGTH, lines).ok
    assert not shown(LENGTH, ["Total length 45:12", "4:29", "48:30 left"]).ok  # near miss: none inside
    assert not shown(LENGTH, ["45:", "12"]).ok  # values never join across lines


@pytest.mark.parametrize(("spec", "problem"), [
    ({"type": "name", "between": ["a", "b"]}, "a range needs a type whose values are ordered"),
    ({"type": "duration", "between": ["48:00", "46:00"]}, "the low end '48:00' is above the high end"),
    ({"type": "duration", "between": ["46:00"]}, "expected [low, high]"),
    ({"type": "duration", "between": ["soon", "48:00"]}, "'soon' does not read as one duration"),
    ({"type": "duration", "between": ["46:00", "48:00"], "equals": "47:00"}, "give exactly one of"),
])
def test_a_bad_range_is_named(spec: dict[str, object], problem: str) -> None:
    problems = validate_spec(spec, "oracle.value")
    assert any(problem in p and p.startswith("oracle.value") for p in problems), problems


def test_a_good_range_checks() -> None:
    assert check_spec(LENGTH) == LENGTH and validate_spec({"type": "count", "between": ["2", "2"]}) == []
