"""Icon localization: Mobile-Agent's ``click icon (red heart, bottom)`` turned into a tap point.

Candidates (OpenCV regions, plus a detector's boxes when one is given) are described by colour and
shape, then ranked by how well they fit the asked colour, shape and position; a ranker plug-in (CLIP)
adds its score when given. What is answered (found / ambiguous / not_found / too_many, as for text) is
decided in outcome.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from droidpilot.perception.icons.anchors import anchor_boxes, nearness, reads_text
from droidpilot.perception.icons.candidates import Region, find_regions, iou
from droidpilot.perception.icons.colours import colour_match
from droidpilot.perception.icons.crop_text import icon_text_boxes
from droidpilot.perception.icons.describe import PLAIN, IconDescription, describe_region
from droidpilot.perception.icons.glyphs.match import glyph_fits
from droidpilot.perception.icons.imageio import to_bgr
from droidpilot.perception.icons.learned import Verdict, learned_verdicts
from droidpilot.perception.icons.outcome import decide
from droidpilot.perception.icons.placement import position_score, where_on_screen
from droidpilot.perception.icons.plugins import Detector, Ranker, plugins_from_env
from droidpilot.perception.icons.query import IconQuery, parse_icon_query
from droidpilot.perception.icons.readings import Reading, readings_of
from droidpilot.perception.icons.row_labels import named_rows, one_row, row_nearness
from droidpilot.perception.icons.scene import (
    Scene,
    avatar_discs,
    named_colour,
    only_names,
    read_scene,
    screen_labels,
)
from droidpilot.perception.icons.scored import ScoredIcon, suppress
from droidpilot.perception.types import Box, LocateResult, OcrLine, box_center

__all__ = ["ScoredIcon", "describe_icons", "locate_icon", "rank_icons", "score_regions", "where_on_screen"]

DRAWN_WITH_GLYPHS = 0.6  # weight of the drawn shape class when the query also names glyphs
GLYPH_ON_DRAWN = 0.4  # what the candidate's best glyph fit adds to a fitting drawn class (up to 1.0)
CHAR_GLYPH_FIT = 0.8  # glyph fit a lone character OCR read ("3" for a heart outline) needs to be an icon
FILLED_ABOVE, OUTLINED_BELOW = 0.8, 0.55  # ink share of the silhouette of a filled / an outlined icon
LABEL_PEERS = 0.25  # candidates within this share of the best score are ordered by nearness to a label
STATUS_BAR = 0.04  # the top share of the screen taken by the system status bar
LEARNED = 1.0  # share of what the descriptor fit leaves to 1 that the classifier may add (tune and report)
ROW_FLOOR = 0.3  # share of its score a candidate far from the row the query names keeps
LEARNED_FLOOR = 0.1  # a probability up to this (of ~2000 classes) is the classifier unsure: it adds nothing
LOGO_OVER_LABEL = 0.5  # a candidate the classifier is this sure is the asked brand's logo keeps its score


def blend_fits(fits: list[float], learned: list[float] | None) -> list[float]:
    """Each reading's glyph fit raised by the classifier's probability p for the asked glyphs (above
    LEARNED_FLOOR, rescaled to 0..1): f + LEARNED * p * (1 - f). It only adds: a real icon from another
    icon set keeps the fit the descriptor gave it, and of look-alikes with equal fits the one the
    classifier names gains; an unsure classifier does not lift every candidate a little (which would
    shrink the lead of a weak but clear standout). The descriptor fit alone without a classifier."""
    if learned is None:
        return fits
    sure = [max(0.0, (p - LEARNED_FLOOR) / (1.0 - LEARNED_FLOOR)) for p in learned]
    return [f + LEARNED * p * (1.0 - f) for f, p in zip(fits, sure, strict=True)]


def _shape_fit(shapes: dict[str, float], shape: str) -> float:
    if not shapes:
        return 0.0
    best = max(shapes.values())
    return min(1.0, shapes.get(shape, 0.0) / max(0.5, best))


def style_fit(solidity: float | None, style: str | None) -> float:
    """How well an icon's fill (ink share of its silhouette) fits "filled" / "outlined"; 1.0 if unasked."""
    if style is None or solidity is None:
        return 1.0
    filled = min(1.0, max(0.0, (solidity - OUTLINED_BELOW) / (FILLED_ABOVE - OUTLINED_BELOW)))
    return 0.25 + 0.75 * (filled if style == "filled" else 1.0 - filled)


