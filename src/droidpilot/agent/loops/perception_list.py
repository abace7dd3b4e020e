"""The perception list of the v2 and E loops: every OCR text and every icon candidate on a screen, numbered.

Built from droidpilot's own OCR and weight-free icon proposals (no new models), so a role model sees what
is on the screen with coordinates and a short description, and may answer "tap 7" instead of coordinates.
Coordinates are device pixels; the list is recorded in every step of the trace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from droidpilot.agent.coords import CoordFrame, from_device
from droidpilot.agent.screen import ScreenView
from droidpilot.perception.types import Box, box_center

MAX_ICONS = 40  # icon candidates kept (largest-first would favour backgrounds; top-to-bottom is kept)
_MIN_OCR_SCORE = 0.5
_SAME_PLACE = 0.6  # IoU above which two icon proposals are the same icon


@dataclass(frozen=True)
class PerceptionItem:
    """One numbered element: ``kind`` is ``text`` or ``icon``; ``description`` the OCR text or the look."""

    number: int
    kind: str
    description: str
    box: Box

    @property
    def point(self) -> tuple[int, int]:
        return box_center(self.box)

    def to_dict(self) -> dict[str, object]:
        return {"n": self.number, "kind": self.kind, "description": self.description, "box": list(self.box),
                "point": list(self.point)}

    def line(self, frame: CoordFrame | None = None) -> str:
        """``[7] text "Notes" at (x, y)``, the point in ``frame``'s space (device pixels without one)."""
        x, y = self.point
        if frame is not None and frame.space != "device":
            fx, fy = from_device(x, y, frame.space, frame.device_size, frame.image_size)
            where = f"({fx:.3f}, {fy:.3f})" if frame.space == "normalized" else f"({round(fx)}, {round(fy)})"
        else:
            where = f"({x}, {y})"
        return f"[{self.number}] {self.kind} \"{self.description}\" at {where}"


def perception_list(screen: ScreenView, max_icons: int = MAX_ICONS) -> list[PerceptionItem]:
    """Texts (reading order) then icon candidates (top to bottom), numbered from 1; icon search is timed as
    perception on ``screen``."""
    texts = [ln for ln in screen.lines() if ln.score >= _MIN_OCR_SCORE and ln.text.strip()]
    items = [PerceptionItem(i + 1, "text", ln.text.strip(), tuple(ln.box))  # type: ignore[arg-type]
             for i, ln in enumerate(sorted(texts, key=lambda ln: (ln.box[1], ln.box[0])))]
    with screen.timed():
        icons = _icons(screen, max_icons)
    start = len(items) + 1
    items += [PerceptionItem(start + i, "icon", text, box) for i, (text, box) in enumerate(icons)]
    return items


def _icons(screen: ScreenView, max_icons: int) -> list[tuple[str, Box]]:
    from droidpilot.perception.icons.candidates import find_regions, iou
    from droidpilot.perception.icons.describe import describe_region

    bgr = np.asarray(screen.image)[:, :, ::-1].copy()
    regions = [r for r in find_regions(bgr, screen.lines()) if r.source in ("mask", "group", "inner")]
    out: list[tuple[str, Box]] = []
    for region in regions:  # one entry per place: proposals of the same icon overlap almost wholly
        if any(iou(region.box, box) > _SAME_PLACE for _, box in out):
            continue
        out.append((describe_region(bgr, region.box, region.background).text, region.box))
        if len(out) >= max_icons:
            break
    return out


def format_list(items: list[PerceptionItem], frame: CoordFrame | None = None) -> str:
    """The list as the prompt shows it, one element a line, points in the brain's coordinate space."""
    if not items:
        return "(nothing was recognised on the screen)"
    return "\n".join(item.line(frame) for item in items)


_ELEMENT = re.compile(r"^\s*(tap|click|long\s*press|press)\s*(?:on\s+)?(?:element|item|no\.?|number)?\s*"
                      r"[(\[]?\s*#?\s*(\d+)\s*[)\]]?\s*\.?\s*$", re.IGNORECASE)


def element_reference(action_line: str) -> tuple[str, int] | None:
    """(``tap`` | ``long_press``, number) when an action line names a list element ("tap 7", "tap (7)",
    "click element #7"); None otherwise (two numbers are coordinates, not an element)."""
    match = _ELEMENT.match(action_line or "")
    if not match:
        return None
    verb = "long_press" if match.group(1).lower().replace(" ", "") == "longpress" else "tap"
    return verb, int(match.group(2))
