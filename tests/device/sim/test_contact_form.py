"""Contacts' new-contact form: first and last name, phone and a phone-label picker. The form's live
fields are in ``state()["foreground"]["fields"]`` until saved (what a task judged on an unsaved draft
reads); Save joins the names and keeps the label."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def ui() -> Driver:
    d = SimDevice()
    d.open_app("contacts")
    Driver(d).tap(desc="New contact")
    return Driver(d)


def _fill(ui: Driver, first: str, last: str, phone: str) -> None:
    ui.d.type_text(first)  # First name has the focus on entry
    ui.type_into("last_name", last)
    ui.type_into("phone", phone)


def test_draft_lives_in_the_form_not_in_contacts(ui: Driver) -> None:
    _fill(ui, "Mia", "Lopez", "555-301-2211")
    ui.d.key("back")  # keyboard away, the form stays
    ui.tap("Work")
    state = ui.d.state()
    assert state["foreground"]["screen"] == "new"
    fields = {"first": "Mia", "last": "Lopez", "phone": "555-301-2211", "label": "Work"}
    assert state["foreground"]["fields"] == fields
    assert "Name · Mia Lopez" in ui.texts() and "Label · Work" in ui.texts()
    assert [c["name"] for c in state["contacts"]["contacts"]] == ["Ava Smith", "Noah Brown"]


def test_label_picker_shows_one_choice(ui: Driver) -> None:
    ui.d.key("back")
    ui.tap("Home")
    ui.tap("Other")
    assert ui.d.state()["foreground"]["fields"]["label"] == "Other"


def test_save_joins_names_and_keeps_label(ui: Driver) -> None:
    _fill(ui, "Mia", "Lopez", "555-301-2211")
    ui.d.key("back")
    ui.tap("Home")
    ui.tap(desc="Save")
    added = ui.d.state()["contacts"]["contacts"][-1]
    assert (added["name"], added["phone"], added["label"]) == ("Mia Lopez", "555-301-2211", "Home")
    ui.tap("Mia Lopez")
    assert ui.has("Home")


def test_full_name_in_first_name_saves_whole_with_mobile(ui: Driver) -> None:
    ui.d.type_text("Paige Parker")
    ui.tap(desc="Save")
    added = ui.d.state()["contacts"]["contacts"][-1]
    assert (added["name"], added["label"]) == ("Paige Parker", "Mobile")


def test_no_name_is_refused(ui: Driver) -> None:
    ui.type_into("phone", "555-301-2211")
    ui.tap(desc="Save")
    assert len(ui.d.state()["contacts"]["contacts"]) == 2
    assert ui.screen() == "new"
