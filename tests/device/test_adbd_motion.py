"""`input motionevent DOWN|MOVE|UP|CANCEL x y` from adbutils' shell makes one touch gesture across
commands, as on Android: a DOWN and UP in one place is a tap, or a long press when held for the long-press
timeout; one that moves past the touch slop is a swipe; CANCEL drops it. Bad arguments are a clear error
that touches nothing. The wall clock the gesture is timed by is a stand-in the test moves."""

from __future__ import annotations

from collections.abc import Iterator

import adbutils
import pytest
from tests.device.adbd_support import Front, node_center, running_front

from droidpilot.device.adbd import motion
from droidpilot.device.sim.phone import SimDevice


class Clock:
    """``time.monotonic`` for the motion module: only the test moves it."""

    def __init__(self) -> None:
        self.now = 50.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    with running_front(1) as f:
        yield f


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(motion, "time", fake)
    return fake


@pytest.fixture
def dev(front: Front, clock: Clock) -> adbutils.AdbDevice:
    phone = front.server.phones[0]
    with phone.lock:
        front.sims[0].reset()
        phone.touch = None
    return adbutils.AdbClient(port=front.port).device("simphone-1")


def _sim(front: Front) -> SimDevice:
    return front.sims[0]


def _motion(dev: adbutils.AdbDevice, *events: str) -> None:
    for event in events:
        res = dev.shell2(f"input motionevent {event}")
        assert (res.returncode, res.output) == (0, ""), (event, res.output)


def _expenses(front: Front, dev: adbutils.AdbDevice) -> tuple[int, int]:
    """Open Expenses (a tap on an expense opens it, a long press starts selecting); the first one's centre."""
    dev.shell("am start -n com.simphone.expenses/.MainActivity")
    return node_center(_sim(front).ui_xml(), "Coffee")


def _foreground(front: Front) -> dict[str, object]:
    return _sim(front).state()["foreground"]


@pytest.mark.parametrize("moves", [[], [(5, 5)], [(-10, 12), (3, -4)]])
def test_down_and_up_in_one_place_is_a_tap(front: Front, dev: adbutils.AdbDevice, clock: Clock,
                                           moves: list[tuple[int, int]]) -> None:
    x, y = _expenses(front, dev)
    _motion(dev, f"DOWN {x} {y}", *(f"MOVE {x + dx} {y + dy}" for dx, dy in moves))
    clock.now += 0.1
    last = moves[-1] if moves else (0, 0)
    _motion(dev, f"UP {x + last[0]} {y + last[1]}")
    assert _foreground(front)["screen"] == "view"  # within the touch slop: the expense opened


def test_a_touch_held_for_the_long_press_timeout_is_a_long_press(front: Front, dev: adbutils.AdbDevice,
                                                                 clock: Clock) -> None:
    x, y = _expenses(front, dev)
    _motion(dev, f"DOWN {x} {y}")
    clock.now += 0.5
    _motion(dev, f"MOVE {x + 3} {y}", f"UP {x + 3} {y}")
    shown = _foreground(front)
    assert shown["screen"] == "list" and shown["params"]["selecting"] is True, shown


def test_a_touch_lifted_just_before_the_timeout_is_still_a_tap(front: Front, dev: adbutils.AdbDevice,
                                                               clock: Clock) -> None:
    x, y = _expenses(front, dev)
    _motion(dev, f"down {x} {y}")  # Android takes the action in any case
    clock.now += (motion.LONG_PRESS_MS - 10) / 1000
    _motion(dev, f"Up {x} {y}")
    assert _foreground(front)["screen"] == "view"


def test_a_touch_that_moves_past_the_slop_is_a_swipe(front: Front, dev: adbutils.AdbDevice,
                                                     clock: Clock) -> None:
    dev.shell("am start -n com.android.settings/.MainActivity")
    x, y = node_center(_sim(front).ui_xml(), "Display")
    _motion(dev, f"DOWN {x} {y}")
    for step in (1, 2, 3):
        clock.now += 0.1
        _motion(dev, f"MOVE {x} {y - 100 * step}")
    clock.now += 0.1
    _motion(dev, f"UP {x} {y - 300}")
    assert _foreground(front)["screen"] == "main"  # not a tap on Display
    assert node_center(_sim(front).ui_xml(), "Display")[1] < y  # the list scrolled up under the finger


def test_cancel_drops_the_gesture_and_a_lone_move_or_up_touches_nothing(front: Front, dev: adbutils.AdbDevice,
                                                                       clock: Clock) -> None:
    x, y = _expenses(front, dev)
    before = _sim(front).virtual_time()
    _motion(dev, f"DOWN {x} {y}", f"CANCEL {x} {y}", f"UP {x} {y}", f"MOVE {x} {y}", f"UP {x} {y}")
    assert _foreground(front)["screen"] == "list" and not _foreground(front)["params"].get("selecting")
    assert _sim(front).virtual_time() == before  # no event reached the phone


def test_a_down_outside_the_display_is_dropped(front: Front, dev: adbutils.AdbDevice) -> None:
    x, y = _expenses(front, dev)
    _motion(dev, "DOWN 5000 10", f"MOVE {x} {y}", f"UP {x} {y}")
    assert _foreground(front)["screen"] == "list"


@pytest.mark.parametrize(("args", "why"), [
    ("", "expected an action and a point"), ("DOWN 5", "expected an action and a point"),
    ("TAP 100 100", "unknown action 'TAP'; use DOWN, MOVE, UP or CANCEL"),
    ("DOWN abc 100", "x 'abc' is not a number"), ("DOWN 100 1e999", "y '1e999' is not a finite number"),
    ("DOWN nan 100", "x 'nan' is not a finite number"), ("UP 100 100 7", "unexpected argument '7'"),
])
def test_bad_arguments_are_refused_and_touch_nothing(front: Front, dev: adbutils.AdbDevice, args: str,
                                                     why: str) -> None:
    x, y = _expenses(front, dev)
    _motion(dev, f"DOWN {x} {y}")
    before = _sim(front).virtual_time()
    res = dev.shell2(f"input motionevent {args}")
    assert res.returncode == 1
    assert f"Error: Invalid arguments for command: motionevent: {why}" in res.output
    assert "motionevent <DOWN|UP|MOVE|CANCEL> <x> <y>" in res.output  # the usage, as for swipe
    assert _sim(front).virtual_time() == before and _foreground(front)["screen"] == "list"
    _motion(dev, f"UP {x} {y}")  # the pointer is still down: the gesture goes on
    assert _foreground(front)["screen"] == "view"
