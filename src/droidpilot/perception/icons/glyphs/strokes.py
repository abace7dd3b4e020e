"""A stroke-normalised line drawing of an icon mask: every icon redrawn with one pen width.

Icon sets draw one shape at many weights: a filled heart, a 1-px outlined heart, a bold outlined one.
Their line drawings agree: thin strokes (half-width under THICK of the icon's side, by the distance
transform) are reduced to their centre line (a thinning), and thick parts (fills) to their
outline, holes included; the lines are then drawn again with one pen (PEN pixels on a SIDE-pixel square).
"""

from __future__ import annotations

import cv2
import numpy as np

SIDE = 48  # the square the mask is normalised to before its lines are found
THICK = 0.12  # half-widths above this share of the side are fills (outlined), below it strokes
PEN = 3  # the width, in pixels on SIDE, every line is drawn with again
CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))  # the rim of a fill: the fill minus its erosion


def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def ink_square(mask: np.ndarray) -> np.ndarray | None:
    """The mask cropped to its ink and centred on a square of the ink's longer side (aspect kept), float
    0/1; None when there are fewer than 4 ink pixels. Shared by the shape and the line descriptors."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 4:
        return None
    crop = (mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 0).astype(np.float32)
    h, w = crop.shape
    big = max(h, w)
    square = np.zeros((big, big), np.float32)
    square[(big - h) // 2:(big - h) // 2 + h, (big - w) // 2:(big - w) // 2 + w] = crop
    return square


def square_mask(mask: np.ndarray, side: int = SIDE) -> np.ndarray | None:
    """The mask cropped to its ink, centred on a square (aspect kept) of ``side`` pixels with a margin;
    uint8 0/1, or None when there are fewer than 4 ink pixels."""
    square = ink_square(mask)
    if square is None:
        return None
    big = square.shape[0]
    inner = side - 2 * PEN
    small = cv2.resize(square, (inner, inner), interpolation=cv2.INTER_AREA if big > inner
                       else cv2.INTER_LINEAR)
    return np.pad((small >= 0.5).astype(np.uint8), PEN)


# Neighbours P2..P9 (north, then clockwise) as bits 0..7 of a code read by one correlation per step.
NEIGHBOUR_BITS = np.array([[128, 1, 2], [64, 0, 4], [32, 16, 8]], np.float32)


def _thinning_tables() -> tuple[np.ndarray, np.ndarray]:
    """For each neighbourhood code, may the pixel go in Zhang and Suen's first / second sub-step?"""
    tables = np.zeros((2, 256), np.uint8)
    for code in range(256):
        p = [(code >> k) & 1 for k in range(8)]  # north, north-east, east, ..., north-west
        count = sum(p)
        turns = sum(1 for k in range(8) if p[k] == 0 and p[(k + 1) % 8] == 1)
        if not (2 <= count <= 6 and turns == 1):
            continue
        north, east, south, west = p[0], p[2], p[4], p[6]
        tables[0, code] = north * east * south == 0 and east * south * west == 0
        tables[1, code] = north * east * west == 0 and north * south * west == 0
    return tables[0], tables[1]


THIN_STEPS = _thinning_tables()


def skeleton(mask: np.ndarray) -> np.ndarray:
    """A one-pixel-wide, connected centre line of a 0/1 mask (Zhang-Suen thinning, whole-image steps:
    each step codes every pixel's neighbourhood by one correlation and looks the code up)."""
    img = (mask > 0).astype(np.uint8)
    changed = True
    while changed:
        changed = False
        for table in THIN_STEPS:
            code = cv2.filter2D(img, cv2.CV_32F, NEIGHBOUR_BITS, borderType=cv2.BORDER_CONSTANT)
            drop = img & table[code.astype(np.uint8)]
            if drop.any():
                img &= 1 - drop
                changed = True
    return img


def line_drawing(mask: np.ndarray) -> np.ndarray | None:
    """The icon's lines (centre lines of strokes, outlines of fills) drawn with one pen on a SIDE square;
    None for an empty mask."""
    square = square_mask(mask)
    if square is None:
        return None
    depth = cv2.distanceTransform(square, cv2.DIST_L2, 3)
    reach = max(1, round(THICK * SIDE))
    fills = cv2.dilate((depth > reach).astype(np.uint8), _disc(reach + 1)) & square
    strokes = square & (1 - fills)
    rim = fills - cv2.erode(fills, CROSS)
    lines = skeleton(strokes) | rim
    return cv2.dilate(lines, _disc(PEN // 2))
