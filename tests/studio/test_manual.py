"""Manual operations: requests become Mobile-Agent actions on device pixels, with clear errors."""

from __future__ import annotations

import pytest

from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.errors import StudioError
from droidpilot.studio.manual import execute, resolve

from .conftest import sim_label_center

VIEW = {"view_w": 540, "view_h": 1200}


def test_a_click_is_a_tap_at_once_and_its_words_are_chosen_later() -> None:
    phone = SimDevice()
    x, y = sim_label_center(phone.ui_xml(), "Settings")
    manual = resolve({"op": "click", "x": x / 2, "y": y / 2, **VIEW}, phone.size())
    assert manual.action.format() == f"tap ({x}, {y})" and manual.click  # the words come from ``faithful``
    execute(phone, manual)
    assert phone.current_app() == "com.android.settings"
    blank = resolve({"op": "click", "x": 500, "y": 1100, **VIEW}, phone.size())
    assert blank.action.format() == "tap (1000, 2200)" and blank.grounding.point == (1000, 2200)


def test_swipe_long_press_type_keys_and_apps() -> None:
    size = (1080, 2400)
    swipe = resolve({"op": "swipe", "x": 270, "y": 900, "x2": 270, "y2": 300, **VIEW}, size)
    assert swipe.action.format() == "swipe (540, 1800, 540, 600)" and swipe.grounding.end == (540, 600)
    press = resolve({"op": "long_press", "x": 10, "y": 10, **VIEW}, size)
    assert press.action.format() == "long press (20, 20)"
    assert resolve({"op": "type", "text": "a (b)"}, size).action.format() == "type (a (b))"
    assert resolve({"op": "key", "key": "recents"}, size).action.format() == "recents"
    assert resolve({"op": "open_app", "app": " Notes "}, size).action.format() == "open App (Notes)"


@pytest.mark.parametrize(("op", "message"), [
    ({"op": "click", "x": 10, **VIEW}, "field 'y' must be a finite number"),
    ({"op": "click", "x": True, "y": 1, **VIEW}, "field 'x' must be a finite number"),
    ({"op": "click", "x": 1, "y": 1200, **VIEW}, "outside the 540x1200 screen image"),
    ({"op": "swipe", "x": 1, "y": 1, "x2": -3, "y2": 5, **VIEW}, "x2/y2: point (-3, 5) is outside"),
    ({"op": "type", "text": ""}, "field 'text' must be a non-empty string"),
    ({"op": "type", "text": "x" * 2001}, "longer than 2000 characters"),
    ({"op": "open_app"}, "field 'app' must be a non-empty string"),
    ({"op": None}, "unknown operation None"),
])
def test_bad_operations_say_what_is_wrong(op: dict[str, object], message: str) -> None:
    with pytest.raises(StudioError, match=message.replace("(", r"\(").replace(")", r"\)")):
        resolve(op, (1080, 2400))