def _reading_scores(readings: list[Reading], query: IconQuery, glyph_fit: list[float]
                    ) -> tuple[float | None, float | None, Reading]:
    """(colour fit, shape fit, reading) of the reading that fits the query best."""
    best: tuple[float, float | None, float | None, Reading] | None = None
    inside = max(glyph_fit, default=0.0)  # the glyph as any reading sees it (the one on a tile)
    outline_asked = query.shape in PLAIN and not query.glyphs
    for r, g in zip(readings, glyph_fit, strict=True):
        if outline_asked and r.label == "tile+glyph" and r.glyph_box is not None:
            continue  # "cyan circle" is a cyan disc, not a ring drawn on a cyan tile (a selected lens)
        c = colour_match(r.colours, query.colour) if query.colour else None
        s = None
        if query.has_shape:
            drawn = _shape_fit(r.shapes, query.shape) if query.shape else 0.0
            # with glyphs to compare, the drawn classes (coarse, eleven) only back them up; a tile's
            # outline (circle, square) that fits counts more with the asked glyph on it ("blue circle
            # with bell": of the blue discs, the one whose glyph reads as a bell first). A symbol class
            # (cross, arrow) names the glyph itself: a look-alike's fit (a plus for an x) adds nothing.
            on_tile = GLYPH_ON_DRAWN * inside if query.shape in PLAIN else 0.0
            backed = drawn * (DRAWN_WITH_GLYPHS + on_tile)
            s = max(backed, g) if query.glyphs else drawn
            s *= style_fit(r.solidity, query.style)
        looks = (0.05 + 0.95 * c if c is not None else 1.0) * (0.05 + 0.95 * s if s is not None else 1.0)
        if best is None or looks > best[0]:
            best = (looks, c, s, r)
    assert best is not None
    return best[1], best[2], best[3]


@dataclass(frozen=True)
class _TextCues:
    """OCR lines the query points at: lines reading the icon's own text, and the label it is next to."""

    inside: list[Box]
    labels: list[Box]
    scene: Scene  # the app's label, the named container
    rows: list[Box] = field(default_factory=list)  # text rows the query's words name (row_labels)


def score_regions(image: np.ndarray, regions: Sequence[Region], query: IconQuery,
                  ranker: Ranker | None = None, lines: Sequence[OcrLine] = (), scene: Scene | None = None
                  ) -> list[ScoredIcon]:
    """Describe and score every region against the query (each of its readings), best first.

    The place words are a preference, not a filter: regions far from an asked place (position score 0)
    are described only when no region in place fits the query (describing is most of a query's cost),
    and then rank below every region in place. With OCR ``lines``, a line reading the icon's
    text ("LIVE") is a candidate and a label the icon is next to weighs candidates by nearness. The
    ``scene`` (scene.read_scene) makes the tile an app's label names the icon and weighs by a container.
    """
    scene = scene or Scene()
    labels = anchor_boxes(lines, query.anchor)
    rows = [] if labels or scene.labels or scene.container else named_rows(lines, query, image.shape[0])
    if labels and query.anchor_row and one_row(labels):  # "switch for Airplane mode": that row's switch
        labels, rows = [], labels
    cues = _TextCues(icon_text_boxes(image, regions, query, lines), labels, scene, rows)
    known = [r.box for r in regions]
    regions = [*regions, *(Region(b, "text") for b in cues.inside
                           if (query.status_bar or not in_status_bar(b, image.shape[0]))
                           and not any(iou(b, k) > 0.5 for k in known))]
    regions += [Region(b, "avatar") for b in avatar_discs(image, cues.inside, lines)
                if not any(iou(b, r.box) > 0.7 for r in regions)]
    if not query.position.given:
        return _score(image, regions, query, ranker, cues)
    h, w = image.shape[:2]
    near = [position_score(box_center(r.box), (w, h), query.position) > 0 for r in regions]
    scored = _score(image, [r for r, n in zip(regions, near, strict=True) if n], query, ranker, cues)
    if any(s.matches for s in scored):
        return scored
    far = _score(image, [r for r, n in zip(regions, near, strict=True) if not n], query, ranker, cues)
    return scored + far  # every region in place first, however weak: the place orders before the looks


