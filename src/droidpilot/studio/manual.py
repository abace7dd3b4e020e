"""Manual operations from the page, as Mobile-Agent actions on device pixels.

A request names an operation and, for touches, a point on the displayed screen image plus that image's
size; ``agent.coords.view_to_device`` turns it into device pixels. Each operation becomes an ``Action``
with a direct ``Grounding`` so it is executed by the agent's own ``perform`` and can be recorded in the
same trace format as an agent's step. A click is executed at once as a tap; what a recording writes for
it is chosen by ``faithful`` (the words a replay grounds at that point of the screen it was made on).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from droidpilot.agent.actions import Action
from droidpilot.agent.coords import view_to_device
from droidpilot.agent.execute import perform
from droidpilot.agent.execute import trace_entries as agent_entries
from droidpilot.agent.grounding import Grounding
from droidpilot.device.base import Device
from droidpilot.studio.errors import StudioError
from droidpilot.studio.faithful import faithful_click

OPS = ("click", "long_press", "swipe", "type", "key", "open_app")
KEYS = {"back": "back", "home": "home", "enter": "enter", "recents": "recents"}
MAX_TEXT = 2000


@dataclass
class Manual:
    """One manual operation, resolved: the action, where it lands, and how the trace describes it."""

    action: Action
    grounding: Grounding
    click: bool = False  # a click on the screen, recorded in the words a replay grounds (``faithful``)

    def describe(self) -> dict[str, Any]:
        return {"action": self.action.to_dict(), "grounding": self.grounding.to_dict()}


def _number(op: dict[str, Any], key: str) -> float:
    value = op.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise StudioError(f"field {key!r} must be a finite number, got {value!r}")
    return float(value)


def _text(op: dict[str, Any], key: str) -> str:
    value = op.get(key)
    if not isinstance(value, str) or not value.strip():
        raise StudioError(f"field {key!r} must be a non-empty string")
    if len(value) > MAX_TEXT:
        raise StudioError(f"field {key!r} is longer than {MAX_TEXT} characters")
    return value


def _point(op: dict[str, Any], xk: str, yk: str, size: tuple[int, int]) -> tuple[int, int]:
    view = (_number(op, "view_w"), _number(op, "view_h"))
    try:
        return view_to_device(_number(op, xk), _number(op, yk), view, size)
    except StudioError:
        raise
    except Exception as exc:  # InputError from the conversion: say which point
        raise StudioError(f"{xk}/{yk}: {exc}") from None


def resolve(op: dict[str, Any], size: tuple[int, int]) -> Manual:
    """Turn a request into an Action with its Grounding (StudioError for a bad request)."""
    kind = op.get("op")
    if kind not in OPS:
        raise StudioError(f"unknown operation {kind!r}; use one of {', '.join(OPS)}")
    if kind in ("click", "long_press"):
        x, y = _point(op, "x", "y", size)
        if kind == "long_press":
            return Manual(Action("long_press", coords=(x, y)), Grounding("direct", point=(x, y)))
        return Manual(Action("tap", coords=(x, y)), Grounding("direct", point=(x, y)), click=True)
    if kind == "swipe":
        start, end = _point(op, "x", "y", size), _point(op, "x2", "y2", size)
        return Manual(Action("swipe", coords=(*start, *end)), Grounding("direct", point=start, end=end))
    if kind == "type":
        return Manual(Action("type", text=_text(op, "text")), Grounding("direct"))
    if kind == "key":
        key = op.get("key")
        if key not in KEYS:
            raise StudioError(f"unknown key {key!r}; use one of {', '.join(KEYS)}")
        return Manual(Action(KEYS[key]), Grounding("direct"))
    return Manual(Action("open_app", text=_text(op, "app").strip()), Grounding("direct"))


def faithful(manual: Manual, before: Image.Image, ocr_engine: Any | None) -> Manual:
    """The operation as a trace records it: a click in the words a replay grounds on ``before``."""
    if not manual.click or manual.grounding.point is None:
        return manual
    action, grounding = faithful_click(before, manual.grounding.point, ocr_engine)
    return Manual(action, grounding)


def execute(device: Device, manual: Manual) -> None:
    """Carry out the operation (DeviceError when the phone refuses)."""
    if manual.action.name == "open_app":  # by name, from any screen, as a person would ask for it
        device.open_app(manual.action.text or "")
    else:
        perform(device, manual.action, manual.grounding)


def trace_entries(manual: Manual) -> tuple[dict[str, Any], dict[str, Any]]:
    """(actions.json item, react.json function) for a manual operation, as the agent writes them."""
    if manual.action.name == "open_app":
        name = manual.action.text or ""
        return ({"type": "open_app", "app": name, "text": name, "status": "ok"},
                {"name": "open_app", "parameters": {"action": manual.action.format(), "app": name}})
    return agent_entries(manual.action, manual.grounding)
