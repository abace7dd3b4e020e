"""A `--realtime` SimPhone's clock follows the wall clock alone: a shell swipe of 300 ms moves it 300 ms
(the wall time the command blocks), not that plus the second of virtual time a simulated event costs.
The wall clock here is a stand-in the test moves, so nothing is timed."""

from __future__ import annotations

import pytest

from droidpilot.device.adbd import phone as adbd_phone
from droidpilot.device.adbd import tools_input
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.shell import run
from droidpilot.device.sim.phone import SimDevice


class WallClock:
    """``time.monotonic`` and ``time.sleep`` for the modules under test: sleeping moves the clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _phone(monkeypatch: pytest.MonkeyPatch, realtime: bool) -> tuple[Phone, SimDevice, WallClock]:
    clock = WallClock()
    monkeypatch.setattr(adbd_phone, "time", clock)
    monkeypatch.setattr(tools_input, "time", clock)
    sim = SimDevice()
    phone = Phone(serial="simphone-1", transport_id=1, device=sim, realtime=realtime)
    phone.catch_up()  # from here on the stand-in clock is the wall clock
    return phone, sim, clock


def _request(phone: Phone, line: str) -> None:
    """One `adb shell LINE` as the front serves it: the clock catches up first, the command runs."""
    phone.catch_up()
    assert run(phone, line).code == 0, line


@pytest.mark.parametrize(("command", "seconds"), [
    ("input swipe 540 1800 540 900 300", 0.3), ("input swipe 540 1800 540 900", 0.3),  # Android's default
    ("input swipe 540 1800 540 900 2000", 2.0), ("input draganddrop 300 900 300 1400 50", 0.4),
    ("input tap 540 1200", 0.0),
])
def test_a_realtime_clock_moves_by_the_wall_time_of_an_input_only(monkeypatch: pytest.MonkeyPatch,
                                                                   command: str, seconds: float) -> None:
    phone, sim, _ = _phone(monkeypatch, realtime=True)
    before = sim.virtual_time()
    _request(phone, command)
    _request(phone, "true")  # the next request passes the command's wall time to the phone
    assert sim.virtual_time() - before == pytest.approx(seconds)


def test_a_realtime_phone_clock_still_follows_time_between_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    phone, sim, clock = _phone(monkeypatch, realtime=True)
    before = sim.virtual_time()
    _request(phone, "input swipe 540 1800 540 900 300")
    clock.sleep(1.5)  # the agent thinks
    _request(phone, "true")
    assert sim.virtual_time() - before == pytest.approx(1.8)


@pytest.mark.parametrize(("command", "seconds"), [
    ("input swipe 540 1800 540 900 300", 1.0), ("input swipe 540 1800 540 900 2000", 2.0),
    ("input tap 540 1200", 1.0),
])
def test_without_realtime_each_input_keeps_its_virtual_time(monkeypatch: pytest.MonkeyPatch, command: str,
                                                            seconds: float) -> None:
    """Near miss: the deterministic clock is untouched, an event a second, a longer gesture its length."""
    phone, sim, clock = _phone(monkeypatch, realtime=False)
    before = sim.virtual_time()
    _request(phone, command)
    clock.sleep(5)  # the wall clock does not count
    _request(phone, "true")
    assert sim.virtual_time() - before == pytest.approx(seconds)
