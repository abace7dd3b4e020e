"""Stored fields against expectations: plain values (text folded, numbers as numbers, flags as flags),
typed specs (compared whole), records and lists; near misses fail, other spellings pass."""

from __future__ import annotations

from typing import Any

import pytest

from droidpilot.bench.fields import check_expectation, explain, is_typed_spec, matches


@pytest.mark.parametrize(("want", "got", "ok"), [
    ("On my way", "On my way.", True),  # a trailing full stop
    ("On my way", "on  my way", True),
    ("On my way", "On my way now", False),
    ("Paige Parker", "Paige Parkerson", False),
    (30, "30", True), ("30", 30.0, True), ("12.50", "12.5", True), ("12.50", "125", False),
    (True, "true", True), ("true", True, True), (False, True, False), (None, None, True), ("x", None, False),
    ({"type": "money", "equals": "181"}, "1810", False),
    ({"type": "money", "equals": "181"}, "$181.00", True),
    ({"type": "name", "equals": "Paige Parker"}, "It is Paige Parker", False),  # a field is compared whole
    ({"type": "time", "equals": "8:15"}, "08:15", True),
    ({"type": "phone", "equals": "555-392-7824"}, "(555) 392-7824", True),
    ({"to": "Ava Smith", "amount": {"type": "money", "equals": "5"}}, {"to": "ava smith", "amount": "5.00",
                                                                      "memo": "free"}, True),
    ({"to": "Ava Smith", "memo": "x"}, {"to": "Ava Smith"}, False),  # a named field must be there
    ({"to": "Ava Smith"}, "Ava Smith", False),
    (["a", "b"], ["B", "A"], True), (["a", "b"], ["a"], False), (["a"], ["a", "a"], False),
    ("a", ["a"], False),
])
def test_expectations_near_misses_and_other_spellings(want: Any, got: Any, ok: bool) -> None:
    assert matches(want, got) is ok, explain(want, got)


def test_a_typed_spec_is_told_from_a_record_and_checked() -> None:
    assert is_typed_spec({"type": "money", "equals": "1"})
    assert not is_typed_spec({"type": "Incoming"})  # a record whose field is called type
    assert check_expectation({"kind": {"type": "money", "equals": "x"}}, "effects.r") == [
        "effects.r.kind: the right value 'x' does not read as a money"]
    assert any("give exactly one of" in p for p in check_expectation({"type": "money"}, "e"))
    assert check_expectation([{"a": 1}, "b"], "e") == []


ORDERED = {"in_order": [{"name": "Glass Bay"}, {"name": "Red Kite"}]}


def test_in_order_holds_the_items_in_their_order() -> None:
    got = [{"name": "Glass Bay", "artist": "Mia Lee"}, {"name": "red kite", "artist": "Ava Smith"}]
    assert explain(ORDERED, got) == (True, "items match in order")


def test_in_order_fails_the_right_items_in_the_wrong_order() -> None:
    ok, why = explain(ORDERED, [{"name": "Red Kite"}, {"name": "Glass Bay"}])
    assert not ok and "item 1 of 2" in why and "the order matters" in why
    assert matches({"songs": [{"name": "Glass Bay"}, {"name": "Red Kite"}]},
                   {"songs": [{"name": "Red Kite"}, {"name": "Glass Bay"}]})  # a plain list is a set


def test_in_order_fails_an_extra_or_a_missing_item() -> None:
    assert not matches(ORDERED, [{"name": "Glass Bay"}, {"name": "Red Kite"}, {"name": "Red Kite"}])
    assert not matches(ORDERED, [{"name": "Glass Bay"}])
    assert not matches(ORDERED, "Glass Bay, Red Kite")


def test_in_order_that_is_not_a_list_is_named() -> None:
    assert check_expectation({"songs": {"in_order": "Glass Bay"}}, "effects.x.added[0]") == [
        "effects.x.added[0].songs.in_order: expected the list of items in their order, got str"]


SONGS = [{"name": "A", "minutes": 20, "seconds": "05"}, {"name": "B", "minutes": 27, "seconds": "00"}]
LENGTH = {"total_length": {"type": "duration", "between": ["46:00", "48:00"]}}


def test_total_length_adds_up_the_songs_whatever_they_are() -> None:
    ok, why = explain(LENGTH, SONGS)
    assert ok and "47:05" in why
    assert matches(LENGTH, list(reversed(SONGS)))  # any songs, any order: only the sum counts


@pytest.mark.parametrize(("songs", "why"), [
    (SONGS[:1], "20:05"),  # one song short
    ([*SONGS, {"name": "C", "minutes": 2, "seconds": "05"}], "49:10"),  # one more
    ([{"name": "A", "minutes": 20}], "has no minutes and seconds"),
    ("A, B", "expected a list of songs"),
])
def test_total_length_near_misses_are_named(songs: Any, why: str) -> None:
    ok, said = explain(LENGTH, songs)
    assert not ok and why in said


def test_total_length_wants_a_duration_spec() -> None:
    assert check_expectation(LENGTH, "effects.x") == []
    assert "expected a duration spec" in check_expectation({"total_length": {"type": "money", "equals": "5"}},
                                                           "effects.x")[0]
    assert "does not read as one duration" in check_expectation(
        {"total_length": {"type": "duration", "between": ["x", "2:00"]}}, "effects.x")[0]
    assert is_typed_spec({"type": "duration", "between": ["1:00", "2:00"]})
