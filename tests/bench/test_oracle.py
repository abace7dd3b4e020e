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


# -- typed leaves: near misses that must fail, differently written right values that must pass ------------

FIELDS: dict[str, Any] = {
    "bank": {"transfers": [{"to": "Paige Parkerson", "amount": "1810", "memo": "rent"},
                           {"to": "Liam Ng", "amount": "1,204.10", "memo": "Rent."}]},
    "clock": {"alarms": [{"time": "08:15", "label": "Gym"}, {"time": "13:00", "label": "home"}]},
    "contacts": {"contacts": [{"name": "Ava Smith", "phone": "(555) 392-7824"}],
                 "favorites": ["Noah Brown", "Ava Smith"]},
    "recipes": {"recipes": [{"name": "Tomato soup", "minutes": 30}]},
    "calendar": {"events": [{"title": "Dentist", "time": "All day"}]},
    "agent": {"answer": None},
}


@pytest.mark.parametrize(("path", "spec", "ok"), [
    # amounts as numbers: ten times too large fails, other spellings of the right one pass
    ("bank.transfers.0.amount", {"type": "money", "equals": "181"}, False),
    ("bank.transfers.0.amount", {"type": "money", "equals": "1810.00"}, True),
    ("bank.transfers.1.amount", {"type": "money", "equals": "$1204.10"}, True),
    ("bank.transfers.1.amount", {"type": "money", "equals": "1204.01"}, False),
    ("bank.transfers.1.amount", {"type": "money", "in": ["5", "1204.1"]}, True),
    # names equal, not contained
    ("bank.transfers.0.to", {"type": "name", "equals": "Paige Parker"}, False),
    ("bank.transfers.0.to", {"type": "name", "equals": "paige  parkerson"}, True),
    ("bank.transfers.0.to", {"type": "name", "equals": "Parkerson"}, False),
    ("bank.transfers.1.memo", {"type": "text", "equals": "rent"}, True),  # final full stop, case
    ("bank.transfers.1.memo", {"type": "text", "equals": "rent due"}, False),
    ("bank.transfers.1.memo", {"type": "text", "equals": "lease", "aliases": ["Rent"]}, True),
    # times, phones, counts
    ("clock.alarms.0.time", {"type": "time", "equals": "8:15"}, True),
    ("clock.alarms.0.time", {"type": "time", "equals": "8:15 PM"}, False),
    ("clock.alarms.1.time", {"type": "time", "equals": "1:00 PM"}, True),
    ("clock.alarms.1.time", {"type": "time", "equals": "1:00 AM"}, False),
    ("clock.alarms.1.label", {"type": "text", "equals": "Home"}, True),
    ("contacts.contacts.0.phone", {"type": "phone", "equals": "555-392-7824"}, True),
    ("contacts.contacts.0.phone", {"type": "phone", "equals": "555-392-7842"}, False),
    ("recipes.recipes.0.minutes", {"type": "count", "equals": "30"}, True),
    ("recipes.recipes.0.minutes", {"type": "count", "equals": "3"}, False),
    ("calendar.events.0.time", {"type": "text", "equals": "all day"}, True),
    ("calendar.events.0.time", {"type": "time", "equals": "9:00"}, False),  # a timed event is not all-day
    # a stored list read as a set: order free, an extra or missing item fails
    ("contacts.favorites", {"type": "set", "of": "name", "equals": ["Ava Smith", "Noah Brown"]}, True),
    ("contacts.favorites", {"type": "set", "of": "name", "equals": ["Ava Smith"]}, False),
    ("contacts.nothing", {"type": "name", "equals": "Ava Smith"}, False),
])
def test_value_compares_a_stored_field_whole_and_typed(path: str, spec: dict[str, Any], ok: bool) -> None:
    pred = {"path": path, "value": spec}
    validate(pred)
    result = evaluate(pred, FIELDS)
    assert result.ok is ok, result.checks
    assert result.checks[0]["why"]  # every typed leaf says why it passed or failed


@pytest.mark.parametrize(("answer", "spec", "ok"), [
    ("The label is Gym.", {"type": "text", "equals": "Gym"}, True),
    ("Gym or Yoga", {"type": "text", "equals": "Gym"}, False),
    ("It is not Gym", {"type": "text", "equals": "Gym"}, False),
    ("Paige Parkerson", {"type": "name", "equals": "Paige Parker"}, False),
    ("$1810", {"type": "money", "equals": "181"}, False),
    ("It was $181.00.", {"type": "money", "equals": "181"}, True),
    ("$1204.10", {"type": "money", "equals": "1,204.10"}, True),
    ("16", {"type": "count", "equals": "6"}, False),
    ("There are 6 alarms.", {"type": "count", "equals": "6"}, True),
    ("6, 7 or 8", {"type": "count", "equals": "6"}, False),
    (" ".join(str(i) for i in range(401)), {"type": "count", "equals": "63"}, False),
    ("65", {"type": "number", "equals": "65.00"}, True),
    ("(555) 392-7824", {"type": "phone", "equals": "555-392-7824"}, True),
    ("1:00 PM", {"type": "time", "equals": "13:00"}, True),
    ("Noah Brown and Ava Smith", {"type": "set", "of": "name", "equals": "Ava Smith, Noah Brown"}, True),
    ("Ava Smith", {"type": "set", "of": "name", "equals": "Ava Smith, Noah Brown"}, False),
    (None, {"type": "text", "equals": "Gym"}, False),
])
def test_value_reads_the_agents_reply_as_a_sentence(answer: Any, spec: dict[str, Any], ok: bool) -> None:
    pred = {"path": "agent.answer", "value": spec}
    validate(pred)
    assert evaluate(pred, {**FIELDS, "agent": {"answer": answer}}).ok is ok


