"""The new families' judging on real SimPhone state: each template instance is set up on a SimPhone,
played by an XML-reading driver (right, written differently, or almost right), and judged by its oracle
with its declared side effects, as a benchmark run judges it. Near misses: a date one day off, the right
day at the wrong time, a timer started, one duplicate too many, an extra row deleted, the past meeting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.bench.world.played import judge_played as _judge
from tests.bench.world.played import world_task as _task
from tests.device.sim_driver import Driver

from droidpilot.bench.suite import BenchTask

Play = Callable[[Driver, BenchTask], str | None]  # returns the agent's answer, if any






def _tap_nth(ui: Driver, text: str, n: int) -> None:
    hits = [e for e in ui.elements() if e.text == text]
    x1, y1, x2, y2 = hits[n].bounds
    ui.d.tap((x1 + x2) // 2, (y1 + y2) // 2)


def _event(date: str, time: str, minutes: str | None = None) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        p = task.params
        ui.d.open_app("calendar")
        ui.tap(desc="Create event")
        fields = {"title": p["title"], "date": date.format(**p), "time": time.format(**p),
                  "minutes": (minutes or "{minutes}").format(**p), "location": p["place"]}
        for rid, text in fields.items():
            ui.type_into(rid, str(text))
        ui.tap(desc="Save")

    return play


def _day_off(task: BenchTask) -> str:
    import datetime as dt

    return (dt.date.fromisoformat(task.params["day"]) + dt.timedelta(days=1)).isoformat()


@pytest.mark.parametrize(("seed", "case", "ok"), [
    (0, "right", True), (1, "us-date-and-short-hour", True), (0, "one-day-off", False),
    (1, "wrong-time", False), (0, "wrong-length", False),
])
def test_an_event_on_a_relative_day(seed: int, case: str, ok: bool) -> None:
    task = _task("calendar-event-on-day", seed)
    y, m, d = task.params["day"].split("-")
    plays = {"right": _event("{day}", "{time}"),
             "us-date-and-short-hour": _event(f"{m}/{d}/{y}", task.params["time"].lstrip("0")),
             "one-day-off": _event(_day_off(task), "{time}"),
             "wrong-time": _event("{day}", "23:15"),
             "wrong-length": _event("{day}", "{time}", "5")}
    assert _judge(task, plays[case]) is ok


def _delete_titles(*titles: str) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        ui.d.open_app("calendar")
        ui.tap(desc="Upcoming")
        for title in titles:
            ui.tap(title.format(**task.params))
            ui.tap("Delete event")

    return play


@pytest.mark.parametrize(("titles", "ok"), [
    (("{pair[1][title]}", "{pair[0][title]}"), True),  # the other order
    (("{pair[0][title]}",), False),  # one of the day's two left
    (("{pair[0][title]}", "{pair[1][title]}", "{others[0][title]}"), False),  # another day's too
])
def test_deleting_a_whole_day(titles: tuple[str, ...], ok: bool) -> None:
    assert _judge(_task("calendar-delete-day"), _delete_titles(*titles)) is ok


def _answer(text: str) -> Play:
    """Open the task's app (a retrieval answer counts after looking), then reply ``text``."""
    def play(ui: Driver, task: BenchTask) -> str:
        ui.d.open_app(task.apps[0])
        return text.format(**task.params)

    return play


@pytest.mark.parametrize(("template", "answer", "ok"), [
    ("calendar-next-with-person", "{said}", True),
    ("calendar-next-with-person", "{next[date]}", True),  # 2026-..-.. for "Month D, YYYY"
    ("calendar-next-with-person", "{meet_all[0][date]}", False),  # the earliest, a past one, on seed 0
    ("calendar-first-after", "{near[1][title]}", True),
    ("calendar-first-after", "{near[2][title]}", False),  # the second after, not the first
    ("calendar-event-at", "It is {ask[title]}.", True),
])
def test_calendar_answers(template: str, answer: str, ok: bool) -> None:
    task = _task(template)
    if answer == "{meet_all[0][date]}":
        assert task.params["meet_all"][0]["date"] < task.params["today"]  # the instance has a past meeting
    assert _judge(task, _answer(answer)) is ok


def test_the_events_of_a_day_are_a_set() -> None:
    task = _task("calendar-events-between", 2)
    inside = task.params["titles"].split(", ")
    assert len(inside) >= 2
    assert _judge(task, _answer(" and ".join(reversed(inside))))
    assert not _judge(task, _answer(", ".join(inside[:-1])))  # one left out
    assert not _judge(task, _answer(", ".join([task.params["near"][0]["title"], *inside])))  # one too early


def _timer(h: str, m: str, s: str, start: bool = False) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        ui.d.open_app("clock")
        ui.tap(desc="Timer")
        for rid, text in (("hours", h), ("minutes", m), ("seconds", s)):
            ui.type_into(rid, text.format(**task.params))
        ui.tap("Set timer")
        if start:
            ui.tap("Start")

    return play


