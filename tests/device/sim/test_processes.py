"""SimPhone's app processes: each start of an app's process has its own number, so a relaunch after the
process ended is told apart from one that kept running, however the process ended."""

from __future__ import annotations

from droidpilot.device.sim.phone import SimDevice

SETTINGS = "com.android.settings"


def _start(phone: SimDevice) -> int:
    return phone.running_apps()[SETTINGS]


def test_a_running_app_keeps_its_start_and_a_relaunch_after_it_ended_gets_a_new_one() -> None:
    phone = SimDevice()
    phone.open_app("Settings")
    first = _start(phone)
    phone.key("home")
    phone.open_app("Settings")
    assert _start(phone) == first  # resumed from Recents: the same process
    phone.stop_app("Settings")
    assert SETTINGS not in phone.running_apps()
    phone.open_app("Settings")
    assert _start(phone) > first


def test_backing_out_of_the_app_ends_its_process() -> None:
    phone = SimDevice()
    phone.open_app("Settings")
    first = _start(phone)
    phone.key("back")
    assert phone.current_app() == "com.simphone.launcher" and SETTINGS not in phone.running_apps()
    phone.open_app("Settings")
    assert _start(phone) > first


def test_killing_in_the_background_ends_the_process_and_keeps_the_task() -> None:
    phone = SimDevice()
    phone.open_app("Settings")
    first = _start(phone)
    assert phone.kill_background("Settings") is False  # in front: not killed
    assert _start(phone) == first
    phone.key("home")
    assert phone.kill_background(SETTINGS) is True
    assert SETTINGS not in phone.running_apps() and phone.state()["system"]["recents"] == ["settings"]
    assert phone.kill_background(SETTINGS) is False  # nothing left to kill
    phone.open_app("Settings")
    assert _start(phone) > first


def test_start_numbers_are_not_reused_after_a_reset() -> None:
    phone = SimDevice()
    phone.open_app("Settings")
    first = _start(phone)
    phone.reset()
    assert phone.running_apps() == {}
    phone.open_app("Settings")
    assert _start(phone) > first
