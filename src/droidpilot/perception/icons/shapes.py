"""Shape classes of an icon's foreground mask from contour geometry, with a confidence.

Features: extent (area / minimum-area rectangle), solidity (area / convex hull), aspect, corner gap
(how far the contour stays from the rectangle's corners: 0 square, ~0.1 rounded, ~0.2 circle), deep
convexity defects (1 heart, 2 arrow, 4 plus, 5 star) and an off-centre hole (a magnifier's lens).
Each class has a soft prototype; the scores are normalised into probabilities.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SHAPE_CLASSES: tuple[str, ...] = ("circle", "square", "rounded square", "rectangle", "triangle", "heart",
                                  "star", "plus", "arrow", "line", "magnifier")


@dataclass(frozen=True)
class ShapeFeatures:
    """Geometry of a filled foreground mask (all ratios, independent of size)."""

    extent: float
    solidity: float
    aspect: float  # short side / long side of the minimum-area rectangle
    corner_gap: float  # mean distance from the rectangle's corners to the shape, / short side
    defects: int  # convexity defects deeper than 7% of the long side
    hole: float  # area of the largest hole / filled area
    hole_offset: float  # diagonal distance of that hole's centre from the box's middle, / long side
    hole_roundness: float  # hole area / area of its enclosing circle (1 for a round lens)
    parts: int
    vertices: int


def _g(x: float, mu: float, sigma: float) -> float:
    return math.exp(-0.5 * ((x - mu) / sigma) ** 2)


def _count_defects(contour: np.ndarray, long_side: float) -> int:
    if len(contour) < 5:
        return 0
    try:
        hull_idx = cv2.convexHull(contour, returnPoints=False)
        if hull_idx is None or len(hull_idx) < 3:
            return 0
        defects = cv2.convexityDefects(contour, np.sort(hull_idx, axis=0))
    except cv2.error:  # self-intersecting contours from tiny masks
        return 0
    if defects is None:
        return 0
    depths = defects.reshape(-1, 4)[:, 3] / 256.0
    return int((depths >= 0.07 * long_side).sum())


def shape_features(mask: np.ndarray) -> ShapeFeatures | None:
    """Measure a binary mask (non-zero = foreground); None when there is too little to measure."""
    binary = (mask > 0).astype(np.uint8)
    if int(binary.sum()) < 12:
        return None
    contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if not contours or hierarchy is None:
        return None
    outer = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] < 0]
    holes = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0]
    filled = np.zeros_like(binary)
    cv2.drawContours(filled, outer, -1, 1, thickness=cv2.FILLED)
    # Polygon areas throughout (not pixel counts), so ratios with the hull and rectangle stay unbiased.
    area = max(sum(float(cv2.contourArea(c)) for c in outer), 1.0)
    points = np.concatenate(outer)
    hull = cv2.convexHull(points)
    hull_area = max(float(cv2.contourArea(hull)), 1.0)
    (rcx, rcy), (rw, rh), angle = cv2.minAreaRect(points)
    rw, rh = max(rw, 1.0), max(rh, 1.0)
    short, long_ = min(rw, rh), max(rw, rh)
    main = max(outer, key=cv2.contourArea)
    # Corner gap: how far the shape keeps from the corners of its minimum-area rectangle.
    corners = cv2.boxPoints(((rcx, rcy), (rw, rh), angle))
    pts = points.reshape(-1, 2).astype(np.float32)
    gaps = [float(np.min(np.hypot(pts[:, 0] - x, pts[:, 1] - y))) for x, y in corners]
    # (one pixel of the gap is the anti-aliased corner every drawn square has)
    hole_ratio, hole_offset, hole_round = 0.0, 0.0, 0.0
    if holes:
        big = max(holes, key=cv2.contourArea)
        hole_area = float(cv2.contourArea(big))
        hole_ratio = hole_area / max(area, 1.0)
        _, radius = cv2.minEnclosingCircle(big)
        hole_round = hole_area / max(math.pi * radius * radius, 1.0)
        m = cv2.moments(big)
        bx, by, bw, bh = cv2.boundingRect(points)
        if m["m00"] > 0:
            # Offset from the middle of the icon's box; a lens sits towards a corner (diagonally),
            # a face in a person outline sits straight above the middle.
            dx = m["m10"] / m["m00"] - (bx + bw / 2)
            dy = m["m01"] / m["m00"] - (by + bh / 2)
            diagonal = min(abs(dx), abs(dy)) >= 0.35 * max(abs(dx), abs(dy))
            hole_offset = math.hypot(dx, dy) / long_ if diagonal else 0.0
    perimeter = cv2.arcLength(main, True)
    vertices = len(cv2.approxPolyDP(main, 0.03 * perimeter, True))
    return ShapeFeatures(
        extent=min(1.0, area / (rw * rh)), solidity=min(1.0, area / hull_area), aspect=short / long_,
        corner_gap=max(0.0, float(np.mean(gaps)) - 1.0) / short, defects=_count_defects(main, long_),
        hole=hole_ratio, hole_offset=hole_offset, hole_roundness=hole_round, parts=len(outer),
        vertices=vertices,
    )


def _defects_fit(found: int, wanted: int) -> float:
    return 1.0 if found == wanted else (0.35 if abs(found - wanted) == 1 else 0.05)


def shape_scores(f: ShapeFeatures) -> dict[str, float]:
    """Unnormalised fit (0..1) of the features to each shape class's prototype."""
    square_ish = _g(f.aspect, 1.0, 0.12)
    convex = _g(f.solidity, 1.0, 0.07)
    no_defect = _defects_fit(f.defects, 0)
    not_thin = 1.0 if f.aspect >= 0.3 else _g(f.aspect, 0.3, 0.06)
    # A lens: a round hole off the centre, with a handle that makes the outline non-convex.
    lens = 1.0 if (f.hole >= 0.05 and f.hole_offset >= 0.05 and f.hole_roundness >= 0.55
                   and f.solidity < 0.93) else 0.0
    plain = 1.0 - lens
    scores = {
        "circle": _g(f.extent, 0.785, 0.05) * _g(f.corner_gap, 0.21, 0.06) * square_ish * convex * no_defect,
        "square": _g(f.corner_gap, 0.0, 0.035) * _g(f.extent, 1.0, 0.04) * square_ish * convex,
        "rounded square": _g(f.corner_gap, 0.09, 0.04) * _g(f.extent, 0.94, 0.04) * square_ish * convex,
        "rectangle": _g(f.extent, 0.97, 0.06) * _g(f.aspect, 0.55, 0.15) * convex
        * (1.0 if f.aspect < 0.85 else 0.2) * not_thin,
        "triangle": _g(f.extent, 0.5, 0.07) * _g(f.solidity, 1.0, 0.08) * no_defect,
        "heart": (1.0 if f.defects == 1 else 0.12) * _g(f.solidity, 0.91, 0.06) * _g(f.extent, 0.72, 0.1)
        * square_ish,
        "star": _defects_fit(f.defects, 5) * _g(f.solidity, 0.62, 0.16),
        "plus": _defects_fit(f.defects, 4) * _g(f.solidity, 0.6, 0.2) * square_ish,
        "arrow": _defects_fit(f.defects, 2) * _g(f.solidity, 0.72, 0.12) * not_thin,
        "line": _g(f.aspect, 0.08, 0.08) * _g(f.extent, 1.0, 0.15),
        "magnifier": lens * _g(f.aspect, 1.0, 0.2) * (1.0 if f.parts == 1 else 0.5),
    }
    return {k: v * (plain if k != "magnifier" else 1.0) for k, v in scores.items()}


def classify_shape(mask: np.ndarray) -> tuple[str, float, dict[str, float]]:
    """Best shape class, its confidence (0..1) and every class's probability, for a foreground mask.

    The probabilities keep some mass for "none of these", so a poor fit gives a low confidence.
    """
    feats = shape_features(mask)
    if feats is None:
        return "unknown", 0.0, {}
    scores = shape_scores(feats)
    total = sum(scores.values()) + 0.05
    probs = {k: v / total for k, v in scores.items()}
    best = max(probs, key=lambda k: probs[k])
    return best, probs[best], probs
