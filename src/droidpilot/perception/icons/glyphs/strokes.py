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


def square_mask(mask: np.ndarray, side: int = SIDE) -> np.ndarray | None:
    """The mask cropped to its ink, centred on a square (aspect kept) of ``side`` pixels with a margin;
    uint8 0/1, or None when there are fewer than 4 ink pixels."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 4:
        return None
    crop = (mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 0).astype(np.float32)
    h, w = crop.shape
    big = max(h, w)
    square = np.zeros((big, big), np.float32)
    square[(big - h) // 2:(big - h) // 2 + h, (big - w) // 2:(big - w) // 2 + w] = crop
    inner = side - 2 * PEN
    small = cv2.resize(square, (inner, inner), interpolation=cv2.INTER_AREA if big > inner
                       else cv2.INTER_LINEAR)
    return np.pad((small >= 0.5).astype(np.uint8), PEN)


def _neighbours(img: np.ndarray) -> list[np.ndarray]:
    """The eight neighbours of every pixel, clockwise from north (P2..P9 in Zhang and Suen's terms)."""
    p = np.pad(img, 1)
    h, w = img.shape
    return [p[0:h, 1:w + 1], p[0:h, 2:], p[1:h + 1, 2:], p[2:, 2:], p[2:, 1:w + 1], p[2:, 0:w],
            p[1:h + 1, 0:w], p[0:h, 0:w]]


def skeleton(mask: np.ndarray) -> np.ndarray:
    """A one-pixel-wide, connected centre line of a 0/1 mask (Zhang-Suen thinning, whole-image steps)."""
    img = (mask > 0).astype(np.uint8)
    changed = True
    while changed:
        changed = False
        for step in (0, 1):
            n = _neighbours(img)
            count = sum(x.astype(np.int32) for x in n)
            turns = sum(((n[k] == 0) & (n[(k + 1) % 8] == 1)).astype(np.int32) for k in range(8))
            north, east, south, west = n[0], n[2], n[4], n[6]
            if step == 0:
                keep_side = (north * east * south == 0) & (east * south * west == 0)
            else:
                keep_side = (north * east * west == 0) & (north * south * west == 0)
            drop = (img == 1) & (count >= 2) & (count <= 6) & (turns == 1) & keep_side
            if drop.any():
                img[drop] = 0
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
