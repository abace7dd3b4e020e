"""Draw the icon vocabulary (circle, heart, star, magnifier, ...) as coloured shapes with OpenCV.

Used by the tests and by ``benchmarks/icon_accuracy.py`` to build screens whose truth is known, so the
colour namer, the shape classifier and ``locate_icon`` can be measured, not guessed at.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from droidpilot.perception.types import Box

# Colours (RGB) whose names the colour namer must give back.
NAMED_RGB: dict[str, tuple[int, int, int]] = {
    "red": (229, 57, 53), "orange": (251, 140, 0), "yellow": (253, 216, 53), "green": (67, 160, 71),
    "cyan": (0, 188, 212), "blue": (30, 100, 229), "purple": (142, 36, 170), "pink": (240, 98, 146),
    "brown": (121, 85, 72), "black": (20, 20, 20), "white": (250, 250, 250), "gray": (128, 128, 128),
}

SHAPES: tuple[str, ...] = ("circle", "square", "rounded square", "rectangle", "triangle", "heart", "star",
                           "plus", "cross", "arrow", "line", "magnifier")


@dataclass(frozen=True)
class DrawnIcon:
    """What was drawn where: the truth a test compares against."""

    shape: str
    colour: str
    box: Box


def _poly(img: np.ndarray, pts: np.ndarray, bgr: tuple[int, int, int], outline: int = 0) -> None:
    if outline > 0:
        cv2.polylines(img, [np.round(pts).astype(np.int32)], True, bgr, outline, cv2.LINE_AA)
    else:
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], bgr, lineType=cv2.LINE_AA)


def _rotated(pts: np.ndarray, cx: float, cy: float, degrees: float) -> np.ndarray:
    if not degrees:
        return pts
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    d = pts - (cx, cy)
    return np.stack([d[:, 0] * c - d[:, 1] * s + cx, d[:, 0] * s + d[:, 1] * c + cy], axis=1)


def _rounded_rect(img: np.ndarray, x1: float, y1: float, x2: float, y2: float, r: float,
                  bgr: tuple[int, int, int], outline: int = 0) -> None:
    t = np.linspace(0, math.pi / 2, 12)
    corners = [(x2 - r, y2 - r, 0.0), (x1 + r, y2 - r, math.pi / 2), (x1 + r, y1 + r, math.pi),
               (x2 - r, y1 + r, 1.5 * math.pi)]
    pts = [np.stack([cx + r * np.cos(t + a), cy + r * np.sin(t + a)], axis=1) for cx, cy, a in corners]
    _poly(img, np.concatenate(pts), bgr, outline)


def _outline(shape: str, cx: float, cy: float, s: float) -> np.ndarray | None:
    """The polygon of a filled shape of size ``s`` centred at (cx, cy); None for shapes drawn otherwise."""
    h = s / 2
    if shape == "square":
        return np.array([(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)])
    if shape == "rectangle":
        return np.array([(cx - h, cy - h * .55), (cx + h, cy - h * .55), (cx + h, cy + h * .55),
                         (cx - h, cy + h * .55)])
    if shape == "triangle":
        return np.array([(cx, cy - h), (cx + h, cy + h * .75), (cx - h, cy + h * .75)])
    if shape == "star":
        pts = []
        for i in range(10):
            r = h if i % 2 == 0 else h * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return np.array(pts)
    if shape in ("plus", "cross"):
        w = h * 0.3
        return np.array([(cx - w, cy - h), (cx + w, cy - h), (cx + w, cy - w), (cx + h, cy - w),
                         (cx + h, cy + w), (cx + w, cy + w), (cx + w, cy + h), (cx - w, cy + h),
                         (cx - w, cy + w), (cx - h, cy + w), (cx - h, cy - w), (cx - w, cy - w)])
    if shape == "arrow":
        sw, hw = h * 0.22, h * 0.62
        return np.array([(cx - h, cy - sw), (cx + h * .1, cy - sw), (cx + h * .1, cy - hw), (cx + h, cy),
                         (cx + h * .1, cy + hw), (cx + h * .1, cy + sw), (cx - h, cy + sw)])
    if shape == "heart":
        t = np.linspace(0, 2 * math.pi, 120)
        x = 16 * np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        k = s / 34.0
        return np.stack([cx + x * k, cy + (y + 2.5) * k], axis=1)
    return None


def draw_icon(img: np.ndarray, shape: str, centre: tuple[int, int], size: int, colour: str | tuple,
              rotation: float = 0.0, outline: int = 0) -> DrawnIcon:
    """Draw ``shape`` of ``size`` pixels at ``centre`` on a BGR image (in place); returns its true box.

    ``outline`` > 0 draws the shape's contour with that stroke width instead of filling it (not for
    line and magnifier, which are strokes already).
    """
    rgb = NAMED_RGB[colour] if isinstance(colour, str) else tuple(colour)
    bgr = (int(rgb[2]), int(rgb[1]), int(rgb[0]))
    cx, cy = float(centre[0]), float(centre[1])
    s = float(size)
    h = s / 2
    if shape == "circle":
        cv2.circle(img, (round(cx), round(cy)), round(h - outline / 2), bgr, outline or -1, cv2.LINE_AA)
    elif shape == "rounded square":
        o = outline / 2
        _rounded_rect(img, cx - h + o, cy - h + o, cx + h - o, cy + h - o, s * 0.24, bgr, outline)
    elif shape == "line":
        pts = np.array([(cx - h, cy - s / 16), (cx + h, cy - s / 16), (cx + h, cy + s / 16),
                        (cx - h, cy + s / 16)])
        _poly(img, _rotated(pts, cx, cy, rotation), bgr)
    elif shape == "magnifier":
        r = s * 0.3
        ox, oy = cx - s * 0.12, cy - s * 0.12
        thick = max(2, round(s * 0.11))
        cv2.circle(img, (round(ox), round(oy)), round(r), bgr, thick, cv2.LINE_AA)
        d = (r + thick / 2) / math.sqrt(2)
        cv2.line(img, (round(ox + d), round(oy + d)), (round(cx + h * 0.92), round(cy + h * 0.92)), bgr,
                 max(2, round(s * 0.13)), cv2.LINE_AA)
    else:
        pts = _outline(shape, cx, cy, s)
        if pts is None:
            raise ValueError(f"cannot draw unknown shape {shape!r}; known: {', '.join(SHAPES)}")
        rot = rotation + (45.0 if shape == "cross" else 0.0)
        _poly(img, _rotated(pts, cx, cy, rot), bgr, outline)
    ih, iw = img.shape[:2]
    half = math.ceil(h * (1.42 if shape in ("cross", "line") or rotation else 1.0)) + 1
    box = (max(0, round(cx) - half), max(0, round(cy) - half), min(iw, round(cx) + half),
           min(ih, round(cy) + half))
    return DrawnIcon(shape=shape, colour=colour if isinstance(colour, str) else "custom", box=box)


def blank_screen(width: int = 1080, height: int = 2400, theme: str = "light") -> np.ndarray:
    """A plain phone-sized BGR canvas in the light or dark theme."""
    value = 250 if theme == "light" else 18
    return np.full((height, width, 3), value, np.uint8)


def as_rgb(img: np.ndarray) -> np.ndarray:
    """The RGB array the public API takes, from a BGR canvas drawn here with OpenCV."""
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
