"""Task-instance setup on SimPhone: the covering keyboard distractor (the window does not make room for
the keyboard, so a form's bottom-pinned button lies under it until the keyboard is put away)."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.phone import SimDevice


def _transfer_form(setup: dict) -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup(setup)
    ui.d.open_app("bank")
    ui.tap("Send money")
    ui.d.type_text("Bo Li")
    ui.tap("Amount")
    ui.d.type_text("25")
    return ui


def test_the_covering_keyboard_hides_the_button_until_dismissed() -> None:
    ui = _transfer_form({"keyboard": [{"app": "bank"}]})
    ui.tap("Review")  # under the keyboard: the tap lands on a key
    state = ui.d.state()["foreground"]
    assert state["screen"] == "transfer" and state["fields"]["amount"] != "25"
    ui.d.key("back")  # the keyboard goes away, the form stays
    assert ui.d.state()["foreground"]["screen"] == "transfer"
    ui.tap("Review")
    assert ui.d.state()["foreground"]["screen"] == "confirm"


def test_without_it_the_button_sits_above_the_keyboard() -> None:
    ui = _transfer_form({})
    ui.tap("Review")
    assert ui.d.state()["foreground"]["screen"] == "confirm"


def test_keyboard_setup_names_an_unknown_app() -> None:
    with pytest.raises(DeviceError, match=r"setup.keyboard\[0\]: 'nope' is not an app"):
        SimDevice().apply_setup({"keyboard": [{"app": "nope"}]})
