"""Everyday icon shapes the Material font draws otherwise, drawn here by our own code as library glyphs.

Real apps draw a speech bubble round (the font's is square), share as a curved arrow and the keyboard's
shift as a block arrow. Each is a filled mask at the font's render size, named ``drawn_*``; the styles
(glyphs.styles) and line drawings (glyphs.strokes) give their outlined forms, as for the font's glyphs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np

SIDE = 64  # the font's render size (glyphs.render.RENDER_SIZE)
AA = cv2.LINE_AA


def _canvas() -> np.ndarray:
    return np.zeros((SIDE, SIDE), np.uint8)


def _pts(points: list[tuple[float, float]]) -> np.ndarray:
    return np.round(np.array(points, np.float32)).astype(np.int32)


def _round_bubble() -> np.ndarray:
    """An oval bubble with a short tail at its lower right (messaging and comment buttons)."""
    img = _canvas()
    cv2.ellipse(img, (32, 29), (27, 23), 0, 0, 360, 255, -1, AA)
    cv2.fillPoly(img, [_pts([(38, 46), (52, 58), (50, 40)])], 255, AA)
    return img


def _round_bubble_dots() -> np.ndarray:
    """The oval bubble with three dots cut out of it (a comment count, a chat)."""
    img = _round_bubble()
    for x in (19, 32, 45):
        cv2.circle(img, (x, 29), 4, 0, -1, AA)
    return img


def _curved_share() -> np.ndarray:
    """A thick arrow head pointing right whose shaft bends down to the lower left (share in social apps)."""
    img = _canvas()
    cv2.fillPoly(img, [_pts([(36, 8), (60, 30), (36, 52)])], 255, AA)  # the head
    shaft = [(36, 22), (24, 23), (14, 28), (8, 38), (6, 52), (14, 44), (24, 39), (36, 38)]
    cv2.fillPoly(img, [_pts(shaft)], 255, AA)
    return img


def _block_arrow_up() -> np.ndarray:
    """A block arrow pointing up (the keyboard's shift key)."""
    img = _canvas()
    cv2.fillPoly(img, [_pts([(32, 4), (60, 32), (44, 32), (44, 58), (20, 58), (20, 32), (4, 32)])], 255, AA)
    return img


DRAWN: dict[str, Callable[[], np.ndarray]] = {
    "drawn_round_bubble": _round_bubble,
    "drawn_round_bubble_dots": _round_bubble_dots,
    "drawn_curved_share": _curved_share,
    "drawn_block_arrow_up": _block_arrow_up,
}


@lru_cache(maxsize=len(DRAWN))
def drawn_mask(name: str) -> np.ndarray:
    """The drawn glyph's ink as a uint8 0/1 mask cropped to its bounding box; KeyError for other names."""
    ink = DRAWN[name]() >= 128
    ys, xs = np.nonzero(ink)
    out = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.uint8)
    out.setflags(write=False)
    return out
