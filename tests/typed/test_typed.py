"""Typed matching: near misses fail and differently written right values pass, for every type."""

from __future__ import annotations

import pytest

from droidpilot.typed import TypedSpecError, check_spec, declares_infeasible, match, read_value

CASES = [
 ({"type":"money","equals":"181"}, "$1810", False),
 ({"type":"money","equals":"181"}, "$181.00", True),
 ({"type":"money","equals":"1,204.10"}, "$1204.10", True),
 ({"type":"money","equals":"1,204.10"}, "1204.10", True),
 ({"type":"money","equals":"1,204.10"}, "The balance is $1,204.10.", True),
 ({"type":"money","equals":"54.20"}, "-$54.20 on Nov 20", True),
 ({"type":"money","equals":"54.20"}, "$54.20 or $12.40", False),
 ({"type":"phone","equals":"555-392-7824"}, "(555) 392-7824", True),
 ({"type":"phone","equals":"555-392-7824"}, "5553927824", True),
 ({"type":"phone","equals":"555-392-7824"}, "+1 555 392 7824", True),
 ({"type":"phone","equals":"555-392-7824"}, "555-392-7842", False),
 ({"type":"time","equals":"13:00"}, "1:00 PM", True),
 ({"type":"time","equals":"13:00"}, "1 pm", True),
 ({"type":"time","equals":"13:00"}, "1:00 AM", False),
 ({"type":"time","equals":"08:15"}, "8:15", True),
 ({"type":"time","equals":"08:15"}, "The alarm is at 8:15.", True),
 ({"type":"time","equals":"20:15"}, "8:15", False),
 ({"type":"number","equals":"65.00"}, "65", True),
 ({"type":"number","equals":"65"}, "650", False),
 ({"type":"count","equals":"6"}, "16", False),
 ({"type":"count","equals":"6"}, "6", True),
 ({"type":"count","equals":"6"}, "You have 6 alarms.", True),
 ({"type":"count","equals":"6"}, "six", True),
 ({"type":"count","equals":"63"}, "630", False),
 ({"type":"count","equals":"6"}, "6, 7 or 8", False),
 ({"type":"count","equals":"6"}, " ".join(str(i) for i in range(401)), False),
 ({"type":"text","equals":"Home"}, "home", True),
 ({"type":"text","equals":"Gym"}, "Gym.", True),
 ({"type":"text","equals":"Gym"}, "The label is Gym.", True),
 ({"type":"text","equals":"Gym"}, "Gym or Yoga", False),
 ({"type":"text","equals":"Gym"}, "It is not Gym", False),
 ({"type":"name","equals":"Paige Parker"}, "Paige Parkerson", False),
 ({"type":"name","equals":"Paige Parker"}, "paige parker", True),
 ({"type":"date","equals":"Nov 21"}, "November 21st", True),
 ({"type":"date","equals":"Nov 21"}, "2026-11-21", True),
 ({"type":"date","equals":"Nov 21"}, "11/21", True),
 ({"type":"date","equals":"Nov 21"}, "Nov 12", False),
 ({"type":"duration","equals":"3:25"}, "3 min 25 s", True),
 ({"type":"duration","equals":"90 minutes"}, "1 h 30 min", True),
 ({"type":"duration","equals":"90 minutes"}, "1:30:00", True),
 ({"type":"set","of":"name","equals":["Ava Smith","Noah Brown"]}, "Noah Brown and Ava Smith", True),
 ({"type":"set","of":"name","equals":["Ava Smith","Noah Brown"]}, "Noah Brown, Ava Smith, Mia Lee", False),
 ({"type":"count","equals":"0"}, "You have no alarms", True),
]


@pytest.mark.parametrize(("spec", "text", "ok"), CASES, ids=[f"{c[0]['type']}:{c[1][:30]}" for c in CASES])
def test_match(spec: dict, text: str, ok: bool) -> None:
    assert check_spec(spec) == spec
    assert match(spec, text).ok is ok, match(spec, text).reason


@pytest.mark.parametrize(
    ("reply", "declares"),
    [
        ("infeasible: the Bank app offers no loans", True),
        ("This cannot be done", True),
        ("infeasible", True),
        ("The app does not offer loans", True),
        ("无法完成：没有这个功能", True),
        ("It is not infeasible, I applied.", False),
        ("maybe infeasible?", False),
        ("It might not be possible", False),
        ("done", False),
        ("", False),
    ],
)
def test_declares_infeasible(reply: str, declares: bool) -> None:
    assert declares_infeasible(reply) is declares


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ({"type": "moneyy", "equals": "1"}, "not a value type"),
        ({"type": "money"}, "exactly one of"),
        ({"type": "money", "equals": "1", "in": ["2"]}, "exactly one of"),
        ({"type": "time", "equals": "39:00"}, "does not read as a time"),
        ({"type": "count", "equals": "x", "aliases": ["y"]}, "aliases"),
        ({"type": "set", "of": "set", "equals": []}, "item type"),
        ({"type": "text", "equals": "a", "colour": 1}, "unknown key"),
        ("money", "expected a mapping"),
    ],
)
def test_bad_specs_name_the_problem(spec: object, fragment: str) -> None:
    with pytest.raises(TypedSpecError, match=fragment):
        check_spec(spec, "oracle.all[0].value")


def test_read_value_for_stored_fields() -> None:
    assert read_value("money", "1,204.10") == read_value("money", 1204.1)
    assert read_value("time", "07:05") == 7 * 60 + 5
    assert read_value("time", "24:00") is None
    assert read_value("count", "3 or 4") is None
