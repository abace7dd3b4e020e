"""Describe a candidate region in Mobile-Agent's words: dominant colour name and shape class.

The foreground is found locally: the colour of a thin ring around the box is the background, and the
pixels that differ from it are the icon. Colours are read from those pixels only, so a red heart on a
white page is "red", and a white plus on a blue button is "white".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from droidpilot.perception.icons.colours import (
    COLOUR_NAMES,
    colour_distribution,
    dominant_colour,
    pixel_names,
)
from droidpilot.perception.icons.glyphs.match import best_glyphs, mask_descriptor
from droidpilot.perception.icons.glyphs.vocabulary import glyph_word
from droidpilot.perception.icons.imageio import channel_max
from droidpilot.perception.icons.shapes import classify_shape
from droidpilot.perception.icons.tiles import Tile, find_tile
from droidpilot.perception.types import Box

PART_MIN, PART_MAX = 0.15, 0.85  # colour shares that make a region two-coloured (icon + badge)
FG_THRESHOLD = 24  # max per-channel difference from the local background that makes a pixel "icon"
LOOKS_LIKE = 0.85  # similarity to a library glyph at which a candidate is named after that glyph
SURE_CLASS = 0.6  # confidence in a plain drawn class (circle, square) at which a region is named after it
PLAIN = ("circle", "square", "rounded square", "rectangle", "line")  # drawn classes of tiles, not symbols


@dataclass
class IconDescription:
    """What a region looks like: colour name (and distribution), shape class (and probabilities)."""

    colour: str
    colour_share: float
    shape: str
    shape_confidence: float
    colours: dict[str, float] = field(default_factory=dict)
    shapes: dict[str, float] = field(default_factory=dict)
    background: tuple[int, int, int] = (0, 0, 0)  # BGR
    fill: float = 0.0  # share of the box covered by the icon
    descriptor: np.ndarray | None = None  # the mask's glyph descriptor (glyphs.match)
    tile: Tile | None = None  # when the region is a tile or button with a glyph drawn on it
    # (colour, glyph descriptor, drawn-class probabilities of that colour's pixels) for each colour
    # sharing a two-colour region: a gray bell under a red badge is read as the gray part alone, and the
    # badge alone; a white magnifier on a busy video frame as its white strokes
    parts: list[tuple[str, np.ndarray, dict[str, float]]] = field(default_factory=list)
    solidity: float = 1.0  # ink share of the icon's silhouette: near 1 filled, low for an outline

    @property
    def text(self) -> str:
        """E.g. "red heart", "white arrow on red circle"; the shape word is left out when no class fits."""
        own = self.colour if self.shape == "unknown" else f"{self.colour} {self.shape}"
        if self.tile is None:
            return own
        glyph = self.tile.colour if self.tile.shape == "unknown" else f"{self.tile.colour} {self.tile.shape}"
        return f"{glyph} on {own}"


def _shape_words(descriptor: np.ndarray | None, shape: str, confidence: float) -> str:
    """The glyph the shape looks like ("gear"), else a plain drawn class it surely is, else "icon": the
    drawn symbol classes (star, arrow, plus) read most real icons as one of themselves."""
    best = best_glyphs(descriptor, 1)
    if best and best[0][1] >= LOOKS_LIKE:
        return glyph_word(best[0][0])
    return shape if shape in PLAIN and confidence >= SURE_CLASS else "icon"


def named(desc: IconDescription) -> str:
    """Words a model can check on the screen: "gray gear", "white share on red circle", "blue icon";
    never a drawn class (star, arrow) the candidate only vaguely resembles."""
    own = f"{desc.colour} {_shape_words(desc.descriptor, desc.shape, desc.shape_confidence)}"
    if desc.tile is None:
        return own
    tile = desc.tile
    glyph = f"{tile.colour} {_shape_words(tile.descriptor, tile.shape, tile.shapes.get(tile.shape, 0.0))}"
    under = desc.shape if desc.shape in PLAIN and desc.shape_confidence >= SURE_CLASS else "tile"
    return f"{glyph} on {desc.colour} {under}"


def _pad(box: Box, background: tuple[int, int, int] | None) -> int:
    """The margin read around a box for its page colour (none when the caller knows the background)."""
    return max(2, round(0.08 * min(box[2] - box[0], box[3] - box[1]))) if background is None else 0


def foreground_mask(image: np.ndarray, box: Box, background: tuple[int, int, int] | None = None
                    ) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int]]:
    """(crop, mask, background BGR) for ``box``: the mask marks pixels unlike the ring around the box
    (or unlike ``background`` when the caller knows it, e.g. the tile an icon is drawn on)."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    pad = _pad(box, background)
    px1, py1, px2, py2 = max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad)
    crop = image[py1:py2, px1:px2]
    ring = np.concatenate([crop[:2].reshape(-1, 3), crop[-2:].reshape(-1, 3), crop[:, :2].reshape(-1, 3),
                           crop[:, -2:].reshape(-1, 3)])
    bg = np.median(ring, axis=0).astype(np.int16) if background is None else np.array(background, np.int16)
    diff = channel_max(np.abs(crop.astype(np.int16) - bg))
    mask = (diff > FG_THRESHOLD).astype(np.uint8)
    # Keep only the parts that reach into the box itself (not bits of neighbours in the padding).
    inner = np.zeros_like(mask)
    inner[y1 - py1:y2 - py1, x1 - px1:x2 - px1] = 1
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    if count > 1:
        hit = np.unique(labels[(inner > 0) & (mask > 0)])
        mask = np.isin(labels, hit[hit > 0]).astype(np.uint8)
    return crop, mask, (int(bg[0]), int(bg[1]), int(bg[2]))


