"""`input swipe` and `input draganddrop` from adbutils' shell take their duration in wall time, as the
shell command on a phone does while it injects the gesture; a long still swipe is a long press; a bad
duration is a clear error that touches nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator

import adbutils
import pytest
from tests.device.adbd_support import Front, node_center, running_front

from droidpilot.device.adbd.tools_input import DEFAULT_SWIPE_MS, MAX_GESTURE_MS

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    with running_front(1) as f:
        yield f


@pytest.fixture
def dev(front: Front) -> adbutils.AdbDevice:
    with front.server.phones[0].lock:
        front.sims[0].reset()
    return adbutils.AdbClient(port=front.port).device("simphone-1")


def _timed(dev: adbutils.AdbDevice, cmd: str) -> tuple[float, adbutils.ShellReturn]:
    started = time.monotonic()
    res = dev.shell2(cmd)
    return time.monotonic() - started, res


def _settings(front: Front, dev: adbutils.AdbDevice) -> tuple[int, int]:
    """Open Settings; the centre of its Display row."""
    dev.shell("am start -n com.android.settings/.MainActivity")
    return node_center(front.sims[0].ui_xml(), "Display")


def test_swipe_blocks_for_its_duration(dev: adbutils.AdbDevice) -> None:
    took, res = _timed(dev, "input swipe 540 1800 540 900 700")
    assert res.returncode == 0 and res.output == ""
    assert took >= 0.7
    took, res = _timed(dev, "input touchscreen swipe 540 1800 540 900")  # no duration: Android's 300 ms
    assert res.returncode == 0 and took >= DEFAULT_SWIPE_MS / 1000


def test_draganddrop_holds_the_long_press_timeout_first(dev: adbutils.AdbDevice) -> None:
    took, res = _timed(dev, "input draganddrop 300 900 300 1400 50")
    assert res.returncode == 0 and took >= 0.4  # ViewConfiguration's long-press timeout, then the move
    took, res = _timed(dev, "input draganddrop 300 900 300 1400 900")
    assert res.returncode == 0 and took >= 0.9


def test_long_still_swipe_is_a_long_press_and_a_short_one_a_tap(front: Front,
                                                                dev: adbutils.AdbDevice) -> None:
    sim = front.sims[0]
    x, y = _settings(front, dev)
    dev.shell(f"input swipe {x} {y} {x + 10} {y + 5} 600")  # within the touch slop, held: a long press
    assert sim.state()["foreground"]["screen"] == "main"  # the row has no long-press action
    dev.shell(f"input swipe {x} {y} {x} {y} 150")  # still but short: a tap opens the row
    assert sim.state()["foreground"]["screen"] != "main"


def test_a_long_swipe_that_moves_is_a_scroll_not_a_long_press(front: Front, dev: adbutils.AdbDevice) -> None:
    sim = front.sims[0]
    x, y = _settings(front, dev)
    dev.shell(f"input swipe {x} {y} {x} {y - 200} 800")  # held as long, but beyond the touch slop
    assert sim.state()["foreground"]["screen"] == "main"
    assert node_center(sim.ui_xml(), "Display")[1] < y  # the list scrolled up under the finger


@pytest.mark.parametrize(("duration", "why"), [
    ("-5", "is negative"), ("abc", "is not a whole number"), ("1.5", "is not a whole number"),
    ("0x10", "is not a whole number"), (str(MAX_GESTURE_MS + 1), f"is over SimPhone's {MAX_GESTURE_MS} ms"),
])
def test_a_bad_duration_is_refused_and_touches_nothing(front: Front, dev: adbutils.AdbDevice, duration: str,
                                                        why: str) -> None:
    sim = front.sims[0]
    before = sim.state()["system"]["time"]
    for cmd in ("swipe", "draganddrop"):
        res = dev.shell2(f"input {cmd} 540 1800 540 900 {duration}")
        assert res.returncode == 1
        assert f"Error: Invalid arguments for command: {cmd}: duration {duration!r} {why}" in res.output
    assert sim.state()["system"]["time"] == before


def test_zero_and_a_signed_whole_number_are_durations(dev: adbutils.AdbDevice) -> None:
    assert dev.shell2("input swipe 540 1800 540 900 0").returncode == 0
    took, res = _timed(dev, "input swipe 540 1800 540 900 +250")  # Integer.parseInt takes a sign
    assert res.returncode == 0 and took >= 0.25
