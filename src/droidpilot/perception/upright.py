"""Text lines drawn at an angle (map street names, vertical labels), cut out as upright strips to read.

Detection finds each line as a rotated rectangle. A line within ``MAX_UPRIGHT_TILT`` degrees of horizontal,
a box too square to have a direction, or a line whose axis-aligned hull is less than twice as tall as the
line itself, or a tall box too short to be a line running up the screen (``MIN_VERTICAL_ELONGATION``), is
read from its hull: the common path, as before. A line running up the screen (within ``MAX_UPRIGHT_TILT``
of vertical) is its hull turned a right angle, as before. Any other elongated line (a
street name along a road at 50 degrees) would be read from a hull that is mostly the road, the map and the
neighbouring labels; it is instead warped to a strip of its own, long side horizontal, reading left to
right, as RapidOCR crops its quads. Which way up a turned strip is cannot be told from its shape (Google
Maps writes vertical street names bottom to top, a book spine top to bottom), so it is read both ways up
(``onnx_ocr``) and the other way kept only when clearly likelier (``TURN_MARGIN``), as RapidOCR's direction
classifier turns a line only when sure, without loading a third model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MAX_UPRIGHT_TILT = 3.0  # degrees; a line tilted at most this much is read from its axis-aligned hull
# Long side / short side: squarer boxes (one character, an icon) have no direction. The map labels read
# upright are 2.08 (a three-character CJK street name) to 5.6; a check mark icon's diagonal stroke, 1.85 on
# SimPhone's Notes editor, was read upright as a confident "L", and two-glyph scraps on the maps (1.6) as
# noise, so they keep the common path.
MIN_ELONGATION = 2.0
# A line running up the screen (within NEAR_VERTICAL degrees of vertical) is at least this many times as
# long as it is wide (three characters or more: Yan'an Rd 3.3, Dengcai St 4.0 on Mobile-Eval's maps); the
# shorter tall boxes of those 256 screens, 1.5 to 2.8, are all two glyphs stacked (a keyboard key's letter
# under its digit) or one upright glyph a few degrees off (an "i" at 86.6), which no turn makes a line.
# The map labels along roads are tilted 20 to 63 degrees.
MIN_VERTICAL_ELONGATION = 3.0
NEAR_VERTICAL = 15.0
# A tilted line still takes the common path while its hull is less than twice as tall as the line: short
# labels come out of detection tilted by a few degrees of noise (a 54 x 25 box at 3.1 degrees), curved
# lettering in photos by ten or more, and a rectangle cut along such a tilt loses the letters that bend
# out of it ("GOLDEN" along a jersey's arc, 14 degrees, read "OLDEN"). The Mobile-Eval map labels the hull
# misread are tilted 20 to 60 degrees, their hulls 2.5 to 5 times as tall as they are.
MIN_SPILL = 1.0
# A turned strip read the other way up is taken only when that reading is this much more confident: a crop
# that is not one line of text (a keyboard key's letter with its digit above it) reads as two guesses of
# near-equal confidence, real text the wrong way up far lower (Yan'an Rd: 0.99 against 0.65).
TURN_MARGIN = 0.1


@dataclass(frozen=True)
class TiltedLine:
    """A line drawn at an angle: its centre, the unit vector it reads along (left to right, or bottom to
    top when upright), its length and height in image pixels, and its tilt from horizontal in degrees."""

    centre: tuple[float, float]
    along: tuple[float, float]
    length: float
    height: float
    tilt: float

    def corners(self) -> np.ndarray:
        """The four corners (top-left, top-right, bottom-right, bottom-left of the upright strip), 4 x 2."""
        cx, cy = self.centre
        ux, uy = self.along
        vx, vy = -uy, ux  # "down" for the text: ``along`` turned a right angle clockwise on screen
        hl, hh = self.length / 2, self.height / 2
        return np.array([[cx - ux * hl - vx * hh, cy - uy * hl - vy * hh],
                         [cx + ux * hl - vx * hh, cy + uy * hl - vy * hh],
                         [cx + ux * hl + vx * hh, cy + uy * hl + vy * hh],
                         [cx - ux * hl + vx * hh, cy - uy * hl + vy * hh]], np.float32)


def rule_key() -> str:
    """The rule's settings, for the OCR cache key: lines cached under another rule are read again."""
    return (f"upright(tilt<={MAX_UPRIGHT_TILT},elong>={MIN_ELONGATION},spill>={MIN_SPILL},"
            f"vertical>={MIN_VERTICAL_ELONGATION}@{NEAR_VERTICAL},turn+{TURN_MARGIN})")


