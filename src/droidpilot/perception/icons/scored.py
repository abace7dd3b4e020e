"""A scored icon candidate and how it is shown: one region with the parts of its score, the same icon
seen by several regions kept once, and the candidate (with a crop for the model) a caller gets."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from PIL import Image

from droidpilot.perception.icons.candidates import Region, iou
from droidpilot.perception.icons.describe import IconDescription
from droidpilot.perception.icons.glyphs.match import best_glyphs
from droidpilot.perception.icons.learned import Verdict
from droidpilot.perception.types import Box, Candidate, box_center

MIN_COLOUR, MIN_SHAPE, MIN_POSITION = 0.6, 0.45, 0.5
INNER_GLYPH = 0.5  # a candidate inside a better-scored container that reads the asked glyph this well...
INNER_AREA = 0.5  # ...and covers at most this share of it is where the container is tapped
INNER_LEAD = 0.8  # ...and reads it at least this share as well as the container does
SLIVER = 0.007  # a candidate at most this share of the screen's short side thick...
FRAGMENT_GAP, FRAGMENT_SPAN = 2, 2.0  # px apart at most; the pair spans at most this many times the best
FRAGMENT_AREA = 1.5  # and the piece is at most this many times the best's area
SLIVER_LONG = 7.0  # ...and this many times as long is a line, no icon (a three-dot menu is about 5)


@dataclass
class ScoredIcon:
    """One candidate with its description and the parts of its score (None = not asked)."""

    region: Region
    description: IconDescription
    colour: float | None
    shape: float | None
    position: float | None
    ranker: float | None
    score: float
    reading: str = "icon"  # which reading of the candidate fitted best (icon, glyph, tile+glyph)
    glyph: float = 0.0  # the best fit of any reading to the asked glyphs (0 when none were asked)
    glyph_box: Box | None = None  # where the glyph is, when the reading that fitted is a tile's glyph
    verdict: Verdict | None = None  # the classifier on the best glyph reading (None: no classifier/glyph)

    @property
    def point(self) -> tuple[int, int]:
        """Where to tap: the glyph's centre when the glyph on a tile is what fitted (inside the tile
        either way, and on the glyph where the glyph alone is the button), else the region's centre."""
        return box_center(self.glyph_box or self.region.box)

    @property
    def matches(self) -> bool:
        """Does every asked part (colour, shape, position) fit well enough to count as the icon?"""
        return ((self.colour is None or self.colour >= MIN_COLOUR)
                and (self.shape is None or self.shape >= MIN_SHAPE)
                and (self.position is None or self.position >= MIN_POSITION))


def suppress(scored: list[ScoredIcon]) -> list[ScoredIcon]:
    """Keep the best of regions that are the same icon (overlapping or one inside the other), with the
    best glyph fit any of them had: a disc's glyph may read best from the region of its inside alone.
    A kept container (an avatar with its badge, a card around its button) is tapped on the asked glyph
    inside it (``_onto_inner``), not at its own centre, which may miss the glyph."""
    kept: list[ScoredIcon] = []
    for s in scored:
        b = s.region.box
        area = max(1, (b[2] - b[0]) * (b[3] - b[1]))
        dup = None
        for i, k in enumerate(kept):
            kb = k.region.box
            inter = max(0, min(b[2], kb[2]) - max(b[0], kb[0])) * max(0, min(b[3], kb[3]) - max(b[1], kb[1]))
            karea = max(1, (kb[2] - kb[0]) * (kb[3] - kb[1]))
            if iou(b, kb) > 0.4 or inter / min(area, karea) > 0.7:
                dup = i
                break
        if dup is None:
            kept.append(s)
            continue
        if _onto_inner(kept[dup], s):
            kept[dup] = replace(kept[dup], glyph_box=s.region.box)
        if s.glyph > kept[dup].glyph:
            kept[dup] = replace(kept[dup], glyph=s.glyph)
    return kept


def without_slivers(kept: list[ScoredIcon], size: tuple[int, int], asked_line: bool) -> list[ScoredIcon]:
    """The kept candidates (best first) without the runners-up that are slivers: SLIVER of the screen's
    short side thick or thinner and SLIVER_LONG times as long (a photo's edge, a disc's rim, a divider),
    no icon to tap, so no reason to doubt the best. The best stays whatever it is, and so do thin
    candidates when the query asks for a line ("minus sign")."""
    if asked_line or len(kept) < 2:
        return kept
    return kept[:1] + [s for s in kept[1:] if not _sliver(s.region.box, size)]


