"""What real apps draw icons on, as proposal masks: tiles, chips and pills (a glyph inside), faint tiles
(a light-gray switch track, the disc behind a map pin), white ink on a picture, and vivid ink on a dull
picture (a red heart on a video). Each function works on the proposal stage's working copy of the screen
(BGR) and its smooth page estimate; boxes are in working-copy pixels."""

from __future__ import annotations

import cv2
import numpy as np

from droidpilot.perception.icons.boxes import components, group
from droidpilot.perception.icons.imageio import channel_max
from droidpilot.perception.types import Box

BRIGHT_INK, BRIGHT_GAP = 225, 40  # white ink (every channel at least this) on a page this much darker
TILE_CONTRAST = 35  # a tile's rim this unlike the page is a tile; ink this unlike the tile is its glyph
TILE_SIDE = 0.2  # a tile's longer side is under this share of the screen's short side
FLAT_RIM = 0.8  # share of a drawn tile's rim within half a tile's contrast of its colour
CHIP_WIDTH, CHIP_HEIGHT = 0.6, 0.12  # a chip or pill: up to this wide, at most this tall (shares)
FAINT = 12  # a faint tile differs from the page by this much (and mostly by under TILE_CONTRAST)
FAINT_MIN_SIDE = 0.04  # a faint tile holds an icon: no smaller than this share of the short side
FAINT_FILL = 0.7  # share of its box a faint tile's outline fills (a disc fills 0.79, a pill more)
FAINT_INK = 0.5  # and its own pixels at least this (a switch's knob is a hole in it; a ring is no tile)
VIVID, DULL = 100, 60  # channel spread of vivid ink, and the most a dull picture behind it may have
HUE_SEAM = 45  # degrees of hue between touching vivid pixels that make a seam between two parts


def tile_shaped(box: Box, short: float) -> bool:
    """Could the box be a tile or button an icon is drawn on: small, or a chip (wide but short)?"""
    w, h = box[2] - box[0], box[3] - box[1]
    return max(w, h) < TILE_SIDE * short or (h <= CHIP_HEIGHT * short and w <= CHIP_WIDTH * short)