def _score(image: np.ndarray, regions: Sequence[Region], query: IconQuery, ranker: Ranker | None,
           cues: _TextCues) -> list[ScoredIcon]:
    h, w = image.shape[:2]
    descs = [describe_region(image, r.box, r.background) for r in regions]
    readings = [readings_of(d, r.background) for r, d in zip(regions, descs, strict=True)]
    flat = [rd.descriptor for rs in readings for rd in rs]
    verdicts = learned_verdicts(flat, query.glyphs) if query.glyphs else None
    asked = None if verdicts is None else [v.asked for v in verdicts]
    fits = blend_fits(glyph_fits(flat, query.glyphs), asked) if query.glyphs else [0.0] * len(flat)
    rank_scores: list[float | None] = [None] * len(regions)
    if ranker is not None and regions:
        crops = [image[r.box[1]:r.box[3], r.box[0]:r.box[2]] for r in regions]
        rank_scores = list(ranker.score(crops, query.text))
    out = []
    at = 0
    for region, desc, rd, rs in zip(regions, descs, readings, rank_scores, strict=True):
        c, s, reading = _reading_scores(rd, query, fits[at:at + len(rd)])
        label, glyph_box = reading.label, reading.glyph_box
        at += len(rd)
        glyph_fit = max(fits[at - len(rd):at], default=0.0)
        verdict = _verdict_of(verdicts[at - len(rd):at], fits[at - len(rd):at]) if verdicts else None
        if query.texts:  # the icon's own text, read by OCR, fits fully; an icon without it cannot
            if reads_text(region.box, cues.inside):
                s, label, c, glyph_box = 1.0, "text", named_colour(c), None
            elif s is None:
                s = 0.0
        if cues.scene.labels and cues.scene.naming(region.box) > 0:  # its label names the app
            s, label, c, glyph_box = 1.0, "app label", named_colour(c), None
        if region.source == "char" and label != "text" and (not query.glyphs or glyph_fit < CHAR_GLYPH_FIT):
            continue  # text, unless the asked glyph clearly fits it
        p = position_score(box_center(region.box), (w, h), query.position) if query.position.given else None
        if query.status_bar:  # "battery, status bar": the bar is a place; an icon below it does not fit
            p = (1.0 if p is None else p) * (box_center(region.box)[1] <= STATUS_BAR * h)
        looks = 1.0
        for part in (c, s):
            if part is not None:
                looks *= 0.05 + 0.95 * part
        if rs is not None:
            looks = 0.5 * looks + 0.5 * float(rs)
        score = looks * (0.1 + 0.9 * p if p is not None else 1.0)
        score *= cues.scene.weight(region.box, desc.colours)
        out.append(ScoredIcon(region, desc, c, s, p, rs, score, label, glyph_fit, glyph_box, verdict))
    if cues.scene.labels:
        for s, weight in zip(out, cues.scene.naming_weights([s.region.box for s in out]), strict=True):
            s.score *= 1.0 if query.brands and sure_logo(s) else weight
    if cues.labels:
        _weigh_by_label(out, cues.labels)
    elif cues.rows:
        _weigh_by_row(out, cues.rows)
    out.sort(key=lambda x: x.score, reverse=True)
    return out


def sure_logo(s: ScoredIcon) -> bool:
    """Is the classifier sure the candidate is the asked brand's logo (LOGO_OVER_LABEL)? Then a label
    naming the brand elsewhere (a store's "WhatsApp Business" row for "small whatsapp icon") does not
    push it below the tile that label names: a brand's logo is its own name."""
    return s.verdict is not None and s.verdict.asked >= LOGO_OVER_LABEL


def _verdict_of(verdicts: list[Verdict], fits: list[float]) -> Verdict | None:
    """The classifier's verdict on the reading whose glyph fit is the candidate's (its best), or None."""
    if not verdicts:
        return None
    return verdicts[max(range(len(fits)), key=fits.__getitem__)]