@pytest.mark.parametrize(("play", "ok"), [
    (_timer("{h}", "{m}", "{s}"), True), (_timer("0{h}", "{m}", "{s}"), True),
    (_timer("{h}", "{m}", "{s}", start=True), False), (_timer("{h}", "{s}", "{m}"), False),
])
def test_a_timer_entered_but_not_started(play: Play, ok: bool) -> None:
    task = _task("clock-timer-entry", 3)
    assert task.params["m"] != task.params["s"]
    assert _judge(task, play) is ok


def _select(rows: list[tuple[str, int]]) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        ui.d.open_app(task.apps[0])
        ui.tap("Select")
        for text, n in rows:
            _tap_nth(ui, text.format(**task.params), n)
        ui.tap("Delete")

    return play


@pytest.mark.parametrize(("extra", "ok"), [(False, True), (True, False)])
def test_deleting_several_expenses(extra: bool, ok: bool) -> None:
    task = _task("expenses-delete-several")
    rows = [("{targets[2][title]}", 0), ("{targets[0][title]}", 0), ("{targets[1][title]}", 0)]  # any order
    if extra:  # one expense too many
        other = next(i for i in task.params["items"] if i not in task.params["targets"])
        rows.append((other["title"], 0))
    assert _judge(task, _select(rows)) is ok


@pytest.mark.parametrize(("rows", "ok"), [
    ([("{dups[0][title]}", 0), ("{dups[1][title]}", 1)], True),  # the original of one, the copy of the other
    # both copies of one
    ([("{dups[0][title]}", 0), ("{dups[0][title]}", 1), ("{dups[1][title]}", 1)], False),
    ([("{dups[0][title]}", 1)], False),  # one duplicate left
])
def test_deleting_duplicate_expenses(rows: list[tuple[str, int]], ok: bool) -> None:
    assert _judge(_task("expenses-delete-duplicates"), _select(rows)) is ok


def test_deleting_recipes_by_an_ingredient_spares_the_others() -> None:
    task = _task("recipes-delete-with-ingredient")
    targets = [("{targets[0][name]}", 0), ("{targets[1][name]}", 0)]
    assert _judge(task, _select(targets))
    assert not _judge(task, _select([*targets, ("{base[0][name]}", 0)]))


def _send_clipboard(to: str, paste: bool) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        ui.d.open_app("messages")
        ui.tap(to.format(**task.params))
        field = ui.find(rid="message_input")
        x1, y1, x2, y2 = field.bounds
        if paste:
            ui.d.long_press((x1 + x2) // 2, (y1 + y2) // 2)
            ui.tap("Paste")
        else:
            ui.d.tap((x1 + x2) // 2, (y1 + y2) // 2)
            ui.d.type_text(task.params["text"])
        ui.tap("Send")

    return play


@pytest.mark.parametrize(("play", "ok"), [
    (_send_clipboard("{target[name]}", paste=True), True),
    (_send_clipboard("{target[name]}", paste=False), True),  # typed out: the same message
    (_send_clipboard("{threads[6][name]}", paste=True), False),  # to someone else
])
def test_sending_the_clipboard(play: Play, ok: bool) -> None:
    assert _judge(_task("messages-send-clipboard"), play) is ok


def _look(app: str, page: str, then: Callable[[Driver], Any] | None = None) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        ui.d.open_app(app)
        ui.tap(page)
        if then is not None:
            then(ui)

    return play


@pytest.mark.parametrize(("play", "ok"), [
    (lambda ui, task: None, False),  # doing nothing: it never looked
    (_look("settings", "Display"), True),
    (_look("settings", "Display", lambda ui: ui.tap("Max" if ui.has("0%") else "Min")), False),
])
def test_brightness_already_as_asked_passes_on_looking_only(play: Play, ok: bool) -> None:
    assert _judge(_task("settings-brightness-already"), play) is ok


def _add_then_call(by_keypad: bool) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        p = task.params
        ui.d.open_app("contacts")
        ui.tap(desc="New contact")
        ui.type_into("first_name", p["name"])
        ui.type_into("phone", p["phone"])
        ui.tap(desc="Save")
        ui.d.key("home")
        ui.d.open_app("dialer")
        if by_keypad:
            ui.tap(desc="Keypad")
            ui.type_into("digits", p["phone"].replace("-", ""), submit=True)
        else:
            ui.tap(desc="Contacts")
            ui.tap(p["name"])
            ui.tap("Call")

    return play


@pytest.mark.parametrize("by_keypad", [False, True])
def test_a_contact_added_in_contacts_is_called_from_phone(by_keypad: bool) -> None:
    assert _judge(_task("contacts-add-then-call"), _add_then_call(by_keypad))