def tilt_of(quad: np.ndarray) -> float:
    """Degrees (0 to 90) between the long side of a rectangle given by its corners (4 x 2) and horizontal."""
    long_side, _ = _sides(np.asarray(quad, np.float64))
    return math.degrees(math.atan2(abs(long_side[1]), abs(long_side[0])))


def tilted_line(quad: np.ndarray) -> TiltedLine | None:
    """The tilted line a detected rectangle (corners in image pixels, in order around it) is, or None when
    it takes the common path: tilted at most ``MAX_UPRIGHT_TILT``, too square to have a direction, too
    little tilted for its hull to be twice as tall as the line, or upright but too short to be a line."""
    pts = np.asarray(quad, np.float64).reshape(4, 2)
    long_side, short_side = _sides(pts)
    length, height = float(np.hypot(*long_side)), float(np.hypot(*short_side))
    if height <= 0 or length < MIN_ELONGATION * height:
        return None
    ux, uy = long_side / length
    if ux < -1e-6 or (abs(ux) <= 1e-6 and uy > 0):  # read left to right; an upright line bottom to top
        ux, uy = -ux, -uy
    tilt = math.degrees(math.atan2(abs(uy), abs(ux)))
    if tilt <= MAX_UPRIGHT_TILT or length * abs(uy) < MIN_SPILL * height:
        return None
    if tilt >= 90 - NEAR_VERTICAL and length < MIN_VERTICAL_ELONGATION * height:
        return None
    cx, cy = pts.mean(axis=0)
    return TiltedLine((float(cx), float(cy)), (float(ux), float(uy)), length, height, tilt)


def line_crop(bgr: np.ndarray, box: tuple[int, int, int, int], line: TiltedLine | None
              ) -> tuple[np.ndarray, bool]:
    """The pixels a detected line is read from, and whether they are to be read both ways up.

    ``box`` is the line's axis-aligned hull (clipped to the image), ``line`` what ``tilted_line`` made of
    its rectangle. The common path (no ``line``) crops the hull and turns a crop half again as tall as
    wide a right angle anticlockwise, as RapidOCR does; a line within ``MAX_UPRIGHT_TILT`` of vertical is
    its hull turned so too (the same crop), then read also the other way up; any other tilted line is
    ``upright_strip``, read both ways up."""
    x1, y1, x2, y2 = box
    hull = bgr[y1:y2, x1:x2]
    if line is None:
        return (np.rot90(hull) if hull.shape[0] >= 1.5 * hull.shape[1] else hull), False
    if line.tilt >= 90 - MAX_UPRIGHT_TILT:
        return np.rot90(hull), True
    return upright_strip(bgr, line), True


def upright_strip(bgr: np.ndarray, line: TiltedLine) -> np.ndarray:
    """The line cut out of ``bgr`` (full resolution) and turned to read left to right, ``length`` x
    ``height`` pixels; parts outside the image repeat its edge (a label cut by the screen's border)."""
    import cv2  # only a screen with a tilted line needs it; the module stays light for cache keys

    width, height = max(1, round(line.length)), max(1, round(line.height))
    src = line.corners()[:3]
    dst = np.array([[0, 0], [width, 0], [width, height]], np.float32)
    matrix = cv2.getAffineTransform(src, dst)
    return cv2.warpAffine(bgr, matrix, (width, height), flags=cv2.INTER_CUBIC,
                          borderMode=cv2.BORDER_REPLICATE)


def _sides(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(long side, short side) of a rectangle given by its corners in order, as vectors."""
    first, second = pts[1] - pts[0], pts[2] - pts[1]
    return (first, second) if np.hypot(*first) >= np.hypot(*second) else (second, first)