def describe_mask(crop: np.ndarray, mask: np.ndarray, background: tuple[int, int, int] = (0, 0, 0),
                  origin: tuple[int, int] = (0, 0)) -> IconDescription:
    """Describe an icon given its crop and foreground mask (as from ``foreground_mask``); ``origin`` is
    where the crop's top-left pixel lies on the screen (for the box of a glyph on a tile)."""
    core = cv2.erode(mask, np.ones((3, 3), np.uint8))
    # Anti-aliased rims mix icon and page colours; read the core when there is one.
    pixels = crop[core > 0] if int(core.sum()) >= max(6, 0.2 * int(mask.sum())) else crop[mask > 0]
    colours = colour_distribution(pixels)
    colour, share = dominant_colour(colours)
    shape, confidence, shapes = classify_shape(mask * 255)
    fill = float(mask.sum()) / max(1, mask.size)
    parts: list[tuple[str, np.ndarray, dict[str, float]]] = []
    if share <= PART_MAX:  # a second colour (a badge on a corner, a dot): read each colour alone
        names = pixel_names(crop).reshape(mask.shape)
        for name, part_share in colours.items():
            if part_share >= PART_MIN:
                part = ((mask > 0) & (names == COLOUR_NAMES.index(name))).astype(np.uint8)
                d = mask_descriptor(part)
                if d is not None:
                    parts.append((name, d, classify_shape(part * 255)[2]))
    return IconDescription(colour, share, shape, confidence, colours, shapes, background, fill,
                           mask_descriptor(mask), find_tile(crop, mask, origin), parts, ink_solidity(mask))


def ink_solidity(mask: np.ndarray) -> float:
    """Share of the mask's silhouette (its outer outlines filled) that is ink: 1.0 for a filled icon."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    silhouette = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(silhouette, contours, -1, 1, thickness=cv2.FILLED)
    return float((mask > 0).sum()) / max(1, int(silhouette.sum()))


def describe_region(image: np.ndarray, box: Box, background: tuple[int, int, int] | None = None
                    ) -> IconDescription:
    """Describe the icon inside ``box`` of a BGR screenshot (on ``background`` when known)."""
    crop, mask, bg = foreground_mask(image, box, background)
    if int(mask.sum()) == 0:
        return IconDescription("gray", 0.0, "unknown", 0.0, {}, {}, bg, 0.0)
    pad = _pad(box, background)
    return describe_mask(crop, mask, bg, (max(0, box[0] - pad), max(0, box[1] - pad)))
