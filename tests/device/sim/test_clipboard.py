"""The clipboard all SimPhone apps share: long press a text field or a message bubble for Copy / Paste,
copy in one app and paste in another; the menu closes with Back or a touch outside and stays above the
keyboard; a setup may fill the clipboard."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


def _hold(ui: Driver, text: str | None = None, rid: str | None = None) -> None:
    x1, y1, x2, y2 = ui.find(text, rid=rid).bounds
    ui.d.long_press((x1 + x2) // 2, (y1 + y2) // 2)


@pytest.fixture
def chat() -> Driver:
    ui = Driver(SimDevice())
    ui.d.open_app("messages")
    ui.tap("Ava Smith")
    return ui


def test_copy_a_bubble_in_messages_and_paste_it_in_a_note(chat: Driver) -> None:
    _hold(chat, "See you at 6?")
    assert chat.has("Copy") and not chat.has("Paste")
    chat.tap("Copy")
    assert chat.d.state()["system"]["clipboard"] == "See you at 6?" and not chat.has("Copy")
    chat.d.key("home")
    chat.d.open_app("notes")
    chat.tap(desc="New note")
    _hold(chat, rid="title")
    chat.tap("Paste")
    assert chat.d.state()["foreground"]["fields"]["title"] == "See you at 6?"


def test_paste_in_a_field_then_send(chat: Driver) -> None:
    chat.d.apply_setup({"clipboard": "Running late"})
    _hold(chat, rid="message_input")
    assert chat.has("Paste") and not chat.has("Copy")  # the field is empty: nothing to copy
    chat.tap("Paste")  # the menu lies above the keyboard, so the tap is not a key
    chat.tap("Send")
    assert chat.d.state()["messages"]["sent"] == [{"to": "Ava Smith", "text": "Running late"}]


def test_an_empty_field_with_an_empty_clipboard_opens_no_menu(chat: Driver) -> None:
    _hold(chat, rid="message_input")
    assert not chat.has("Paste") and not chat.has("Copy") and "text_actions" not in chat.d.ui_xml()


def test_back_or_a_touch_outside_closes_the_menu_and_copies_nothing(chat: Driver) -> None:
    _hold(chat, "See you at 6?")
    chat.d.key("back")
    assert not chat.has("Copy") and chat.d.state()["foreground"]["screen"] == "thread"
    _hold(chat, "See you at 6?")
    chat.d.tap(540, 1400)
    assert not chat.has("Copy") and chat.d.state()["system"]["clipboard"] == ""


def test_a_long_press_on_plain_text_copies_nothing(chat: Driver) -> None:
    _hold(chat, "Ava Smith")  # the title: not a message
    assert not chat.has("Copy")


def test_the_clipboard_is_the_phones_not_an_apps_and_reset_clears_it(chat: Driver) -> None:
    _hold(chat, "See you at 6?")
    chat.tap("Copy")
    chat.d.key("home")
    chat.d.open_app("contacts")
    chat.tap("Search contacts")
    _hold(chat, rid="search")
    chat.tap("Paste")
    assert chat.d.state()["foreground"]["fields"]["q"] == "See you at 6?"
    chat.d.reset()
    assert chat.d.state()["system"]["clipboard"] == ""
