"""Icons drawn on a tile: a white arrow on a red disc, a white lens on a blue button.

People name such an icon by the tile's colour and the glyph's shape ("red up arrow"), by the glyph's own
colour ("white arrow"), or by the tile alone ("red circle"). ``find_tile`` looks inside a region whose
outline was found against the page for a solid tile colour with a glyph of another colour on it.
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


@dataclass
class Tile:
    """The glyph on a tile: its colour name (and distribution), shape class, and glyph descriptor."""

    colour: str
    colours: dict[str, float]
    shape: str
    shapes: dict[str, float] = field(default_factory=dict)
    descriptor: np.ndarray | None = None


def _filled(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out


def find_tile(crop: np.ndarray, mask: np.ndarray) -> Tile | None:
    """The glyph on the tile that ``mask`` (pixels unlike the page) outlines in ``crop``, or None."""
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
    glyph = (core > 0) & (channel_max(np.abs(crop.astype(np.int16) - tile_bgr.astype(np.int16)))
                          > GLYPH_THRESHOLD)
    share = float(glyph.sum()) / area
    if not MIN_GLYPH <= share <= MAX_GLYPH:
        return None
    glyph_mask = glyph.astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(glyph_mask, connectivity=8)
    keep = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.02 * glyph.sum()]
    glyph_mask = np.isin(labels, keep).astype(np.uint8)
    inner = cv2.erode(glyph_mask, np.ones((3, 3), np.uint8))
    pixels = crop[inner > 0] if int(inner.sum()) >= 0.2 * glyph_mask.sum() else crop[glyph_mask > 0]
    colours = colour_distribution(pixels)
    colour, _ = dominant_colour(colours)
    shape, _, shapes = classify_shape(glyph_mask * 255)
    return Tile(colour, colours, shape, shapes, mask_descriptor(glyph_mask))
