"""Judging of the Messages, Contacts-draft and Maps templates on real SimPhone state: each instance is set
up on a SimPhone, played by an XML-reading driver, and judged by its oracle with its declared side effects
as a run is. Near misses: the second most recent thread, a changed or older resend, a wrong house number,
a draft saved or closed or its label left, a favourite with a marker besides, waypoints reversed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.bench.world.played import judge_played as _judge
from tests.bench.world.played import world_task as _task
from tests.device.sim_driver import Driver

from droidpilot.bench.suite import BenchTask

Play = Callable[[Driver, BenchTask], None]






def _send_in_thread(row: int | str, text: str) -> Play:
    """Open a conversation (the n-th row of the list, or the one named) and send ``text`` in it."""
    def play(ui: Driver, task: BenchTask) -> None:
        ui.d.open_app("messages")
        if isinstance(row, int):
            rows = [e for e in ui.elements() if e.resource_id.endswith("thread_item")]
            x1, y1, x2, y2 = rows[row].bounds
            ui.d.tap((x1 + x2) // 2, (y1 + y2) // 2)
        else:
            while not ui.has(row.format(**task.params)):
                ui.d.key("page_down")
            ui.tap(row.format(**task.params))
        ui.type_into("message_input", text.format(**task.params))
        ui.tap("Send")

    return play


@pytest.mark.parametrize(("row", "ok"), [(0, True), (1, False)])
def test_reply_recent_is_the_top_row_not_the_next(row: int, ok: bool) -> None:
    task = _task("messages-reply-recent", seed=3)
    assert _judge(task, _send_in_thread(row, "{text}")) is ok


@pytest.mark.parametrize(("text", "ok"), [("{text}", True), ("{text}.", True), ("{text} again", False),
                                          ("{older}", False)])
def test_resend_is_the_same_text(text: str, ok: bool) -> None:
    task = _task("messages-resend", seed=4)
    assert _judge(task, _send_in_thread("{target[name]}", text)) is ok


@pytest.mark.parametrize(("text", "ok"), [
    ("{address}", True),
    ("{HOUSE} {STREET}, {CITY}", True),  # the address in capitals
    ("{house}  {street} , {city}", True),
    ("{house}0 {street}, {city}", False),  # a house number misread
    ("{street}, {city}", False),  # the number left out
])
def test_forwarded_address_is_read_as_a_place(text: str, ok: bool) -> None:
    task = _task("messages-forward-address", seed=5)
    if "{HOUSE}" in text:
        text = "{house} " + f"{task.params['street']}, {task.params['city']}".upper()
    assert _judge(task, _send_in_thread("{friend[name]}", text)) is ok


def test_forwarding_to_the_sender_fails() -> None:
    task = _task("messages-forward-address", seed=5)
    assert _judge(task, _send_in_thread("{sender}", "{address}")) is False


def _draft(label: bool = True, then: Callable[[Driver], None] | None = None) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        p = task.params
        ui.d.open_app("contacts")
        ui.tap(desc="New contact")
        ui.type_into("first_name", p["first"])
        ui.type_into("last_name", p["last"])
        ui.type_into("phone", p["phone"])
        ui.d.key("back")
        if label:
            ui.tap(p["label"])
        if then is not None:
            then(ui)

    return play


@pytest.mark.parametrize(("play", "ok"), [
    (_draft(), True),
    (_draft(label=False), False),
    (_draft(then=lambda ui: ui.tap(desc="Save")), False),  # saved, though told not to
    (_draft(then=lambda ui: ui.d.key("back")), False),  # the form closed: the draft is gone
    (_draft(then=lambda ui: ui.d.key("home")), False),  # the form no longer shown
])
def test_contact_draft_is_judged_on_the_open_form(play: Play, ok: bool) -> None:
    assert _judge(_task("contacts-draft", seed=1), play) is ok


def _place(*buttons: str) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        p = task.params["p"]
        ui.d.open_app("maps")
        ui.type_into("search_box", p["q"], submit=True)
        ui.tap(p["name"])
        for text in buttons:
            ui.tap(text)

    return play


@pytest.mark.parametrize(("template", "buttons", "ok"), [
    ("maps-favorite", ["Save"], True),
    ("maps-favorite", ["Marker"], False),
    ("maps-favorite", ["Save", "Marker"], False),
    ("maps-favorite", ["Save", "Saved"], False),
    ("maps-marker", ["Marker"], True),
    ("maps-marker", ["Save", "Marker"], False),
])
def test_favourite_and_marker_are_told_apart(template: str, buttons: list[str], ok: bool) -> None:
    assert _judge(_task(template, seed=2), _place(*buttons)) is ok


def _track(*order: str, saves: int = 1) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        ui.d.open_app("maps")
        ui.tap("Tracks")
        for _ in range(saves):
            ui.tap(desc="New track")
            for key in order:
                point = task.params[key]
                ui.type_into("waypoint_search", point["q"])
                ui.tap(point["name"])
            ui.tap("Save track")

    return play


@pytest.mark.parametrize(("play", "ok"), [
    (_track("a", "b"), True),
    (_track("b", "a"), False),
    (_track("a"), False),
    (_track("a", "b", "a"), False),
    (_track("a", "b", saves=2), False),
])
def test_track_waypoints_in_order(play: Play, ok: bool) -> None:
    assert _judge(_task("maps-track", seed=0), play) is ok
