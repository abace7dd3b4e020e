"""Everyday icon shapes the Material font draws otherwise, drawn here by our own code as library glyphs.

Real apps draw a speech bubble round (the font's is square), share as a curved arrow, the keyboard's
shift as a block arrow, shuffle as crossing S-curves, a bed outlined, a map pin with a round hole, a
sparkle as a four-point star, fullscreen as four corners, captions as "CC" in a box and a gamepad
outlined. Each is a filled mask at the font's render size, named ``drawn_*``; the styles (glyphs.styles)
and line drawings (glyphs.strokes) give their outlined forms, as for the font's glyphs.
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


def _curved_shuffle() -> np.ndarray:
    """Two arrows crossing in S-curves, heads at the right (shuffle as music apps draw it, not the font's
    straight diagonals)."""
    img = _canvas()
    down = _pts([(4, 16), (16, 16), (26, 20), (32, 32), (38, 44), (48, 48), (52, 48)])
    up = _pts([(4, 48), (16, 48), (26, 44), (32, 32), (38, 20), (48, 16), (52, 16)])
    cv2.polylines(img, [down, up], False, 255, 6, AA)
    for y in (16, 48):
        cv2.fillPoly(img, [_pts([(50, y - 10), (62, y), (50, y + 10)])], 255, AA)
    return img


def _bed() -> np.ndarray:
    """A bed seen from the side, outlined: a headboard post, a pillow, the mattress, two legs (hotels)."""
    img = _canvas()
    cv2.line(img, (6, 10), (6, 56), 255, 6, AA)  # headboard post and front leg
    cv2.line(img, (58, 30), (58, 56), 255, 6, AA)  # the foot's leg
    cv2.line(img, (6, 46), (58, 46), 255, 6, AA)  # the frame
    cv2.rectangle(img, (24, 24), (58, 40), 255, 5, AA)  # the mattress, outlined
    cv2.circle(img, (16, 33), 5, 255, -1, AA)  # the pillow
    return img


def _pin_with_hole() -> np.ndarray:
    """A filled map pin: a teardrop whose round head holds a round hole (maps, places)."""
    img = _canvas()
    cv2.circle(img, (32, 24), 20, 255, -1, AA)
    cv2.fillPoly(img, [_pts([(14, 32), (50, 32), (32, 62)])], 255, AA)
    cv2.circle(img, (32, 24), 8, 0, -1, AA)
    return img


def _sparkle() -> np.ndarray:
    """A four-point star with concave sides and a small one beside it (AI, magic, "new" buttons)."""
    img = _canvas()

    def star(cx: float, cy: float, r: float) -> np.ndarray:
        k = 0.22 * r
        return _pts([(cx, cy - r), (cx + k, cy - k), (cx + r, cy), (cx + k, cy + k), (cx, cy + r),
                     (cx - k, cy + k), (cx - r, cy), (cx - k, cy - k)])

    cv2.fillPoly(img, [star(26, 36, 24), star(52, 12, 10)], 255, AA)
    return img


def _fullscreen_corners() -> np.ndarray:
    """Four corner brackets at the corners of a square, the middle empty (fullscreen in video players)."""
    img = _canvas()
    for x, y, dx, dy in ((6, 6, 1, 1), (58, 6, -1, 1), (6, 58, 1, -1), (58, 58, -1, -1)):
        cv2.polylines(img, [_pts([(x, y + dy * 18), (x, y), (x + dx * 18, y)])], False, 255, 6, AA)
    return img


def _captions_box() -> np.ndarray:
    """Two letters C in a rounded box, outlined (closed captions in video players)."""
    img = _canvas()
    cv2.rectangle(img, (4, 12), (60, 52), 255, 5, AA)
    for cx in (22, 43):
        cv2.ellipse(img, (cx, 32), (8, 9), 0, 45, 315, 255, 4, AA)
    return img



def _gamepad() -> np.ndarray:
    """A game controller outlined: a wide body with two grips below, a cross pad at the left and two
    buttons at the right (games in app stores)."""
    img = _canvas()
    body = _pts([(14, 16), (50, 16), (58, 26), (62, 46), (56, 52), (46, 44), (18, 44), (8, 52), (2, 46),
                 (6, 26)])
    cv2.polylines(img, [body], True, 255, 5, AA)
    cv2.line(img, (13, 30), (25, 30), 255, 4, AA)
    cv2.line(img, (19, 24), (19, 36), 255, 4, AA)
    for x, y in ((42, 27), (49, 34)):
        cv2.circle(img, (x, y), 3, 255, -1, AA)
    return img


DRAWN: dict[str, Callable[[], np.ndarray]] = {
    "drawn_round_bubble": _round_bubble,
    "drawn_round_bubble_dots": _round_bubble_dots,
    "drawn_curved_share": _curved_share,
    "drawn_block_arrow_up": _block_arrow_up,
    "drawn_curved_shuffle": _curved_shuffle,
    "drawn_bed": _bed,
    "drawn_pin_with_hole": _pin_with_hole,
    "drawn_sparkle": _sparkle,
    "drawn_fullscreen_corners": _fullscreen_corners,
    "drawn_captions_box": _captions_box,
    "drawn_gamepad": _gamepad,
}


@lru_cache(maxsize=len(DRAWN))
def drawn_mask(name: str) -> np.ndarray:
    """The drawn glyph's ink as a uint8 0/1 mask cropped to its bounding box; KeyError for other names."""
    ink = DRAWN[name]() >= 128
    ys, xs = np.nonzero(ink)
    out = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.uint8)
    out.setflags(write=False)
    return out
