"""The oracle language: every operator, the combinators, deep contains/matches, and clear errors."""

from __future__ import annotations

from typing import Any

import pytest

from droidpilot.bench.oracle import OracleError, evaluate, resolve, validate

STATE: dict[str, Any] = {
    "settings": {"dark_mode": True, "wifi": False},
    "notes": {"notes": [{"title": "Groceries", "body": "Milk"}, {"title": "", "body": "Meeting at 3pm"}]},
    "mail": {"sent": []},
    "maps": {"navigation": None},
    "system": {"installed_apps": ["settings", "notes"], "battery": 85},
}


@pytest.mark.parametrize(("pred", "ok"), [
    ({"path": "settings.dark_mode", "equals": True}, True),
    ({"path": "settings.dark_mode", "equals": "true"}, True),
    ({"path": "settings.wifi", "equals": True}, False),
    ({"path": "notes.notes", "contains": "meeting AT 3PM"}, True),
    ({"path": "notes.notes", "contains": "dentist"}, False),
    ({"path": "notes.notes.-1.body", "contains": "3pm"}, True),
    ({"path": "notes.notes.0.title", "in": ["Groceries", "Todo"]}, True),
    ({"path": "maps.navigation", "exists": False}, True),
    ({"path": "maps.navigation", "exists": True}, False),
    ({"path": "maps.nothing.deeper", "exists": False}, True),
    ({"path": "notes.notes", "matches": r"^Meeting at \d+pm$"}, True),
    ({"path": "notes.notes", "length_at_least": 2}, True),
    ({"path": "mail.sent", "length_at_least": 1}, False),
    ({"path": "system.battery", "equals": 85.0}, True),
    ({"path": "notes.notes.7.body", "contains": "x"}, False),
    ({"all": [{"path": "settings.dark_mode", "equals": True}, {"path": "system.installed_apps",
                                                              "contains": "notes"}]}, True),
    ({"any": [{"path": "settings.wifi", "equals": True},
              {"path": "mail.sent", "length_at_least": 1}]}, False),
    ({"not": {"path": "settings.wifi", "equals": True}}, True),
])
def test_operators_and_combinators(pred: dict[str, Any], ok: bool) -> None:
    validate(pred)
    result = evaluate(pred, STATE)
    assert result.ok is ok
    assert result.checks and all("path" in c for c in result.checks)


def test_checks_report_the_actual_value() -> None:
    result = evaluate({"path": "settings.wifi", "equals": True}, STATE)
    assert result.checks == [{"path": "settings.wifi", "op": "equals", "expected": True, "actual": "False",
                              "ok": False}]


def test_no_state_is_a_failure_that_says_why() -> None:
    result = evaluate({"path": "settings.dark_mode", "equals": True}, None)
    assert not result.ok and "no state" in result.checks[0]["actual"]


def test_resolve_list_indices() -> None:
    assert resolve(STATE, "notes.notes.1.body") == "Meeting at 3pm"
    assert resolve(STATE, "system.installed_apps.-1") == "notes"


@pytest.mark.parametrize(("pred", "message"), [
    ("dark", "must be a mapping"),
    ({"path": "a", "equals": 1, "contains": "x"}, "exactly one operator"),
    ({"path": "a", "equal": 1}, "unknown operator 'equal'"),
    ({"path": "a..b", "equals": 1}, "dotted path"),
    ({"all": []}, "oracle.all: expected a non-empty list"),
    ({"all": [{"path": "a", "in": "x"}]}, "oracle.all[0].in: expected a list"),
    ({"any": [{"path": "a", "matches": "("}]}, "oracle.any[0].matches: invalid regular expression"),
    ({"not": {"path": "a", "exists": "yes"}}, "oracle.not.exists: expected true or false"),
    ({"path": "a", "length_at_least": -1}, "whole number"),
    ({"all": [{"path": "a", "exists": True}], "any": []}, "must be the only key"),
    ({"python": "state['a']"}, "unknown keys"),
])
def test_validation_errors_name_the_place(pred: Any, message: str) -> None:
    with pytest.raises(OracleError, match=None) as info:
        validate(pred)
    assert message in str(info.value)
