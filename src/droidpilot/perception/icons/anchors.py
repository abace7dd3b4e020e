"""Text the query points at: text written inside the icon ("LIVE icon", "G logo") and a label the icon
sits next to ("chevron down next to To"), found among the screen's OCR lines.

An icon that carries text is read by OCR, not by its outline: a line reading the asked text is a
candidate whose shape fits fully. A label next to the icon is a soft preference: candidates are weighed
by their nearness to the label, with distance along the label's row counting a quarter as much as
distance across rows (a row's icon sits at its far end as often as beside the text).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from droidpilot.perception.types import Box, OcrLine

ANCHOR_FLOOR = 0.3  # weight of a candidate far from the label (never zero: the label may be misread)
TEXT_HOLDER = 6.0  # a region this many times the text's area holds it but is not the icon (a search bar)
ROW_STRETCH = 4.0  # distance along the label's row counts this many times less than across rows


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def lines_reading(lines: Sequence[OcrLine], texts: Sequence[str]) -> list[Box]:
    """Boxes of OCR lines that read exactly one of ``texts`` (case and punctuation aside)."""
    wanted = {_norm(t) for t in texts if _norm(t)}
    return [ln.box for ln in lines if _norm(ln.text) in wanted]


def anchor_boxes(lines: Sequence[OcrLine], anchor: str | None) -> list[Box]:
    """Boxes of the lines that are the label: lines reading it exactly, else lines containing it as
    whole words; empty when no line names it (then the anchor is ignored, not guessed). A possessive
    label ("Bigo's 4.5") no line reads whole is the lines reading what follows ("4.5"), of several the
    one nearest a line naming the owner (the rating under the app's name, not its neighbour's)."""
    if not anchor:
        return []
    want = _norm(anchor)
    found = _reading(lines, want)
    if found or " s " not in f" {want} ":
        return found
    owner, label = (p.strip() for p in f" {want} ".split(" s ", 1))  # "bigo's 4.5": bigo | 4 5
    found = _reading(lines, label) if label else []
    owners = [ln.box for ln in lines if owner and f" {owner} " in f" {_norm(ln.text)} "]
    if len(found) < 2 or not owners:
        return found
    near = min(found, key=lambda b: min(_apart(b, o) for o in owners))  # the one of the owner's tile
    return [near]


def _reading(lines: Sequence[OcrLine], want: str) -> list[Box]:
    """Boxes of lines reading ``want`` exactly, else of lines holding it as whole words."""
    exact = [ln.box for ln in lines if _norm(ln.text) == want]
    if exact or not want:
        return exact
    return [ln.box for ln in lines if f" {want} " in f" {_norm(ln.text)} "]


def _apart(a: Box, b: Box) -> float:
    """How far apart two boxes are (the gap between them, 0 when they touch or overlap)."""
    return math.hypot(max(0, a[0] - b[2], b[0] - a[2]), max(0, a[1] - b[3], b[1] - a[3]))


def reads_text(box: Box, text_boxes: Sequence[Box]) -> bool:
    """Does the candidate hold one of the text lines (most of the line inside it, or it inside the line),
    without being far larger than it (the bar around an avatar's letter is not the avatar)?"""
    for t in text_boxes:
        ix = max(0, min(box[2], t[2]) - max(box[0], t[0]))
        iy = max(0, min(box[3], t[3]) - max(box[1], t[1]))
        inter = ix * iy
        t_area = max(1, (t[2] - t[0]) * (t[3] - t[1]))
        b_area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
        if inter >= 0.6 * min(t_area, b_area) and b_area <= TEXT_HOLDER * t_area:
            return True
    return False


def nearness(box: Box, anchors: Sequence[Box]) -> float:
    """1.0 beside the nearest label, falling toward ANCHOR_FLOOR with distance (in label heights)."""
    best = 0.0
    for a in anchors:
        dx = max(0, a[0] - box[2], box[0] - a[2])
        dy = max(0, a[1] - box[3], box[1] - a[3])
        height = max(1, a[3] - a[1])
        d = math.hypot(dx / ROW_STRETCH, dy) / height
        best = max(best, 1.0 / (1.0 + d / 3.0))
    return ANCHOR_FLOOR + (1.0 - ANCHOR_FLOOR) * best
