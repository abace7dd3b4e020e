"""The ways a person may name one candidate: as an icon on the page, or as a glyph on a tile.

A white arrow on a red disc is "red circle" (the tile alone: the ``icon`` reading), "white arrow" (the
``glyph`` reading) or "red arrow" (``tile+glyph``: the tile's colour with the glyph's shape). A query is
scored against every reading of a candidate and the best one counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from droidpilot.perception.icons.colours import colour_distribution
from droidpilot.perception.icons.describe import IconDescription


@dataclass(frozen=True)
class Reading:
    """One reading of a candidate: colour distribution, drawn-class probabilities, glyph descriptor."""

    label: str
    colours: dict[str, float]
    shapes: dict[str, float]
    descriptor: np.ndarray | None
    solidity: float | None = None  # ink share of the silhouette, where known (filled vs outlined)
    glyph_box: tuple[int, int, int, int] | None = None  # on screen, when the reading is a tile's glyph


def readings_of(desc: IconDescription, tile_bgr: tuple[int, int, int] | None = None) -> list[Reading]:
    """Every reading of a described candidate; ``tile_bgr`` is the tile an "inner" region sits on."""
    out = [Reading("icon", desc.colours, desc.shapes, desc.descriptor, desc.solidity)]
    for colour, descriptor, shapes in desc.parts:  # one colour of a two-coloured region (no badge)
        out.append(Reading(f"{colour} part", {colour: 1.0}, shapes, descriptor))
    if desc.tile is not None:
        t = desc.tile
        if t.colour != desc.colour:  # a glyph of the tile's own colour (a selected lens's inner disc) is
            # a two-tone drawing, not another colour to name it by: the tile+glyph reading carries it
            out.append(Reading("glyph", t.colours, t.shapes, t.descriptor, glyph_box=t.box))
        out.append(Reading("tile+glyph", desc.colours, t.shapes, t.descriptor, glyph_box=t.box))
    if tile_bgr is not None:
        tile_colours = colour_distribution(np.array([tile_bgr], np.uint8))
        out.append(Reading("tile+glyph", tile_colours, desc.shapes, desc.descriptor))
    return out
