"""``shown``: a screen's lines read one by one; a line shows a value among others, as a whole token."""

from __future__ import annotations

import pytest

from droidpilot.typed import match, read_values, shown


@pytest.mark.parametrize(("spec", "lines", "ok"), [
    ({"type": "money", "equals": "181"}, ["Coffee $1,810.00", "Nov 21"], False),
    ({"type": "money", "equals": "181"}, ["Lunch · Nov 21 · $181.00"], True),
    ({"type": "money", "equals": "21"}, ["Lunch · Nov 21 · $181.00"], False),  # a date's day is no amount
    ({"type": "time", "equals": "09:30"}, ["09:30 – 09:45"], True),
    ({"type": "time", "equals": "09:45"}, ["09:30 – 09:45"], True),
    ({"type": "time", "equals": "09:40"}, ["09:30 – 09:45"], False),
    ({"type": "count", "equals": "6"}, ["16 alarms"], False),
    ({"type": "count", "equals": "6"}, ["Alarms", "6 alarms"], True),
    ({"type": "number", "equals": "7"}, ["12 − 5 = 7"], True),
    ({"type": "number", "equals": "12"}, ["1", "2"], False),  # values never join across lines
    ({"type": "phone", "equals": "555-392-7824"}, ["Mobile", "(555) 392-7824"], True),
    ({"type": "date", "equals": "Nov 21"}, ["Due 11/21/2026"], True),
    ({"type": "date", "equals": "Nov 21"}, ["Due 11/12/2026"], False),
    ({"type": "name", "equals": "Paige Parker"}, ["Paige Parkerson"], False),
    ({"type": "name", "equals": "Paige Parker"}, ["From: Paige Parker"], True),
    ({"type": "text", "equals": "Gym", "aliases": ["Fitness"]}, ["Label: Fitness"], True),
    ({"type": "set", "of": "name", "equals": ["Ava", "Noah"]}, ["Ava", "Mia"], False),
    ({"type": "set", "of": "name", "equals": "Ava, Noah"}, ["Noah", "Ava"], True),
])
def test_shown(spec: dict, lines: list[str], ok: bool) -> None:
    assert shown(spec, lines).ok is ok, shown(spec, lines).reason


def test_a_screen_line_is_no_reply() -> None:
    """The same text: a reply that states two times hedges; a screen line that shows a range shows both."""
    spec = {"type": "time", "equals": "09:30"}
    assert not match(spec, "09:30 – 09:45").ok
    assert shown(spec, ["09:30 – 09:45"]).ok


def test_read_values_in_canonical_form() -> None:
    assert read_values("time", "9:30 AM – 1 PM") == [570, 780]
    assert [str(v) for v in read_values("money", "$1,204.10 and $5")] == ["1204.10", "5.00"]
    assert read_values("count", "") == []