def without_fragments(kept: list[ScoredIcon]) -> list[ScoredIcon]:
    """The kept candidates (best first) without the runners-up that are another piece of the best's own
    icon: touching or overlapping it (FRAGMENT_GAP), not much larger (FRAGMENT_AREA), and together with
    it no more than FRAGMENT_SPAN times the best's size across (the two arrows of a swap glyph, a share
    glyph split off its disc). Tapping the best taps that icon either way."""
    if len(kept) < 2:
        return kept
    best = kept[0].region.box
    return kept[:1] + [s for s in kept[1:] if not _fragment_of(best, s.region.box)]


def _fragment_of(best: Box, box: Box) -> bool:
    bw, bh = best[2] - best[0], best[3] - best[1]
    gap_x = max(best[0] - box[2], box[0] - best[2])
    gap_y = max(best[1] - box[3], box[1] - best[3])
    touching = gap_x <= FRAGMENT_GAP and gap_y <= FRAGMENT_GAP
    smaller = (box[2] - box[0]) * (box[3] - box[1]) <= FRAGMENT_AREA * bw * bh
    span_x = max(best[2], box[2]) - min(best[0], box[0])
    span_y = max(best[3], box[3]) - min(best[1], box[1])
    return touching and smaller and span_x <= FRAGMENT_SPAN * bw and span_y <= FRAGMENT_SPAN * bh


def _sliver(box: Box, size: tuple[int, int]) -> bool:
    short, long = sorted((box[2] - box[0], box[3] - box[1]))
    return short <= SLIVER * min(size) and long >= SLIVER_LONG * max(1, short)


def _onto_inner(outer: ScoredIcon, inner: ScoredIcon) -> bool:
    """Is ``inner`` the asked glyph inside the better-scored ``outer`` (so the tap belongs on it)? It must
    lie inside, be clearly smaller, and read the asked glyph surely and nearly as well as the outer; an
    outer whose tap point is already on a glyph of its own keeps it."""
    ob, ib = outer.region.box, inner.region.box
    o_area = max(1, (ob[2] - ob[0]) * (ob[3] - ob[1]))
    i_area = (ib[2] - ib[0]) * (ib[3] - ib[1])
    within = ob[0] <= ib[0] and ob[1] <= ib[1] and ib[2] <= ob[2] and ib[3] <= ob[3]
    return (outer.glyph_box is None and within and i_area <= INNER_AREA * o_area
            and inner.glyph >= max(INNER_GLYPH, INNER_LEAD * outer.glyph))


def crop_with_box(image: np.ndarray, box: Box) -> Image.Image:
    """The region around ``box`` with the box drawn, for a model to choose among ambiguous icons."""
    h, w = image.shape[:2]
    margin = max(box[2] - box[0], box[3] - box[1], round(0.08 * min(w, h)))
    x1, y1 = max(0, box[0] - margin), max(0, box[1] - margin)
    x2, y2 = min(w, box[2] + margin), min(h, box[3] + margin)
    crop = np.ascontiguousarray(image[y1:y2, x1:x2]).copy()
    thick = max(2, round(0.004 * min(w, h)))
    cv2.rectangle(crop, (box[0] - x1, box[1] - y1), (box[2] - x1 - 1, box[3] - y1 - 1), (0, 0, 255), thick)
    return Image.fromarray(cv2.cvtColor(crop, cv2.COLOR_BGR2RGB))


def scored_details(s: ScoredIcon) -> dict[str, object]:
    """How a candidate was read and scored: the reading that fitted, the parts of the score, and the
    library glyphs it looks most like."""
    desc = s.description
    shape_of = desc.tile.descriptor if desc.tile is not None and s.reading != "icon" else desc.descriptor
    parts = {"colour": s.colour, "shape": s.shape, "position": s.position, "ranker": s.ranker}
    return {"reading": s.reading, "source": s.region.source,
            "parts": {k: round(v, 3) for k, v in parts.items() if v is not None},
            "looks_like": [n for n, sim in best_glyphs(shape_of, 3) if sim >= 0.8]}


def candidate(s: ScoredIcon, with_crop: Image.Image | None = None) -> Candidate:
    """The candidate as the caller sees it: box, tap point, score, description, crop and details."""
    return Candidate(box=s.region.box, point=s.point, score=round(s.score, 4),
                     description=s.description.text, crop=with_crop, details=scored_details(s))
