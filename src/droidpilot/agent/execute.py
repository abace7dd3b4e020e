"""Carry out a grounded action on a Device, and describe it in MobiFlow's trace vocabulary.

``perform`` makes the device calls (device pixels only); ``trace_entries`` gives the ``actions.json``
item (click / input / swipe / ... with positions and the target's bounds) and the ``react.json`` function.
"""

from __future__ import annotations

from typing import Any

from droidpilot.agent.actions import Action
from droidpilot.agent.grounding import Grounding
from droidpilot.device.base import Device

SWIPE_MS = 400
LONG_PRESS_MS = 800
DEFAULT_WAIT_S = 1.0

# Actions after which an unchanged screen is not a failure.
NO_CHANGE_EXPECTED = ("wait",)


def perform(device: Device, action: Action, grounding: Grounding) -> None:
    """Execute ``action`` at ``grounding``'s device-pixel point (raises DeviceError when refused)."""
    name = action.name
    if name in ("click_text", "click_icon", "open_app", "tap"):
        assert grounding.point is not None
        device.tap(*grounding.point)
    elif name == "long_press":
        assert grounding.point is not None
        device.long_press(*grounding.point, duration_ms=LONG_PRESS_MS)
    elif name in ("page_up", "page_down", "swipe"):
        assert grounding.point is not None and grounding.end is not None
        device.swipe(*grounding.point, *grounding.end, duration_ms=SWIPE_MS)
    elif name == "type":
        device.type_text(action.text or "")
    elif name == "back":
        device.key("back")
    elif name in ("exit", "home"):
        device.key("home")
    elif name == "enter":
        device.key("enter")
    elif name == "recents":  # the app switcher (recorded from people in the studio; not offered to models)
        device.key("app_switch")
    elif name == "wait":
        device.wait(action.seconds if action.seconds is not None else DEFAULT_WAIT_S)
    else:
        raise ValueError(f"action {name!r} is not performed on the device")


def _direction(start: tuple[int, int], end: tuple[int, int]) -> str:
    dx, dy = end[0] - start[0], end[1] - start[1]
    if abs(dy) >= abs(dx):
        return "up" if dy < 0 else "down"
    return "left" if dx < 0 else "right"


def trace_entries(action: Action, grounding: Grounding) -> tuple[dict[str, Any], dict[str, Any]]:
    """(actions.json item without ``action_index``, react.json ``function``) for an executed action."""
    name = action.name
    text = action.format()
    params: dict[str, Any] = {"action": text}
    if name in ("click_text", "click_icon", "open_app", "tap", "long_press"):
        assert grounding.point is not None
        x, y = grounding.point
        box = list(grounding.box) if grounding.box is not None else [x, y, x, y]
        target = action.text or action.description or grounding.target
        kind = "long_press" if name == "long_press" else "click"
        entry: dict[str, Any] = {"type": kind, "position_x": x, "position_y": y, "bounds": box,
                                 "text": target, "status": "ok"}
        if name == "open_app":
            entry["app"] = action.text
        params.update({"target_element": target, "x": x, "y": y, "bounds": box})
        return entry, {"name": kind, "parameters": params}
    if name in ("page_up", "page_down", "swipe"):
        assert grounding.point is not None and grounding.end is not None
        direction = _direction(grounding.point, grounding.end)
        entry = {"type": "swipe", "direction": direction,
                 "press_position_x": grounding.point[0], "press_position_y": grounding.point[1],
                 "release_position_x": grounding.end[0], "release_position_y": grounding.end[1],
                 "position_x": grounding.point[0], "position_y": grounding.point[1], "status": "ok"}
        params["direction"] = direction
        return entry, {"name": "swipe", "parameters": params}
    if name == "type":
        params["text"] = action.text
        return {"type": "input", "text": action.text, "status": "ok"}, {"name": "input", "parameters": params}
    if name == "wait":
        params["seconds"] = action.seconds if action.seconds is not None else DEFAULT_WAIT_S
        return {"type": "wait", "status": "ok"}, {"name": "wait", "parameters": params}
    key = {"back": "back", "exit": "home", "home": "home", "enter": "enter", "recents": "recents"}[name]
    return {"type": key, "status": "ok"}, {"name": key, "parameters": params}
