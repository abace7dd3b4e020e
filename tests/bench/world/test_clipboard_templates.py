"""The clipboard templates' long presses are points on a 1080x2400 phone (the reference grammar has no
long press on a text): each must still lie on the field or bubble it stands for, so a layout change that
moves one fails here rather than in a benchmark run."""

from __future__ import annotations

import re

import pytest
from tests.device.sim_driver import Driver

from droidpilot.bench.suite import load_suite
from droidpilot.device.sim.phone import SimDevice

POINT = re.compile(r"long press \((\d+), (\d+)\)")


def _points(template: str) -> list[tuple[int, int]]:
    task = load_suite("world", seed=0, templates=template).tasks[0]
    return [(int(m[1]), int(m[2])) for op in task.reference if (m := POINT.fullmatch(op.action))]


def _on_field(ui: Driver, point: tuple[int, int], field: str) -> bool:
    """Whether a touch at ``point`` lands on text field ``field`` (its touch area, wider than its text)."""
    return any(n.tap is not None and n.tap.kind == "focus" and n.tap.arg == field and n.contains(*point)
               for n in ui.d.view().targets)


def _on_text(ui: Driver, point: tuple[int, int], text: str) -> bool:
    x1, y1, x2, y2 = ui.find(text).bounds
    return x1 <= point[0] <= x2 and y1 <= point[1] <= y2


@pytest.fixture
def ui() -> Driver:
    return Driver(SimDevice())  # the benchmark's phone size, 1080x2400


def test_messages_field_and_first_bubble(ui: Driver) -> None:
    send, to_note = _points("messages-send-clipboard"), _points("clipboard-message-to-note")
    ui.d.open_app("messages")
    ui.tap("Ava Smith")
    assert _on_field(ui, send[0], "message")
    assert _on_text(ui, to_note[0], "See you at 6?")


def test_a_new_notes_body(ui: Driver) -> None:
    body = _points("notes-from-clipboard")[0]
    assert body == _points("clipboard-message-to-note")[1]
    ui.d.open_app("notes")
    ui.tap(desc="New note")
    assert _on_field(ui, body, "body")


def test_contacts_search_field(ui: Driver) -> None:
    ui.d.open_app("contacts")
    ui.tap("Search contacts")
    assert _on_field(ui, _points("system-copy-text")[0], "q")
    assert not _on_field(ui, (330, 600), "q")  # a point below the field is not on it
