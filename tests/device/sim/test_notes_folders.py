"""Notes' folders and to-dos on SimPhone: a folder is created from the Notes screen (an empty or taken name
is refused), a note moves between folders keeping its to-do flag, a folder lists only its notes, a to-do
shows its checkbox, and editing a note in a folder keeps it there."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice

NOTES = [
    {"title": "Loose", "body": "no folder here"},
    {"title": "Plan", "body": "draft the plan", "folder": "Work"},
    {"title": "Call Ana", "body": "about the trip", "folder": "Work", "todo": True, "done": False},
    {"title": "Books", "body": "three to read", "folder": "Home"},
]


@pytest.fixture
def notes() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"notes.notes": NOTES, "notes.folders": ["Work", "Home"]}})
    ui.d.open_app("notes")
    return ui


def test_the_list_shows_folders_and_only_the_notes_in_no_folder(notes: Driver) -> None:
    assert notes.has("Work") and notes.has("Home") and notes.has("Loose")
    assert not notes.has("Plan") and not notes.has("Books")
    notes.tap("Work")
    assert notes.screen() == "folder" and notes.has("Plan") and notes.has("Call Ana")
    assert not notes.has("Books") and not notes.has("Loose")


def test_a_new_folder_is_created_and_a_taken_or_empty_name_refused(notes: Driver) -> None:
    notes.tap("New folder")
    notes.tap("Create")
    assert notes.has("Give the folder a name") and notes.d.state()["notes"]["folders"] == ["Work", "Home"]
    notes.d.type_text("Work")
    notes.tap("Create")
    assert notes.has("A folder named Work already exists")
    notes.tap(rid="folder_name")
    for _ in "Work":
        notes.d.key("del")
    notes.d.type_text("Trips")
    notes.tap("Create")
    assert notes.has("Folder created") and notes.d.state()["notes"]["folders"] == ["Work", "Home", "Trips"]


def test_a_todo_moves_to_another_folder_keeping_its_flag(notes: Driver) -> None:
    notes.tap("Work")
    notes.tap("Call Ana")
    assert notes.has("To-do, not done") and notes.has("Folder: Work")
    notes.tap("Move")
    assert notes.screen() == "move" and notes.has("Home") and notes.has("No folder")
    notes.tap("Home")
    assert notes.has("Moved to Home") and notes.screen() == "folder"
    moved = [n for n in notes.d.state()["notes"]["notes"] if n["title"] == "Call Ana"]
    assert moved == [{**NOTES[2], "folder": "Home"}]


def test_a_plain_note_shows_no_todo_and_editing_keeps_its_folder(notes: Driver) -> None:
    notes.tap("Home")
    notes.tap("Books")
    assert not notes.has("To-do, not done") and not notes.has("To-do, done")
    notes.tap("Edit")
    notes.d.type_text(" now")
    notes.tap(desc="Save")
    saved = notes.d.state()["notes"]["notes"]
    assert saved[-1] == {"title": "Books", "body": "three to read now", "folder": "Home"}
    assert notes.screen() == "folder" and notes.has("three to read now")
