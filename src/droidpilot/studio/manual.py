"""Manual operations from the page, as Mobile-Agent actions on device pixels.

A request names an operation and, for touches, a point on the displayed screen image plus that image's
size; ``agent.coords.view_to_device`` turns it into device pixels. Each operation becomes an ``Action``
with a direct ``Grounding`` so it is executed by the agent's own ``perform`` and can be recorded in the
same trace format as an agent's step. A click on a label that appears once on screen is written as
``click text (LABEL)``, which replays by OCR; any other click as ``tap (x, y)``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from droidpilot.agent.actions import Action
from droidpilot.agent.coords import view_to_device
from droidpilot.agent.execute import perform
from droidpilot.agent.execute import trace_entries as agent_entries
from droidpilot.agent.grounding import Grounding
from droidpilot.device.base import Device
from droidpilot.studio.errors import StudioError

OPS = ("click", "long_press", "swipe", "type", "key", "open_app")
KEYS = {"back": "back", "home": "home", "enter": "enter", "recents": "recents"}
MAX_TEXT = 2000


@dataclass
class Manual:
    """One manual operation, resolved: the action, where it lands, and how the trace describes it."""

    action: Action
    grounding: Grounding

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


def _nodes(xml: str | None) -> list[tuple[str, tuple[int, int, int, int]]]:
    """(label, bounds) of every labelled node of a uiautomator dump (empty when there is none)."""
    if not xml:
        return []
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return []
    out = []
    for node in root.iter("node"):
        label = (node.get("text") or node.get("content-desc") or "").strip()
        bounds = node.get("bounds", "")
        try:
            a, b = bounds.strip("[]").split("][")
            x1, y1 = (int(v) for v in a.split(","))
            x2, y2 = (int(v) for v in b.split(","))
        except ValueError:
            continue
        if label:
            out.append((label, (x1, y1, x2, y2)))
    return out


def label_at(xml: str | None, x: int, y: int) -> tuple[str, tuple[int, int, int, int]] | None:
    """The label of the smallest labelled node under (x, y), if that label appears once on the screen."""
    nodes = _nodes(xml)
    under = [(label, box) for label, box in nodes if box[0] <= x < box[2] and box[1] <= y < box[3]]
    if not under:
        return None
    label, box = min(under, key=lambda n: (n[1][2] - n[1][0]) * (n[1][3] - n[1][1]))
    same = sum(1 for other, _ in nodes if other.casefold() == label.casefold())
    if same != 1 or "(" in label or ")" in label or "\n" in label:
        return None
    return label, box


def resolve(op: dict[str, Any], size: tuple[int, int], xml: str | None) -> Manual:
    """Turn a request into an Action with its Grounding (StudioError for a bad request)."""
    kind = op.get("op")
    if kind not in OPS:
        raise StudioError(f"unknown operation {kind!r}; use one of {', '.join(OPS)}")
    if kind in ("click", "long_press"):
        x, y = _point(op, "x", "y", size)
        if kind == "long_press":
            return Manual(Action("long_press", coords=(x, y)), Grounding("direct", point=(x, y)))
        found = label_at(xml, x, y)
        if found:
            return Manual(Action("click_text", text=found[0]),
                          Grounding("direct", point=(x, y), box=found[1], target=found[0]))
        return Manual(Action("tap", coords=(x, y)), Grounding("direct", point=(x, y)))
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