def _weigh_by_label(scored: list[ScoredIcon], labels: list[Box]) -> None:
    """Weigh scores by nearness to the label, relative to the nearest of the candidates that look at
    all like the icon (a quarter of the best score), so the label orders them without lowering the
    confidence in the one beside it."""
    near = [nearness(s.region.box, labels) for s in scored]
    best = max((s.score for s in scored), default=0.0)
    top = max((n for s, n in zip(scored, near, strict=True) if s.score >= LABEL_PEERS * best), default=1.0)
    for s, n in zip(scored, near, strict=True):
        s.score *= min(1.0, n / top)


def _weigh_by_row(scored: list[ScoredIcon], rows: list[Box]) -> None:
    """Weigh scores by nearness to the rows the query names (row_labels), relative to the nearest of
    the candidates that look at all like the icon, as _weigh_by_label does: of one icon repeated down a
    list, the one in the named row keeps its score and the others fall toward ROW_FLOOR."""
    near = [row_nearness(s.region.box, rows) for s in scored]
    best = max((s.score for s in scored), default=0.0)
    top = max((n for s, n in zip(scored, near, strict=True) if s.score >= LABEL_PEERS * best), default=1.0)
    for s, n in zip(scored, near, strict=True):
        s.score *= ROW_FLOOR + (1.0 - ROW_FLOOR) * min(1.0, n / max(top, 1e-9))


def locate_icon(image: Any, description: str, position: str | None = None,
                ocr_lines: Sequence[OcrLine] | None = None, ranker: Ranker | None = None,
                detector: Detector | None = None) -> LocateResult:
    """Find the icon a model described ("red heart", optionally with a position such as "bottom").

    ``image`` is a path, bytes, a PIL image or an RGB array; boxes and points are in its pixels.
    ``ocr_lines`` (when known) keep text from being taken for icons. Without an explicit ranker or
    detector, the ones named by ``DROIDPILOT_ICON_RANKER`` / ``DROIDPILOT_ICON_DETECTOR`` are used (none
    by default). Raises InputError for a description with neither a colour nor a shape word, and
    PluginUnavailable when a plug-in asked for cannot load.
    """
    query = parse_icon_query(description, position, names_ok=True)
    if ranker is None and detector is None:
        ranker, detector = plugins_from_env()
    bgr = to_bgr(image)
    query, scene = read_scene(bgr, query, ocr_lines or ())
    if only_names(query) and not scene.labels:  # "frobnicator icon": no label, no brand, no looks
        labels = screen_labels(ocr_lines or (), bgr.shape[0])
        return LocateResult("not_found", [], labels, query.to_dict())
    regions = find_regions(bgr, ocr_lines)
    if detector is not None:
        regions = [Region(box, "detector") for box, _ in detector.detect(bgr)] + regions
    if not query.status_bar:
        regions = [r for r in regions if not in_status_bar(r.box, bgr.shape[0])]
    scored = score_regions(bgr, regions, query, ranker, ocr_lines or (), scene)
    result = decide(bgr, query, scene, scored, ocr_lines or ())
    result.query = query.to_dict()
    return result


def rank_icons(image: Any, description: str, position: str | None = None,
               ocr_lines: Sequence[OcrLine] | None = None) -> list[ScoredIcon]:
    """Every candidate scored against the description, best first, one per icon (for recall@k)."""
    query = parse_icon_query(description, position, names_ok=True)
    bgr = to_bgr(image)
    query, scene = read_scene(bgr, query, ocr_lines or ())
    regions = [r for r in find_regions(bgr, ocr_lines)
               if query.status_bar or not in_status_bar(r.box, bgr.shape[0])]
    return suppress(score_regions(bgr, regions, query, lines=ocr_lines or (), scene=scene))


def in_status_bar(box: Box, height: int) -> bool:
    """Is the box inside the system status bar (the top STATUS_BAR share of the screen)?"""
    return box[3] <= STATUS_BAR * height


def describe_icons(image: Any, ocr_lines: Sequence[OcrLine] | None = None
                   ) -> list[tuple[Region, IconDescription]]:
    """Every candidate icon on a screen with its description, largest first (for debugging taps)."""
    bgr = to_bgr(image)
    return [(r, describe_region(bgr, r.box, r.background)) for r in find_regions(bgr, ocr_lines)]
