"""Side effects: the diff of start and final state, the effects language's forms, the defaults and the
incidental list. Every form is tried with wrong completions (must fail, naming the change) and
differently written right ones (must pass)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from droidpilot.bench.effects import EffectsError, default_effects, effective, judge, validate_effects
from droidpilot.bench.oracle import evaluate
from droidpilot.bench.statediff import INCIDENTAL, diff

START: dict[str, Any] = {
    "clock": {"alarms": [{"time": "07:00", "label": "Wake up"}, {"time": "09:30", "label": "Gym"},
                         {"time": "18:00", "label": "Yoga"}], "disabled": []},
    "contacts": {"contacts": [{"name": "Ava Smith", "phone": "555-201-4410"},
                              {"name": "Noah Brown", "phone": "555-310-8821"}], "favorites": []},
    "bank": {"transfers": []},
    "expenses": {"expenses": [{"title": "Coffee", "amount": "4.50", "category": "Food"},
                              {"title": "Taxi", "amount": "12.00", "category": "Travel"}]},
    "settings": {"wifi": True, "dark_mode": False},
    "browser": {"queries": []},
    "foreground": {"app": "launcher", "screen": "home", "fields": {"query": ""}},
    "system": {"clock": "10:30", "notifications": [], "recents": [], "installed_apps": ["clock"],
               "dark_mode": False},
}


def after(**edits: Any) -> dict[str, Any]:
    """START with ``app.key`` replaced (``clock__alarms=[...]``), plus incidental noise every run makes."""
    state = copy.deepcopy(START)
    for key, value in edits.items():
        app, field = key.split("__")
        state[app][field] = value
    state["foreground"] = {"app": "clock", "screen": "list", "fields": {"query": "clo"}}
    state["system"] = {**state["system"], "clock": "10:31", "recents": ["clock"],
                       "notifications": [{"title": "Hi"}]}
    state["browser"] = {"queries": ["weather"]}
    return state


ALARMS = START["clock"]["alarms"]
DELETE_0930 = {"clock.alarms": {"removed": [{"time": {"type": "time", "equals": "9:30"}}]}}
TWO_TRANSFERS = {"bank.transfers": {"added": [
    {"to": {"type": "name", "equals": "Paige Parker"}, "amount": {"type": "money", "equals": "181"}},
    {"to": "Liam Ng", "amount": {"type": "money", "equals": "1,204.10"}, "memo": "rent"}]}}
RENT = {"to": "Liam Ng", "amount": "1204.1", "memo": "Rent."}
PAIGE = {"to": "Paige Parker", "amount": "$181.00"}
RETYPE = {"expenses.expenses": {"changed": [{"match": {"title": "Taxi"},
                                             "set": {"amount": {"type": "money", "equals": "15"}}}]}}
TAXI = {"title": "Taxi", "amount": "15.00", "category": "Travel"}


@pytest.mark.parametrize(("declared", "final", "problem"), [
    # removed: exactly the target
    (DELETE_0930, after(clock__alarms=[ALARMS[0], ALARMS[2]]), None),
    (DELETE_0930, after(clock__alarms=[ALARMS[0]]), "clock.alarms: also removed {time: 18:00, label: Yoga}"),
    (DELETE_0930, after(clock__alarms=[ALARMS[1], ALARMS[2]]),
     "clock.alarms: expected removed {time: {type: time, equals: 9:30}}; no such record was removed"),
    (DELETE_0930, after(clock__alarms=ALARMS[::-1]), "expected removed {time: {type: time"),  # reordered only
    # a plain value is text (case and spacing folded), so "9:30" is not the stored "09:30": type it
    ({"clock.alarms": {"removed": [{"time": "09:30"}]}}, after(clock__alarms=[ALARMS[0], ALARMS[2]]), None),
    ({"clock.alarms": {"removed": [{"time": "9:30"}]}}, after(clock__alarms=[ALARMS[0], ALARMS[2]]),
     "expected removed {time: 9:30}"),
    (DELETE_0930, after(clock__alarms=[ALARMS[0], ALARMS[2]], clock__disabled=["07:00"]),
     "clock.disabled: also added 07:00"),
    # added: exactly these records, in any order, fields typed
    (TWO_TRANSFERS, after(bank__transfers=[RENT, PAIGE]), None),
    (TWO_TRANSFERS, after(bank__transfers=[PAIGE, RENT]), None),
    (TWO_TRANSFERS, after(bank__transfers=[{**PAIGE, "amount": "1810"}, RENT]),
     "bank.transfers: also added {to: Paige Parker, amount: 1810}"),
    (TWO_TRANSFERS, after(bank__transfers=[{**PAIGE, "to": "Paige Parkerson"}, RENT]),
     "expected added {to: {type: name, equals: Paige Parker}"),
    (TWO_TRANSFERS, after(bank__transfers=[PAIGE, {**RENT, "memo": "deposit"}]), "also added"),
    (TWO_TRANSFERS, after(bank__transfers=[PAIGE, RENT, PAIGE]), "bank.transfers: also added {to: Paige"),
    (TWO_TRANSFERS, after(bank__transfers=[PAIGE]), "expected added {to: Liam Ng"),
    # changed: the matched record edited as said, its other fields kept
    (RETYPE, after(expenses__expenses=[START["expenses"]["expenses"][0], TAXI]), None),
    (RETYPE, after(expenses__expenses=[TAXI, START["expenses"]["expenses"][0]]), None),
    (RETYPE, after(expenses__expenses=[START["expenses"]["expenses"][0], {**TAXI, "amount": "150"}]),
     "expected a record matching {title: Taxi} changed"),
    (RETYPE, after(expenses__expenses=[START["expenses"]["expenses"][0], {**TAXI, "category": "Food"}]),
     "expected a record matching {title: Taxi} changed"),
    (RETYPE, after(expenses__expenses=[{**START["expenses"]["expenses"][0], "amount": "15"}, TAXI]),
     "also removed {title: Coffee"),
    (RETYPE, after(expenses__expenses=[START["expenses"]["expenses"][0], TAXI, TAXI]),
     "expenses.expenses: also added {title: Taxi"),
    # set: a value's final state (flags as flags)
    ({"settings.dark_mode": {"set": True}}, after(settings__dark_mode=True), None),
    ({"settings.dark_mode": {"set": "true"}}, after(settings__dark_mode=True), None),
    ({"settings.dark_mode": {"set": True}}, after(settings__dark_mode=False),
     "settings.dark_mode: expected true"),
    ({"settings.dark_mode": {"set": True}}, after(settings__dark_mode=True, settings__wifi=False),
     "settings.wifi: also changed from true to false"),
    # any / unchanged, and the longest declared path wins
    ({"contacts": "any"}, after(contacts__favorites=["Ava Smith", "Noah Brown"]), None),
    ({"contacts": "any", "contacts.favorites": {"added": ["ava smith"]}},
     after(contacts__favorites=["Ava Smith"], contacts__contacts=[]), None),
    ({"contacts": "any", "contacts.favorites": {"added": ["Ava Smith"]}},
     after(contacts__favorites=["Ava Smith", "Noah Brown"]), "contacts.favorites: also added Noah Brown"),
    ({"contacts": "unchanged"}, after(contacts__favorites=["Ava Smith"]),
     "contacts.favorites: also added Ava Smith (declared 'contacts' does not allow it)"),
    ({}, after(), None),  # incidental noise alone is no change
    ({}, after(settings__wifi=False), "settings.wifi: also changed from true to false"),
])
def test_every_form_with_its_near_misses(declared: dict[str, Any], final: dict[str, Any],
                                         problem: str | None) -> None:
    validate_effects(declared)
    result = judge(declared, START, final)
    if problem is None:
        assert result.ok, result.problems
    else:
        assert not result.ok
        assert any(problem in p for p in result.problems), result.problems


def test_the_diff_leaves_incidental_state_out_and_ignores_order() -> None:
    assert diff(START, after()) == []
    reordered = after(clock__alarms=list(reversed(ALARMS)))
    assert diff(START, reordered) == []
    changes = diff(START, after(clock__alarms=[ALARMS[0], {"time": "09:30", "label": "Run"}, ALARMS[2]]))
    assert [c.to_dict() for c in changes] == [
        {"path": "clock.alarms", "added": [{"time": "09:30", "label": "Run"}], "removed": [ALARMS[1]]}
    ]
    assert {"foreground", "system.notifications", "*.queries"} <= set(INCIDENTAL)


def test_an_incidental_path_is_judged_when_a_task_declares_it() -> None:
    declared = {"browser.queries": {"added": ["weather"]}}
    assert judge(declared, START, after()).ok
    assert not judge({"browser.queries": {"added": ["news"]}}, START, after()).ok


def test_defaults_come_from_the_oracle_and_infeasible_tasks_change_nothing() -> None:
    oracle = {"all": [{"path": "clock.alarms.-1.time", "equals": "7:00"},
                      {"not": {"path": "system.installed_apps", "contains": "x"}},
                      {"path": "foreground.screen", "equals": "list"},
                      {"path": "agent.answer", "contains": "x"}]}
    assert default_effects(oracle) == {"clock.alarms": "any", "system.installed_apps": "any"}
    assert default_effects(oracle, "infeasible") == {}
    declared = {"clock.alarms": {"removed": [{"time": "9:30"}]}}
    assert effective(declared, oracle) == {"system.installed_apps": "any", **declared}
    assert effective({}, oracle, "retrieval") == default_effects(oracle)


def test_a_default_frees_the_field_the_oracle_reads_not_its_whole_app() -> None:
    # dark mode turned on, and Wi-Fi turned off on the way: the task reads settings.dark_mode only
    oracle = {"path": "settings.dark_mode", "equals": True}
    start = {"settings": {"dark_mode": False, "wifi": True}}
    detour = {"settings": {"dark_mode": True, "wifi": False}}
    result = judge(default_effects(oracle), start, detour)
    assert not result.ok and result.problems == ["settings.wifi: also changed from true to false"]
    assert judge(default_effects(oracle), start, {"settings": {"dark_mode": True, "wifi": True}}).ok


def test_oracle_json_shows_the_changes_and_fails_on_a_side_effect() -> None:
    pred = {"not": {"path": "clock.alarms", "contains": "09:30"}}
    final = after(clock__alarms=[ALARMS[0]])
    assert evaluate(pred, final).ok  # the old oracle let the extra deletion through
    result = evaluate(pred, final, start=START, effects=DELETE_0930)
    assert not result.ok
    doc = result.to_dict()
    assert doc["effects"]["changes"] == [{"path": "clock.alarms", "added": [], "removed": ALARMS[1:]}]
    assert doc["effects"]["problems"] == ["clock.alarms: also removed {time: 18:00, label: Yoga}"]
    missing = evaluate(pred, final, start=None, effects=DELETE_0930)
    assert not missing.ok and "no start state" in missing.to_dict()["effects"]["problems"][0]


@pytest.mark.parametrize(("effects", "message"), [
    ("any", "effects: expected a mapping"),
    ({"clock.alarms.0": "any"}, "effects.clock.alarms.0: expected a dotted state path without list indices"),
    ({"clock": "free"}, "effects.clock: expected any, unchanged or a mapping"),
    ({"clock.alarms": {"deleted": []}}, "unknown form(s) ['deleted']"),
    ({"clock.alarms": {"added": {"time": "7:00"}}}, "effects.clock.alarms.added: expected a list"),
    ({"clock.alarms": {"changed": [{"match": {"time": "7:00"}}]}}, "changed[0]: expected {match"),
    ({"settings.wifi": {"set": True, "added": []}}, "`set` (a value's final state) does not mix"),
    ({"bank.transfers": {"added": [{"amount": {"type": "money", "equals": "lots"}}]}},
     "effects.bank.transfers.added[0].amount: the right value 'lots' does not read as a money"),
    ({"bank.transfers": {"added": [{"amount": {"type": "cash", "equals": "1"}}]}},
     "'cash' is not a value type"),
    ({"banking.transfers": "any"}, "effects.banking.transfers: the state has no 'banking'"),
])
def test_effects_errors_name_the_place(effects: Any, message: str) -> None:
    with pytest.raises(EffectsError) as info:
        validate_effects(effects, roots=frozenset(START))
    assert message in str(info.value)


def test_placeholders_are_not_read_as_values_before_they_are_filled() -> None:
    validate_effects({"bank.transfers": {"added": [{"amount": {"type": "money", "equals": "{amount}"}}]}},
                     values=False)


def test_a_list_that_comes_into_being_is_judged_record_by_record() -> None:
    final = {**after(), "whatsapp": {"sent": [{"to": "Ava", "text": "hi"}]}}
    start = {**START, "whatsapp": {}}
    assert [c.to_dict() for c in diff(start, final)] == [
        {"path": "whatsapp.sent", "added": [{"to": "Ava", "text": "hi"}], "removed": []}]
    assert judge({"whatsapp.sent": {"added": [{"to": "ava", "text": "Hi."}]}}, start, final).ok
    assert not judge({"whatsapp.sent": {"added": [{"to": "Noah"}]}}, start, final).ok
    gone = judge({}, final, start)
    assert gone.problems == ["whatsapp.sent: also removed {to: Ava, text: hi}"]
    assert diff({"a": {}}, {"a": {"b": 1}})[0].to_dict() == {"path": "a.b", "before": None, "after": 1}
