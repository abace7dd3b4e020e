"""Templates' judging parts: `effects` declarations (file:line errors, placeholders, defaults, positional
leaves dropped), typed answers of retrieval tasks and plain infeasibility claims, on real instances."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.bench.world.played import world_task as _world

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.suite import SuiteError, load_suite, suite_folder
from droidpilot.bench.world.check import start_state
from droidpilot.bench.world.effects_decl import drop_positional
from droidpilot.bench.world.instance import instantiate
from droidpilot.bench.world.template import Template, load_templates

TEMPLATE = """app: clock
templates:
  - id: clock-first
    kind: data-entry
    instruction: "Set an alarm."
    reference: ["open App (Clock)"]
    oracle: {path: clock.alarms, length_at_least: 1}
    checkpoints: [["Alarms"]]
  - id: clock-del
    kind: edit
    params:
      when: {type: const, value: "%s"}
    instruction: "Delete the {when} alarm."
    reference: ["open App (Clock)"]
    oracle: {path: clock.alarms, length_at_least: 0}
    effects: %s
    checkpoints: [["Alarms"]]
"""


def named(templates: list[Template], tid: str) -> Template:
    return next(t for t in templates if t.id == tid)


def suite(tmp_path: Path, effects: str, when: str = "07:00") -> Path:
    (tmp_path / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    (tmp_path / "clock.yaml").write_text(TEMPLATE % (when, effects), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("effects", "message"), [
    ("{clock.alarms: {deleted: [x]}}", "unknown form(s) ['deleted']"),
    ("{clock.alarms.0: any}", "without list indices"),
    ("[clock.alarms]", "expected a mapping state path"),
    ("{clock.alarms: {removed: {time: x}}}", "effects.clock.alarms.removed: expected a list"),
])
def test_a_bad_declaration_names_file_line_and_field(tmp_path: Path, effects: str, message: str) -> None:
    with pytest.raises(SuiteError) as info:
        load_templates(suite(tmp_path, effects))
    text = str(info.value)
    assert f"{tmp_path / 'clock.yaml'}:9: template 'clock-del' field 'effects'" in text and message in text


def test_values_are_checked_once_the_placeholders_are_filled(tmp_path: Path) -> None:
    effects = '{clock.alarms: {removed: [{time: {type: time, equals: "{when}"}}]}}'
    good = named(load_templates(suite(tmp_path, effects)), "clock-del")
    task = instantiate(good, 0)
    assert task.effects == {"clock.alarms": {"removed": [{"time": {"type": "time", "equals": "07:00"}}]}}
    (tmp_path / "soon").mkdir()
    bad = named(load_templates(suite(tmp_path / "soon", effects, when="soon")), "clock-del")
    with pytest.raises(SuiteError, match="the right value 'soon' does not read as a time"):
        instantiate(bad, 0)
    unknown = named(load_templates(suite(tmp_path, "{alarmclock.alarms: any}")), "clock-del")
    with pytest.raises(SuiteError, match="the state has no 'alarmclock'"):
        instantiate(unknown, 0)


def test_an_undeclared_template_gets_the_fields_its_oracle_reads(tmp_path: Path) -> None:
    first = load_templates(suite(tmp_path, "{clock: any}"))[0]
    assert instantiate(first, 0).effects == {"clock.alarms": "any"}


def test_positional_leaves_into_a_declared_list_are_dropped() -> None:
    oracle = {"all": [{"path": "bank.transfers.-2.to", "equals": "A"}, {"path": "bank.transfers.-1.to",
                                                                        "equals": "B"},
                      {"path": "notes.notes", "contains": "x"}]}
    declared = {"bank.transfers": {"added": [{"to": "A"}, {"to": "B"}]}}
    assert drop_positional(oracle, declared) == {"path": "notes.notes", "contains": "x"}
    only = {"all": oracle["all"][:2]}
    assert drop_positional(only, declared) == {"path": "bank.transfers", "length_at_least": 2}
    assert drop_positional(oracle, {"bank": "any"}) == oracle
    negated = {"not": {"path": "bank.transfers.-1.to", "equals": "A"}}
    assert drop_positional(negated, declared) == negated  # only plain conjuncts are dropped


def _judge(task: Any, answer: Any, edit: Any = None, looked: bool = True) -> bool:
    """The oracle's verdict on ``answer`` given after opening the task's app (``looked``) or without."""
    start = start_state(task)
    system = {**start["system"], "recents": list(task.apps) if looked else []}
    final = {**start, "system": system, "agent": {"answer": answer}}
    if edit:
        final = edit(final)
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


def test_infeasible_tasks_pass_only_on_a_plain_claim_and_no_side_effect() -> None:
    task = load_suite("world", seed=0, templates="clock-impossible-time").tasks[0]
    assert _judge(task, "infeasible: 30:00 is not a time of day")
    assert not _judge(task, "It is not infeasible, I applied.")
    assert not _judge(task, "maybe infeasible?")
    assert not _judge(task, None)
    assert not _judge(task, "infeasible: 30:00 is not a time of day", looked=False)  # said without looking

    def extra_alarm(state: dict[str, Any]) -> dict[str, Any]:
        clock = state["clock"]
        return {**state, "clock": {**clock, "alarms": [*clock["alarms"], {"time": "06:00", "label": "x"}]}}

    assert not _judge(task, "infeasible: no such hour", extra_alarm)


def test_a_retrieval_answer_is_one_value_of_its_type() -> None:
    template = named(load_templates(suite_folder("world")), "clock-count")
    template.answer_type = {"type": "count"}  # as the suite declares it (read with getattr until then)
    task = instantiate(template, 1)
    want = {"type": "count", "equals": str(task.params["total"])}
    assert task.oracle == {"all": [{"path": "system.recents", "contains": "clock"},
                                   {"path": "agent.answer", "value": want}]}
    total = len(task.setup["state"]["clock.alarms"])
    assert _judge(task, f"You have {total} alarms.")
    assert not _judge(task, " ".join(str(i) for i in range(401)))
    assert not _judge(task, f"{total} or {total + 1}")
    assert not _judge(task, f"You have {total} alarms.", looked=False)  # a right guess is still a guess


def test_without_an_answer_type_the_answer_is_text() -> None:
    template = named(load_templates(suite_folder("world")), "clock-label")
    template.answer_type = {}
    task = instantiate(template, 0)
    label = task.params["target"]["label"]
    assert task.oracle["all"][-1] == {"path": "agent.answer", "value": {"type": "text", "equals": label}}
    assert _judge(task, f"The label is {label}.") and _judge(task, label.upper())
    assert not _judge(task, f"{label} or Bus") and not _judge(task, f"not {label}")




def _append(path: str, record: Any) -> Any:
    """An edit of the final state: ``record`` added at the end of the list at ``app.field``."""
    app, key = path.split(".")

    def edit(state: dict[str, Any]) -> dict[str, Any]:
        return {**state, app: {**state[app], key: [*state[app][key], record]}}

    return edit


def test_a_note_holds_the_total_as_a_whole_token() -> None:
    task = _world("long-sum-to-note", 0)
    total = task.params["sum"]
    assert _judge(task, None, _append("notes.notes", {"title": "", "body": f"Total {total}"}))
    assert _judge(task, None, _append("notes.notes", {"title": "", "body": f"total: {total}"}))
    assert not _judge(task, None, _append("notes.notes", {"title": "", "body": f"Total {total}5"}))
    assert not _judge(task, None, _append("notes.notes", {"title": "", "body": f"Total 1{total}"}))


def test_a_query_is_the_word_searched_not_a_longer_one() -> None:
    task = _world("search-web", 0)
    q = task.params["q"]
    assert _judge(task, None, _append("browser.queries", q.lower()))
    assert not _judge(task, None, _append("browser.queries", q + "s"))


def test_a_phone_number_is_stored_as_a_phone_however_it_is_written() -> None:
    task = _world("messages-new", 0)
    to, text = task.params["to"], task.params["text"]
    digits = "".join(ch for ch in to if ch.isdigit())
    assert _judge(task, None, _append("messages.sent", {"to": digits, "text": text}))
    assert _judge(task, None, _append("messages.sent", {"to": f"({digits[:3]}) {digits[3:6]}-{digits[6:]}",
                                                        "text": text}))
    bumped = digits[:-1] + str((int(digits[-1]) + 1) % 10)
    assert not _judge(task, None, _append("messages.sent", {"to": bumped, "text": text}))


def test_a_final_full_stop_does_not_change_a_message() -> None:
    task = _world("zh-chat-send", 1)
    who, text = task.params["who"], task.params["text"]
    assert _judge(task, None, _append("chat.sent", {"to": who, "name": task.params["name"],
                                                    "text": text + "。"}))
    assert not _judge(task, None, _append("chat.sent", {"to": who, "name": task.params["name"],
                                                        "text": text + "了"}))


def test_a_switch_turned_on_the_way_is_a_side_effect() -> None:
    task = _world("settings-switch", 0)
    path, want = task.params["s"]["path"], task.params["s"]["want"]
    key = path.split(".")[1]
    other = next(k for k in ("wifi", "bluetooth") if k != key)

    def flip(*keys: str) -> Any:
        def edit(state: dict[str, Any]) -> dict[str, Any]:
            changed = {k: (want if k == key else not state["settings"][k]) for k in keys}
            return {**state, "settings": {**state["settings"], **changed}}
        return edit

    assert _judge(task, None, flip(key))
    assert not _judge(task, None, flip(key, other))


def test_airplane_mode_turns_wi_fi_off_with_it_and_nothing_else_may_change() -> None:
    task = _world("settings-two-switches", 0)
    pair = task.params["pair"]
    assert "settings.airplane_mode" in (pair["ka"], pair["kb"])

    def turned(**extra: bool) -> Any:
        def edit(state: dict[str, Any]) -> dict[str, Any]:
            keys = {pair["ka"].split(".")[1]: True, pair["kb"].split(".")[1]: True, "wifi": False}
            return {**state, "settings": {**state["settings"], **keys, **extra}}
        return edit

    assert _judge(task, None, turned())  # Wi-Fi goes off with airplane mode, as on Android
    assert not _judge(task, None, turned(show_network_speed=True))
    plain = _world("settings-two-switches", 1)
    assert "settings.airplane_mode" not in (plain.params["pair"]["ka"], plain.params["pair"]["kb"])
    assert "settings.wifi" not in plain.effects  # without airplane mode, Wi-Fi turned off is a side effect
