"""`input motionevent DOWN|MOVE|UP|CANCEL x y`: one touch gesture built from separate shell commands.

As on Android, the pointer goes down with DOWN, follows each MOVE and lifts with UP (CANCEL drops the
gesture); what the gesture does is decided when it lifts, the way the view system reads it: a touch that
never left the touch slop is a tap, or a long press when held for the long-press timeout (wall time
between DOWN and UP); one that left it is a swipe or drag from the DOWN point to the UP point over the
time held. A MOVE or UP with no pointer down, and a DOWN outside the display, touch nothing (Android drops
them too)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from droidpilot.device.adbd.phone import Phone

# Android's ViewConfiguration: DEFAULT_LONG_PRESS_TIMEOUT (400 ms since Android 12) and TOUCH_SLOP (8 dp,
# scaled by the 420 dpi density SimPhone reports): a touch held that long within the slop is a long press
LONG_PRESS_MS = 400
TOUCH_SLOP_PX = 8 * 420 / 160
ACTIONS = ("DOWN", "MOVE", "UP", "CANCEL")
USAGE = "motionevent <DOWN|UP|MOVE|CANCEL> <x> <y>"


class MotionArgsError(ValueError):
    """The arguments of `input motionevent` are not an action and a point; the message says which part."""


@dataclass
class Pointer:
    """The pointer held down between a DOWN and its UP (display coordinates, wall-clock seconds)."""

    x: float
    y: float
    down_at: float
    last: tuple[float, float]
    moved: bool = False  # it has left the touch slop around the DOWN point


def parse(args: list[str]) -> tuple[str, float, float]:
    """(action, x, y) of the arguments after `motionevent`; MotionArgsError naming what is wrong."""
    if len(args) < 3:
        raise MotionArgsError(f"expected an action and a point ({USAGE}); got {len(args)} argument(s)")
    if len(args) > 3:
        raise MotionArgsError(f"unexpected argument {args[3][:40]!r} after the point ({USAGE})")
    action = args[0].upper()
    if action not in ACTIONS:
        raise MotionArgsError(f"unknown action {args[0][:40]!r}; use DOWN, MOVE, UP or CANCEL")
    point = []
    for name, text in zip(("x", "y"), args[1:], strict=True):
        try:
            value = float(text)
        except ValueError:
            raise MotionArgsError(f"{name} {text[:40]!r} is not a number") from None
        if not math.isfinite(value):
            raise MotionArgsError(f"{name} {text[:40]!r} is not a finite number")
        point.append(value)
    return action, point[0], point[1]


def motionevent(phone: Phone, args: list[str]) -> None:
    """Carry one motion event to the phone (the caller holds ``phone.lock``); MotionArgsError for bad
    arguments, before anything is touched. The device acts when the gesture lifts."""
    action, x, y = parse(args)
    now = time.monotonic()
    pointer: Pointer | None = phone.touch
    if action == "DOWN":
        w, h = phone.display_size()
        phone.touch = Pointer(x, y, now, (x, y)) if 0 <= x < w and 0 <= y < h else None
        return
    if pointer is None:
        return
    pointer.last = (x, y)
    if abs(x - pointer.x) > TOUCH_SLOP_PX or abs(y - pointer.y) > TOUCH_SLOP_PX:
        pointer.moved = True
    if action == "MOVE":
        return
    phone.touch = None
    if action == "UP":
        _lift(phone, pointer, round((now - pointer.down_at) * 1000))


def _lift(phone: Phone, pointer: Pointer, held_ms: int) -> None:
    dev = phone.device
    a, b = phone.to_device(pointer.x, pointer.y)
    if not pointer.moved:
        if held_ms >= LONG_PRESS_MS:
            dev.long_press(a, b, held_ms)
        else:
            dev.tap(a, b)
        return
    w, h = phone.display_size()
    end_x, end_y = min(max(pointer.last[0], 0), w - 1), min(max(pointer.last[1], 0), h - 1)
    c, d = phone.to_device(end_x, end_y)
    dev.swipe(a, b, c, d, max(held_ms, 1))