@pytest.mark.parametrize(("answer", "ok"), [
    ("infeasible: the app has no loans", True),
    ("This cannot be done.", True),
    ("It is not infeasible, I applied.", False),
    ("maybe infeasible?", False),
    ("done", False),
    ("", False),
    (None, False),
])
def test_declares_infeasible_takes_only_a_plain_claim(answer: Any, ok: bool) -> None:
    pred = {"path": "agent.answer", "declares_infeasible": True}
    validate(pred)
    assert evaluate(pred, {"agent": {"answer": answer}}).ok is ok
    negated = {"path": "agent.answer", "declares_infeasible": False}
    assert evaluate(negated, {"agent": {"answer": answer}}).ok is (not ok)


@pytest.mark.parametrize(("pred", "message"), [
    ({"path": "a", "value": {"type": "money"}}, "oracle.value: give exactly one of `equals`"),
    ({"path": "a", "value": {"type": "cash", "equals": "1"}},
     "oracle.value.type: 'cash' is not a value type"),
    ({"all": [{"path": "a", "value": {"type": "money", "equals": "lots"}}]},
     "oracle.all[0].value: the right value 'lots' does not read as a money"),
    ({"path": "a", "value": {"type": "time", "equals": "8", "of": "time"}},
     "only a set or a table names the type"),
    ({"path": "a", "value": "181"}, "oracle.value: expected a mapping"),
    ({"path": "a", "declares_infeasible": "yes"}, "oracle.declares_infeasible: expected true or false"),
])
def test_typed_leaf_errors_name_the_oracle_path(pred: Any, message: str) -> None:
    with pytest.raises(OracleError) as info:
        validate(pred)
    assert message in str(info.value)


@pytest.mark.parametrize(("pred", "ok"), [
    # `contains` holds whole tokens: a longer number or word that holds the right one is not it
    ({"path": "bank.transfers.0.amount", "contains": "181"}, False),
    ({"path": "bank.transfers", "contains": "Paige Parker"}, False),
    ({"path": "notes.notes", "contains": "Total 145.75"}, False),
    ({"path": "browser.queries", "contains": "Atlanta"}, False),
    ({"path": "chat.sent", "contains": "到了"}, True),  # CJK is written without word breaks
    # ... and the right one written with other case, spacing or punctuation around it
    ({"path": "notes.notes", "contains": "total 42.50"}, True),
    ({"path": "browser.queries", "contains": "new  york"}, True),
    ({"path": "bank.transfers", "contains": "paige parkerson"}, True),
    ({"path": "notes.notes", "contains": "°C"}, True),  # no word in the needle: read as text
    ({"path": "tube.likes", "contains": "curry"}, True),  # an underscore breaks words in ids and URLs
    ({"path": "tube.likes", "contains": "cur"}, False),
    ({"path": "browser.visited", "contains": "lakers"}, True),
    ({"path": "tube.likes", "contains": "curry_mix"}, True),
    # `equals` compares a stored scalar as a field: folded text, numbers as numbers
    ({"path": "clock.alarms.1.label", "equals": "Home"}, True),
    ({"path": "chat.sent.0.text", "equals": "我到了"}, True),
    ({"path": "chat.sent.0.text", "equals": "我到"}, False),
    ({"path": "bank.transfers.1.memo", "equals": "rent"}, True),
    ({"path": "bank.transfers.1.memo", "equals": "rents"}, False),
    ({"path": "recipes.recipes.0.minutes", "equals": "30.00"}, True),
    ({"path": "recipes.recipes.0.minutes", "equals": "300"}, False),
    ({"path": "clock.alarms.1.label", "in": ["Gym", "HOME"]}, True),
    ({"path": "clock.alarms.0.time", "equals": "8:15"}, False),  # a time is typed with `value`, not here
])
def test_contains_is_whole_token_and_equals_folds_text(pred: dict[str, Any], ok: bool) -> None:
    state = {**FIELDS, "notes": {"notes": [{"title": "", "body": "Total 145.755"},
                                           {"title": "Sum", "body": "TOTAL: 42.50 (21.5°C)"}]},
             "browser": {"queries": ["Atlantas", "New York"], "visited": ["https://x.org/wiki/Los_Angeles_Lakers"]},
             "tube": {"likes": ["curry_mix"]},
             "chat": {"sent": [{"to": "lina", "text": "我到了。"}]}}
    validate(pred)
    assert evaluate(pred, state).ok is ok


def test_plain_operators_keep_their_meaning_near_misses_included() -> None:
    assert evaluate({"path": "recipes.recipes.0.minutes", "equals": 30.0}, FIELDS).ok
    assert not evaluate({"path": "recipes.recipes.0.minutes", "in": [3, 300]}, FIELDS).ok
    assert not evaluate({"path": "contacts.favorites", "length_at_least": 3}, FIELDS).ok
    assert not evaluate({"path": "clock.alarms", "matches": r"^8:15$"}, FIELDS).ok
    assert not evaluate({"path": "agent.answer", "exists": True}, FIELDS).ok


def test_a_matches_pattern_that_backtracks_without_end_is_an_error_naming_the_path() -> None:
    """Not a silent false: the task's author must rewrite the pattern (a near miss below still judges)."""
    pred = {"path": "notes.0.title", "matches": "(a|aa)+$"}
    validate(pred)
    state = {"notes": [{"title": "a" * 40 + "!"}]}
    with pytest.raises(OracleError, match=r"'notes\.0\.title': matches: regular expression '\(a\|aa\)\+\$' "
                                          r"timed out .* rewrite it"):
        evaluate(pred, state)
    assert evaluate({"path": "notes.0.title", "matches": "(a|b)+!$"}, state).ok
    assert not evaluate({"path": "notes.0.title", "matches": "(a|b)+\\?$"}, state).ok
