"""Icons drawn on a tile: a white arrow on a red disc, a white lens on a blue button.

People name such an icon by the tile's colour and the glyph's shape ("red up arrow"), by the glyph's own
colour ("white arrow"), or by the tile alone ("red circle"). ``find_tile`` looks inside a region whose
outline was found against the page for a solid tile colour with a glyph of another colour on it: the
glyph is the ink at least half as unlike the tile as its most unlike ink, clear of the tile's rim, and its
box on the screen is where to tap it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from droidpilot.perception.icons.colours import colour_distribution, dominant_colour
from droidpilot.perception.icons.glyphs.match import mask_descriptor
from droidpilot.perception.icons.imageio import channel_max
from droidpilot.perception.icons.shapes import classify_shape

GLYPH_THRESHOLD = 40  # max per-channel difference from the tile colour that still counts as tile
MIN_GLYPH, MAX_GLYPH = 0.01, 0.6  # glyph area as a share of the tile
EDGE_SHARE, INK_PERCENTILE = 0.5, 99  # the glyph's contrast: the 99th percentile of the core's difference


@dataclass
class Tile:
    """The glyph on a tile: its colour name (and distribution), shape class, and glyph descriptor."""

    colour: str
    colours: dict[str, float]
    shape: str
    shapes: dict[str, float] = field(default_factory=dict)
    descriptor: np.ndarray | None = None
    box: tuple[int, int, int, int] | None = None  # the glyph's ink box on the screen (x1, y1, x2, y2)


def _filled(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out


def _edge_level(diff: np.ndarray) -> float:
    """The difference from the tile at which a pixel is glyph: half the glyph's contrast (where an
    anti-aliased edge is half covered), never below GLYPH_THRESHOLD. A fixed low level swells a
    high-contrast glyph's thin strokes by their blur and fills a small outlined glyph's holes."""
    if diff.size == 0:
        return float(GLYPH_THRESHOLD)
    return max(float(GLYPH_THRESHOLD), EDGE_SHARE * float(np.percentile(diff, INK_PERCENTILE)))


def _off_rim(glyph: np.ndarray, core: np.ndarray, least: float) -> np.ndarray | None:
    """The glyph's components of some size, less those touching the rim of the tile's core when at
    least ``least`` pixels of ink (a glyph's least size) stay clear of it (None when nothing is left).

    A glyph sits inside its tile with a margin; ink on the core's rim is the page around a tile whose
    outline took some of the page in (a launcher tile on a wallpaper), or the tile's own shaded edge.
    Kept, a speck of it stretches the glyph's ink box and the glyph no longer reads as itself.
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(glyph, connectivity=8)
    total = int(glyph.sum())
    keep = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.02 * total]
    # the crop's edge counts as rim: a core reaching it is page the outline took in
    inner = cv2.erode(core, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    rim = (core > 0) & (inner == 0)
    on_rim = set(np.unique(labels[rim & (glyph > 0)]).tolist())
    inside = [i for i in keep if i not in on_rim]
    if sum(int(stats[i, cv2.CC_STAT_AREA]) for i in inside) >= max(1.0, least):
        keep = inside
    if not keep:
        return None
    return np.isin(labels, keep).astype(np.uint8)


def find_tile(crop: np.ndarray, mask: np.ndarray, origin: tuple[int, int] = (0, 0)) -> Tile | None:
    """The glyph on the tile that ``mask`` (pixels unlike the page) outlines in ``crop``, or None;
    ``origin`` is the crop's top-left pixel on the screen."""
    if min(mask.shape) < 12:
        return None
    filled = _filled(mask)
    area = int(filled.sum())
    if area < 100:
        return None
    k = max(1, round(0.06 * min(mask.shape)))
    core = cv2.erode(filled, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
    solid = mask[core > 0]
    if solid.size == 0 or solid.mean() < 0.5:
        return None  # mostly page inside the outline: an outlined glyph, not a tile
    tile_bgr = np.median(crop[(core > 0) & (mask > 0)], axis=0)
    diff = channel_max(np.abs(crop.astype(np.int16) - tile_bgr.astype(np.int16)))
    glyph = (core > 0) & (diff > _edge_level(diff[core > 0]))
    glyph_mask = _off_rim(glyph.astype(np.uint8), core, MIN_GLYPH * area)
    if glyph_mask is None or not MIN_GLYPH <= float(glyph_mask.sum()) / area <= MAX_GLYPH:
        return None
    inner = cv2.erode(glyph_mask, np.ones((3, 3), np.uint8))
    pixels = crop[inner > 0] if int(inner.sum()) >= 0.2 * glyph_mask.sum() else crop[glyph_mask > 0]
    colours = colour_distribution(pixels)
    colour, _ = dominant_colour(colours)
    shape, _, shapes = classify_shape(glyph_mask * 255)
    ys, xs = np.nonzero(glyph_mask)
    ox, oy = origin
    box = (ox + int(xs.min()), oy + int(ys.min()), ox + int(xs.max()) + 1, oy + int(ys.max()) + 1)
    return Tile(colour, colours, shape, shapes, mask_descriptor(glyph_mask), box)
