"""Notes edited in place on SimPhone: the edit screen starts with the note's text, typing adds at its end,
Clear text empties it, saving (or Back) replaces the note and lists it first, an emptied note is refused,
and Delete removes the note shown, not a namesake with other text."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice

NOTES = [
    {"title": "Trip", "body": "pack socks"},
    {"title": "Ideas", "body": "paint the fence"},
    {"title": "Trip", "body": "book the train"},
]


@pytest.fixture
def notes() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"notes.notes": NOTES}})
    ui.d.open_app("notes")
    return ui


def _edit(ui: Driver, body: str) -> None:
    ui.tap(body)
    ui.tap("Edit")
    assert ui.screen() == "change"


def test_the_edit_screen_starts_with_the_note_and_typing_adds_at_its_end(notes: Driver) -> None:
    _edit(notes, "paint the fence")
    assert notes.d.state()["foreground"]["fields"] == {"title": "Ideas", "body": "paint the fence"}
    notes.d.key("enter")
    notes.d.type_text("and the gate")
    notes.tap(desc="Save")
    assert notes.screen() == "list" and notes.has("Note saved")
    saved = notes.d.state()["notes"]["notes"]
    assert saved[-1] == {"title": "Ideas", "body": "paint the fence\nand the gate"}
    assert len(saved) == 3 and saved[:2] == [NOTES[0], NOTES[2]]


def test_clear_text_empties_the_body_and_back_saves_the_replacement(notes: Driver) -> None:
    _edit(notes, "book the train")
    notes.tap("Clear text")
    notes.d.type_text("take the bus")
    notes.d.key("back")
    notes.d.key("back")  # the keyboard first, then the screen
    replaced = {"title": "Trip", "body": "take the bus"}
    assert notes.d.state()["notes"]["notes"] == [NOTES[0], NOTES[1], replaced]


def test_a_note_emptied_of_title_and_text_is_not_saved(notes: Driver) -> None:
    _edit(notes, "pack socks")
    notes.tap("Clear text")
    notes.tap(rid="title")
    for _ in "Trip":
        notes.d.key("del")
    notes.tap(desc="Save")
    assert notes.has("Add a title or text") and notes.screen() == "change"
    assert notes.d.state()["notes"]["notes"] == NOTES


def test_delete_removes_the_note_shown_and_spares_its_namesake(notes: Driver) -> None:
    notes.tap("book the train")
    notes.tap("Delete")
    assert notes.screen() == "list" and notes.has("Note deleted")
    assert notes.d.state()["notes"]["notes"] == [NOTES[0], NOTES[1]]
