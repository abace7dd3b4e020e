"""Argument checks of the uiautomator server, with the limits of the Java server it stands in for.

Every number a method receives is one Java can hold (``rpc`` checks that); key codes are
Android's (``KeyEvent.getMaxKeyCode()`` of SimPhone's Android 14), meta states combinations of the
``KeyEvent.META_*`` flags, a screenshot's scale in (0, 1] (it scales the screen down) and its JPEG
quality 0-100 (``Bitmap.compress``). Each failure is an IllegalArgumentException naming the argument,
the value and the range.
"""

from __future__ import annotations

import math
from typing import Any

from droidpilot.device.u2.rpc import RpcError, java_error

JAVA_INT = (-(2**31), 2**31 - 1)
MAX_KEYCODE = 316  # KEYCODE_MACRO_4, the last key code of Android 14 (SDK 34)
META_FLAGS = {  # KeyEvent.META_*
    "SHIFT_ON": 0x1, "ALT_ON": 0x2, "SYM_ON": 0x4, "FUNCTION_ON": 0x8, "ALT_LEFT_ON": 0x10,
    "ALT_RIGHT_ON": 0x20, "SHIFT_LEFT_ON": 0x40, "SHIFT_RIGHT_ON": 0x80, "CTRL_ON": 0x1000,
    "CTRL_LEFT_ON": 0x2000, "CTRL_RIGHT_ON": 0x4000, "META_ON": 0x10000, "META_LEFT_ON": 0x20000,
    "META_RIGHT_ON": 0x40000, "CAPS_LOCK_ON": 0x100000, "NUM_LOCK_ON": 0x200000, "SCROLL_LOCK_ON": 0x400000,
}
META_MASK = sum(META_FLAGS.values())


def bad(detail: str) -> RpcError:
    """The IllegalArgumentException the server answers for a bad argument."""
    return java_error("java.lang.IllegalArgumentException", detail)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "..."


def java_int(value: Any, name: str, low: int = JAVA_INT[0], high: int = JAVA_INT[1]) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (a float only when it is whole)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(f"{name} must be a whole number from {low} to {high}, got {_shown(value)}")
    return value


def number(value: Any, name: str) -> float:
    """``value`` as a finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise bad(f"{name} must be a finite number, got {_shown(value)}")
    return float(value)


def key_code(value: Any) -> int:
    """An Android key code, 0 (KEYCODE_UNKNOWN) to MAX_KEYCODE."""
    return java_int(value, "keyCode", 0, MAX_KEYCODE)


def meta_state(value: Any) -> int:
    """A key event's meta state: KeyEvent.META_* flags or-ed together."""
    meta = java_int(value, "metaState", 0, JAVA_INT[1])
    if meta & ~META_MASK:
        raise bad(f"metaState {meta:#x} has bits {meta & ~META_MASK:#x} that are no KeyEvent.META_* flag "
                  f"(the flags make up {META_MASK:#x})")
    return meta


def screenshot_scale(value: Any) -> float:
    """The scale of a screenshot: more than 0, at most 1 (the screen is only scaled down)."""
    scale = number(value, "scale")
    if not 0 < scale <= 1:
        raise bad(f"scale must be more than 0 and at most 1 (1: the screen's own size), got {_shown(value)}")
    return scale


def jpeg_quality(value: Any) -> int:
    """A JPEG quality, 0 to 100 as Bitmap.compress takes it."""
    return java_int(value, "quality", 0, 100)


MAX_GESTURE_S = 60.0  # the longest gesture SimPhone's server performs (UiAutomator would block longer)


def gesture_steps(value: Any, segments: int = 1, name: str = "steps") -> int:
    """Gesture steps (5 ms each, per segment): fewer than 1 counts as 1, as UiDevice.swipe does; a gesture
    longer than MAX_GESTURE_S is refused rather than blocking the server for hours."""
    steps = max(1, java_int(value, name))
    if steps * segments * 0.005 > MAX_GESTURE_S:
        raise bad(f"{name}={steps} makes a gesture of {steps * segments * 0.005:.0f} s; SimPhone's server "
                  f"performs gestures of up to {MAX_GESTURE_S:.0f} s ({int(MAX_GESTURE_S / 0.005)} steps)")
    return steps


def hold_ms(value: Any, name: str = "duration") -> int:
    """How long a touch is held, in ms: 0 to MAX_GESTURE_S."""
    return java_int(value, name, 0, int(MAX_GESTURE_S * 1000))
