"""Days relative to a drawn today (``day``, ``dated``) and the derived-list helpers the dated templates use
(``pick`` first / several, ``at_least``/``at_most``, ``stamp``), with their errors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from droidpilot.bench.params import ParamError
from droidpilot.bench.world.derived import derive

TODAY = "2026-12-03"  # a Thursday


def _d(spec: dict[str, Any], ctx: dict[str, Any] | None = None) -> Any:
    return derive(spec, random.Random(0), {"today": TODAY, **(ctx or {})}, "t")


@pytest.mark.parametrize(("spec", "day"), [
    ({"add": 1}, "2026-12-04"), ({"add": 14}, "2026-12-17"), ({"add": 29}, "2027-01-01"),
    ({"weekday": "Friday"}, "2026-12-04"), ({"weekday": "thursday"}, "2026-12-10"),  # "this Thursday": next
    ({"weekday": "Wednesday"}, "2026-12-09"), ({"weekday": "", "add": 2}, "2026-12-05"),
    ({"add": "{n}"}, "2026-12-10"), ({"weekday": "{w}", "add": 0}, "2026-12-06"),
])
def test_a_day_is_today_moved_by_days_or_to_the_next_weekday(spec: dict[str, Any], day: str) -> None:
    assert _d({"type": "day", "from": "today", **spec}, {"n": 7, "w": "Sunday"}) == day


def test_a_day_is_written_with_its_format_and_drawn_within_min_max() -> None:
    assert _d({"type": "day", "from": "today", "add": 5, "format": "%A, %B %-d"}) == "Tuesday, December 8"
    spec = {"type": "day", "from": "today", "min": 1, "max": 3}
    drawn = {derive(spec, random.Random(s), {"today": TODAY}, "t") for s in range(40)}
    assert drawn == {"2026-12-04", "2026-12-05", "2026-12-06"}


def test_dated_turns_day_offsets_into_days_and_sets_fields() -> None:
    got = _d({"type": "dated", "from": "raw", "field": "day", "as": "date", "base": "today",
              "set": {"with": "{who}"}},
             {"raw": [{"t": "a", "day": 0}, {"t": "b", "day": -3}], "who": "Ava Lee"})
    assert got == [{"t": "a", "day": 0, "date": "2026-12-03", "with": "Ava Lee"},
                   {"t": "b", "day": -3, "date": "2026-11-30", "with": "Ava Lee"}]


@pytest.mark.parametrize(("spec", "ctx", "message"), [
    ({"type": "day", "from": "today", "weekday": "Fryday"}, {}, r"'fryday', not a day of the week"),
    ({"type": "day", "from": "later", "add": 1}, {"later": "12/04"}, r"not a day written YYYY-MM-DD"),
    ({"type": "day", "from": "today", "min": 5, "max": 1}, {}, r"min 5 is above max 1"),
    ({"type": "day", "from": "today", "add": 10**9}, {}, r"outside -36,500..36,500"),
    ({"type": "dated", "from": "raw", "field": "day", "base": "today"}, {"raw": [{"day": "3"}]},
     r"item 0 of 'raw' has day='3', not a whole number of days"),
])
def test_bad_day_specs_are_refused_naming_the_fix(spec: dict[str, Any], ctx: dict[str, Any],
                                                  message: str) -> None:
    with pytest.raises(ParamError, match=message):
        _d(spec, ctx)


EVENTS = [{"t": "a", "time": "08:00"}, {"t": "b", "time": "12:15"}, {"t": "c", "time": "19:45"}]


def test_pick_first_several_and_ranges() -> None:
    ctx = {"ev": EVENTS}
    first = {"type": "pick", "from": "ev", "where": "time", "at_least": "12:00", "which": "first"}
    last = {"type": "pick", "from": "ev", "where": "time", "at_most": "12:15", "which": "last"}
    assert _d(first, ctx)["t"] == "b" and _d(last, ctx)["t"] == "b"
    several = _d({"type": "pick", "from": "ev", "count": 2}, ctx)
    assert len(several) == 2 and len({e["t"] for e in several}) == 2
    assert several == sorted(several, key=lambda e: e["time"])  # in list order
    column = {"type": "column", "from": "ev", "field": "t", "where": "time", "at_least": "12:15",
              "join": ", "}
    assert _d(column, ctx) == "b, c"
    with pytest.raises(ParamError, match=r"count: 4 items asked of 3"):
        _d({"type": "pick", "from": "ev", "count": 4}, ctx)
    with pytest.raises(ParamError, match=r"which: 'middle'; use first, last or drawn"):
        _d({"type": "pick", "from": "ev", "which": "middle"}, ctx)


def test_stamp_gives_every_item_the_fields_and_refuses_nothing_to_set() -> None:
    assert _d({"type": "stamp", "from": "ev", "set": {"cat": "{c}"}}, {"ev": EVENTS[:1], "c": "Pets"}) == [
        {"t": "a", "time": "08:00", "cat": "Pets"}]
    with pytest.raises(ParamError, match=r"set: the fields to give every item"):
        _d({"type": "stamp", "from": "ev"}, {"ev": EVENTS})