def inner(work: np.ndarray, page: np.ndarray, tiles: list[tuple[Box, int]], min_side: float, short: float
          ) -> list[tuple[Box, tuple[int, int, int]]]:
    """Icons drawn on a tile, chip or button: parts unlike the colour along the box's own edge, and
    clusters of those parts (four squares of an apps glyph, a fork beside a knife), per tile with the
    tile's colour. Parts are grouped, and chips taken, only where the rim is one flat colour (drawn, not
    a picture). Each tile comes with the contrast its rim needs against the page to be a tile at all;
    boxes whose rim is the page itself are skipped (their icons are proposed already)."""
    out: list[tuple[Box, tuple[int, int, int]]] = []
    for (x1, y1, x2, y2), contrast in tiles:
        if min(x2 - x1, y2 - y1) < 2.5 * min_side:
            continue
        crop = work[y1:y2, x1:x2]
        # a band a little inside the edge: the tile's colour, not an anti-aliased or framed rim
        band = crop[2:-2, 2:-2]
        edge = np.concatenate([band[:3].reshape(-1, 3), band[-3:].reshape(-1, 3),
                               band[:, :3].reshape(-1, 3), band[:, -3:].reshape(-1, 3)])
        tile = np.median(edge, axis=0)
        if np.abs(tile - page[(y1 + y2) // 2, (x1 + x2) // 2]).max() <= contrast:
            continue  # not a tile: the box's rim is the page
        # a drawn tile, chip or pill is one flat colour along its rim; a picture (a cap in a product
        # photo) is not, and its texture's parts are not grouped into an "icon"
        flat = (channel_max(np.abs(edge - tile)) <= TILE_CONTRAST // 2).mean() >= FLAT_RIM
        small = max(x2 - x1, y2 - y1) < TILE_SIDE * short
        if not (flat or small):
            continue  # a chip is taken only when drawn flat
        colour = (int(tile[0]), int(tile[1]), int(tile[2]))
        inside = (channel_max(np.abs(crop.astype(np.int16) - tile)) > TILE_CONTRAST)
        inside[:2], inside[-2:], inside[:, :2], inside[:, -2:] = False, False, False, False
        parts = [b for b in components(inside.astype(np.uint8))
                 if (b[2] - b[0]) * (b[3] - b[1]) < 0.95 * (x2 - x1) * (y2 - y1)]
        for bx1, by1, bx2, by2 in [*parts, *(g for g, _ in group(parts) if flat)]:
            out.append(((x1 + bx1, y1 + by1, x1 + bx2, y1 + by2), colour))
    return out


def faint_tiles(diff: np.ndarray, short: float) -> list[Box]:
    """Tiles barely unlike the page (a light-gray switch track, a gray disc behind a pin): solid
    tile-shaped components of the pixels a little unlike the page, mostly by less than a tile's contrast
    (a stronger one is proposed by the ordinary mask already)."""
    mask = (diff > FAINT).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out: list[Box] = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        box = (x, y, x + w, y + h)
        if min(w, h) < FAINT_MIN_SIDE * short or not tile_shaped(box, short) or area < FAINT_INK * w * h:
            continue
        own = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        outline, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if sum(cv2.contourArea(c) for c in outline) < FAINT_FILL * w * h:
            continue  # not a solid tile (holes such as a switch's knob are counted as filled)
        if (diff[y:y + h, x:x + w][own > 0] <= TILE_CONTRAST).mean() >= 0.5:
            out.append(box)
    return out


def bright(work: np.ndarray, page: np.ndarray) -> np.ndarray:
    """White ink over a darker picture: the icons of a video or photo (a heart, a speech bubble) are
    drawn white, and the picture's own texture glues them to it in the difference and edge masks."""
    ink = np.minimum(np.minimum(work[:, :, 0], work[:, :, 1]), work[:, :, 2]) >= BRIGHT_INK
    behind = np.minimum(np.minimum(page[:, :, 0], page[:, :, 1]), page[:, :, 2]) < BRIGHT_INK - BRIGHT_GAP
    return (ink & behind).astype(np.uint8)


def _spread(image: np.ndarray) -> np.ndarray:
    """Per pixel, its largest channel minus its smallest (0 for grays): how colourful it is."""
    b, g, r = cv2.split(image)
    return cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))


def vivid(work: np.ndarray, page: np.ndarray) -> np.ndarray:
    """(Not wired into find_regions: its parts of photos and logos won colour-only queries, two wrong taps
    in grounding_real.) Vivid ink over a dull picture: a red heart or a teal badge on a video is glued to
    the picture's texture in the difference mask, but is the only strong colour there. Where two vivid
    colours of different hue touch (a teal ring on a yellow stripe), the seam is cut so each is its own
    part."""
    ink = (_spread(work) >= VIVID) & (_spread(page) < DULL)
    ys, xs = np.nonzero(ink)
    if len(ys) == 0:
        return ink.astype(np.uint8)
    b, g, r = (work[ys, xs, c].astype(np.float32) for c in range(3))
    hue = np.full(ink.shape, np.nan, np.float32)
    hue[ys, xs] = np.degrees(np.arctan2(np.sqrt(3.0) * (g - b), 2 * r - g - b))
    seam = np.zeros(ink.shape, bool)
    for axis in (0, 1):
        step = np.abs(np.diff(hue, axis=axis))
        cut = np.minimum(step, 360 - step) > HUE_SEAM  # False where either side is not ink (nan)
        if axis == 0:
            seam[1:] |= cut
            seam[:-1] |= cut
        else:
            seam[:, 1:] |= cut
            seam[:, :-1] |= cut
    return (ink & ~seam).astype(np.uint8)
