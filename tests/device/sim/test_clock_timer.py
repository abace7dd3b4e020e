"""Clock's timer and stopwatch: a timer is set on its wheels without starting, refuses what the wheels
cannot show, starts and pauses; the stopwatch starts, pauses and resets."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def clock() -> Driver:
    ui = Driver(SimDevice())
    ui.d.open_app("clock")
    return ui


def _set(ui: Driver, hours: str, minutes: str, seconds: str) -> None:
    ui.tap(desc="Timer")
    for rid, text in (("hours", hours), ("minutes", minutes), ("seconds", seconds)):
        if text:
            ui.type_into(rid, text)
    ui.tap("Set timer")


def test_a_timer_is_set_without_starting_and_then_starts_and_pauses(clock: Driver) -> None:
    _set(clock, "1", "5", "30")
    assert clock.d.state()["clock"]["timer"] == {"hours": "1", "minutes": "5", "seconds": "30",
                                                 "running": False}
    assert clock.has("1 h 5 min 30 s") and clock.has("Not started")
    clock.tap("Start")
    assert clock.d.state()["clock"]["timer"]["running"] is True and clock.has("Running")
    clock.tap("Pause")
    assert clock.d.state()["clock"]["timer"]["running"] is False


@pytest.mark.parametrize(("hours", "minutes", "seconds", "message"), [
    ("", "75", "", "Hours 0-99, minutes and seconds 0-59"),
    ("", "", "60", "Hours 0-99, minutes and seconds 0-59"),
    ("100", "", "", "Hours 0-99, minutes and seconds 0-59"),
    ("", "", "", "Set a length first"),
    ("0", "00", "0", "Set a length first"),
])
def test_the_timer_refuses_what_its_wheels_cannot_show(clock: Driver, hours: str, minutes: str, seconds: str,
                                                       message: str) -> None:
    _set(clock, hours, minutes, seconds)
    assert clock.has(message)
    assert clock.d.state()["clock"]["timer"] == {"hours": 0, "minutes": 0, "seconds": 0, "running": False}


def test_an_unset_timer_does_not_start(clock: Driver) -> None:
    clock.tap(desc="Timer")
    clock.tap("Start")
    assert clock.has("Set a length first") and clock.d.state()["clock"]["timer"]["running"] is False


def test_the_stopwatch_starts_pauses_and_resets(clock: Driver) -> None:
    clock.tap(desc="Stopwatch")
    assert clock.has("00:00.00") and not clock.has("Reset")
    clock.tap("Start")
    assert clock.d.state()["clock"]["stopwatch"] == {"running": True, "started": True}
    assert clock.has("Running")
    clock.tap("Pause")
    assert clock.d.state()["clock"]["stopwatch"] == {"running": False, "started": True}
    assert clock.has("Paused")
    clock.tap("Reset")
    assert clock.d.state()["clock"]["stopwatch"] == {"running": False, "started": False}


def test_alarms_keep_their_add_button_above_the_new_tabs(clock: Driver) -> None:
    clock.tap(desc="Add alarm")
    assert clock.d.state()["foreground"]["screen"] == "new"
