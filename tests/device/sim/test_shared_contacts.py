"""The shared contacts provider: a person saved in Contacts is listed by Phone and suggested by Messages."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


def test_a_contact_saved_in_contacts_is_known_to_phone_and_messages() -> None:
    ui = Driver(SimDevice())
    ui.d.open_app("contacts")
    ui.tap(desc="New contact")
    ui.type_into("first_name", "Zara Quinn")  # a full name in First name saves whole
    ui.type_into("phone", "555-777-1234")
    ui.tap(desc="Save")
    ui.d.key("home")
    ui.d.open_app("dialer")
    ui.tap(desc="Contacts")
    assert ui.has("3 contacts") and ui.has("Zara Quinn")
    ui.tap("Zara Quinn")
    ui.tap("Call")
    assert ui.d.state()["dialer"]["calls"][-1]["number"] == "555-777-1234"
    ui.d.key("home")
    ui.d.open_app("messages")
    ui.tap(desc="Start chat")
    ui.d.type_text("zar")
    assert ui.has("Zara Quinn") and ui.has("555-777-1234")
    ui.tap("Zara Quinn")
    ui.d.type_text("Hi")
    ui.tap("Send")
    assert ui.d.state()["messages"]["sent"][-1] == {"to": "Zara Quinn", "text": "Hi"}


def test_messages_suggests_only_matching_people_and_none_for_an_empty_to() -> None:
    ui = Driver(SimDevice())
    ui.d.open_app("messages")
    ui.tap(desc="Start chat")
    assert not ui.has("Ava Smith")
    ui.d.type_text("Noa")
    assert ui.has("Noah Brown") and not ui.has("Ava Smith")


def test_phone_has_no_contacts_of_its_own_left() -> None:
    phone = SimDevice()
    assert "contacts" not in phone.state()["dialer"]
