"""What locate_icon answers, from the scored candidates: found, ambiguous, not_found or too_many.

- found: one candidate fits every asked part (colour, shape, place) and nothing else scores near it; or
  near-equal ones are told apart by their glyph (glyph_over_drawn) or by the place words (most_toward);
  or, though none fits fully, one reads as the asked glyph far better than any other while its colour
  and place fit clearly (standout); or it is the one candidate inside the named container (alone_inside).
  Of the few that would be shown to the model, the best-scored one the learned classifier is sure of
  (classifier_say.named_among) is tapped without asking.
- ambiguous: a few (at most MAX_AMBIGUOUS) candidates are equally likely, or the best is not sure
  (below CONFIDENT) or part of the words was not understood, or no shape fits but the asked colour and
  place single out a few (unsure_shape), or a weak shape reading is all that names the best and it has
  no clear lead (shape_alone_unsure): the model picks among them (set-of-marks).
  Last, an ambiguous answer whose first candidate fits every asked part and leads in score and in the
  classifier's probability by enough that a fitted rule (settle.py) puts it right at least 2/3 of the
  time is tapped (a wrong tap costs two questions).
- not_found: nothing fits colour and place (or too many do, with no shape to tell them apart); the
  closest candidates are named so the agent can scroll or rephrase.
- too_many: more near-equal candidates than a model can be shown.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from droidpilot.perception.icons.anchors import anchor_boxes, reads_text
from droidpilot.perception.icons.classifier_say import named_among
from droidpilot.perception.icons.context import inside
from droidpilot.perception.icons.describe import named
from droidpilot.perception.icons.placement import most_toward, where_on_screen
from droidpilot.perception.icons.query import IconQuery
from droidpilot.perception.icons.row_labels import named_rows
from droidpilot.perception.icons.scene import Scene
from droidpilot.perception.icons.scored import (
    MIN_COLOUR,
    MIN_POSITION,
    ScoredIcon,
    candidate,
    crop_with_box,
    suppress,
    without_fragments,
    without_slivers,
)
from droidpilot.perception.icons.settle import Offered, settles
from droidpilot.perception.types import LocateResult, OcrLine, box_center

MAX_AMBIGUOUS = 4
TIE_RATIO = 0.8  # candidates scoring at least this share of the best are indistinguishable from it
CONFIDENT = 0.45  # a best score below this is shown to the model with its runners-up (set-of-marks)
STANDOUT_SHAPE, STANDOUT_RATIO = 0.075, 2.0  # a weak (styled, x0.75) fit still wins at twice the runner-up
STANDOUT_FIT = 0.8  # how well an asked colour and place must fit a standout: a weak lead needs them clear
STANDOUT_SHAPE_ONLY = 2.5  # the lead a standout needs when no colour is named: place and shape alone
GLYPH_LEAD = 0.5  # a glyph fit twice every other tie's sets the best apart from discs that merely tie
GLYPH_ALONE = 0.25  # the glyph fit that, so set apart, picks one of tiles tying on colour and outline
SURE_SHAPE = 0.8  # a shape fit from here on reads the asked glyph surely; below, it is a weak reading


def decide(bgr: np.ndarray, query: IconQuery, scene: Scene, scored: list[ScoredIcon],
           lines: Sequence[OcrLine], settle: bool = True) -> LocateResult:
    """The answer for the scored candidates (best first): the rules of icon_outcome, then the one
    candidate inside a named container when nothing else was found, then the few that colour and place
    single out when only the shape is unsure (the model picks among them); last, with ``settle``, an
    ambiguous answer whose first candidate the fitted rule (settle.py) trusts is tapped."""
    result = icon_outcome(bgr, query, scored)
    if result.status == "not_found" and (alone := alone_inside(query, scene, scored, lines)):
        return LocateResult("found", [candidate(alone)])
    if result.status == "not_found" and (few := unsure_shape(query, scored)):
        result = LocateResult("ambiguous", [candidate(s, crop_with_box(bgr, s.region.box)) for s in few])
    if result.status == "ambiguous" and not query.unknown and (
            row := alone_in_row(bgr, query, scene, scored, result, lines)) is not None:
        return LocateResult("found", [candidate(row)])
    if settle and result.status == "ambiguous" and not query.unknown and (
            first := settled(query, scored, result)) is not None:
        return LocateResult("found", [candidate(first)])
    return result


def _offered(scored: list[ScoredIcon], result: LocateResult) -> list[ScoredIcon] | None:
    """The scored candidates an ambiguous answer offers, in its order (None if one is not among them)."""
    by_box: dict[tuple[int, int, int, int], ScoredIcon] = {}
    for s in suppress(scored):
        by_box.setdefault(s.region.box, s)
    offered = [by_box.get(c.box) for c in result.candidates]
    return None if any(s is None for s in offered) else [s for s in offered if s is not None]


def alone_in_row(bgr: np.ndarray, query: IconQuery, scene: Scene, scored: list[ScoredIcon],
                 result: LocateResult, lines: Sequence[OcrLine]) -> ScoredIcon | None:
    """The first of an ambiguous answer's candidates when it is the only one offered in the row of a
    label the query names ("arrow pointing up left next to gas station": a list repeats the arrow once a
    row, and the label's row holds one), fitting every asked part; else None. The labels are the lines
    "next to" names (anchors.py) or the row the query's words name (row_labels.py); the label typed in
    the search field as well holds no offered candidate in its row. Two offered in labels' rows (an icon
    left of the label and a chevron right of it, or two rows reading the label) stay a question."""
    labels = anchor_boxes(lines, query.anchor)
    if not labels and not scene.labels and scene.container is None:
        labels = named_rows(lines, query, bgr.shape[0])
    offered = _offered(scored, result) if labels else None
    if not offered or len(offered) < 2:
        return None
    in_row = [s for s in offered if any(in_label_row(s.region.box, lb) for lb in labels)]
    first = offered[0]
    return first if in_row == [first] and first.matches else None


def in_label_row(box: tuple[int, int, int, int], label: tuple[int, int, int, int]) -> bool:
    """Is the candidate's middle level with the label: within its height, give or take half of it (a
    row's icon is centred on its title and the line under it)?"""
    h = label[3] - label[1]
    middle = (box[1] + box[3]) / 2
    return label[1] - 0.5 * h <= middle <= label[3] + 0.5 * h


def settled(query: IconQuery, scored: list[ScoredIcon], result: LocateResult) -> ScoredIcon | None:
    """The first of an ambiguous answer's candidates when the fitted rule (settle.py) says tapping it
    beats asking, else None."""
    shown = _offered(scored, result)
    if shown is None:
        return None
    parts = [Offered(s.score, s.verdict.asked if s.verdict else None, s.shape, s.colour, s.position,
                     s.matches) for s in shown]
    return shown[0] if settles(parts) else None


def unsure_shape(query: IconQuery, scored: list[ScoredIcon]) -> list[ScoredIcon]:
    """When no candidate fits every asked part: the candidates the asked colour (and place, when named)
    single out (at most MAX_AMBIGUOUS), best first, topped up with the runners-up to at least two so the
    model has a choice; [] when the words name no colour, or no candidate or too many fit.

    A real icon drawn in another icon set than the library's often fits the asked shape near 0 though
    its colour and place fit fully: "not found" would make the agent give up or scroll, where asking
    costs one choice. A place alone singles out nothing (any icon in the corner fits "checkmark, top
    right" where the note is saved and no checkmark is left). Never "found": a shape that does not fit
    is no reason to tap unasked."""
    if query.colour is None:
        return []
    kept = suppress(scored)
    fit = [s for s in kept if (s.colour is None or s.colour >= MIN_COLOUR)
           and (s.position is None or s.position >= MIN_POSITION)]
    if not fit or len(fit) > MAX_AMBIGUOUS:
        return []
    if len(fit) == 1:
        fit += [s for s in kept if s is not fit[0]][:1]
    return fit if len(fit) > 1 else []


def _marks(bgr: np.ndarray, scored: list[ScoredIcon]) -> LocateResult:
    """The top candidates, numbered with crops, for the model to choose from (set-of-marks)."""
    top = suppress(scored)[:MAX_AMBIGUOUS]
    if len(top) == 1:
        return LocateResult("found", [candidate(top[0])])
    return LocateResult("ambiguous", [candidate(s, crop_with_box(bgr, s.region.box)) for s in top])


def standout(query: IconQuery, scored: list[ScoredIcon]) -> ScoredIcon | None:
    """The one candidate that reads as the asked glyph far better than any other, though below the
    absolute fit (a real icon drawn in another icon set than the library's). Its glyph fit is weak, so
    the rest must be clear: an asked colour and place fit it well (STANDOUT_FIT; a Chrome tile a third
    white, half-way down, is no "white camera, bottom"), and with no colour named its lead over the
    runner-up is larger (STANDOUT_SHAPE_ONLY) and the runner-up must not itself read as the asked glyph at
    the weak-fit floor (STANDOUT_SHAPE): a lead in score over another reading of the glyph is no standout."""
    if not query.glyphs or query.unknown:
        return None
    top = suppress(scored)[:2]
    if not top:
        return None
    best = top[0]
    runner = top[1].score if len(top) > 1 else 0.0
    if best.colour is None and len(top) > 1 and (top[1].shape or 0.0) >= STANDOUT_SHAPE:
        return None  # no colour to go by and the runner-up reads as the asked glyph too: not one alone
    fits = ((best.colour is None or best.colour >= STANDOUT_FIT) and (best.position is None
            or best.position >= STANDOUT_FIT) and best.shape is not None and best.shape >= STANDOUT_SHAPE)
    lead = STANDOUT_RATIO if best.colour is not None else STANDOUT_SHAPE_ONLY
    return best if fits and best.score >= lead * runner else None


def shape_alone_unsure(query: IconQuery, kept: list[ScoredIcon]) -> bool:
    """Is the best candidate's shape the only evidence, read weakly, without a clear lead? Then it is
    shown with its runners-up rather than tapped.

    With no colour, place or label named, the shape fit is all that picks the icon; a fit below
    SURE_SHAPE is the drawn class or a look-alike glyph (a gray ring for "radio waves", any drawn
    magnifier in a search box), which on fresh real screens was as often a wrong tap as a right one
    unless it led the runner-up by STANDOUT_SHAPE_ONLY (the lead a shape-only standout needs too).
    The shape fit includes the learned classifier's lift (rank.blend_fits)."""
    if query.colour is not None or query.position.given or query.anchor or not kept:
        return False
    best = kept[0]
    if best.shape is None or best.shape >= SURE_SHAPE:
        return False
    runner = kept[1].score if len(kept) > 1 else 0.0
    return best.score < STANDOUT_SHAPE_ONLY * runner


def alone_inside(query: IconQuery, scene: Scene, scored: list[ScoredIcon], lines: Sequence[OcrLine]
                  ) -> ScoredIcon | None:
    """The one candidate inside the named container ("sparkle on the cyan button"), bits and slivers of
    its text aside, when none fits the looks well enough: the container says which; colour and place
    must fit."""
    if scene.container is None or query.unknown:
        return None
    least = 0.2 * (scene.container[3] - scene.container[1])  # a sliver of a letter is not an icon
    inner = [s for s in suppress(scored) if inside(s.region.box, scene.container)
             and min(s.region.box[2] - s.region.box[0], s.region.box[3] - s.region.box[1]) >= least
             and not reads_text(s.region.box, [ln.box for ln in lines])]
    if len(inner) != 1:
        return None
    s = inner[0]
    fits = (s.colour is None or s.colour >= MIN_COLOUR) and (s.position is None or s.position >= MIN_POSITION)
    return s if fits else None


def glyph_over_drawn(ties: list[ScoredIcon]) -> list[ScoredIcon]:
    """The one of near-equal candidates whose glyph fits the asked one, alone, when the others fit only
    the coarse drawn class ("blue wifi circle": the one wifi, not every blue disc). The tiles tie on
    colour and outline, so their glyphs are all that tells them apart: a glyph fit of GLYPH_ALONE
    suffices where it is twice every other tie's."""
    if len(ties) < 2:
        return ties
    lead = max(ties, key=lambda t: t.glyph)
    if lead.glyph < GLYPH_ALONE:
        return ties
    if all(t.glyph < GLYPH_LEAD * lead.glyph for t in ties if t is not lead):
        return [lead]
    return ties


def _thick(query: IconQuery, kept: list[ScoredIcon], bgr: np.ndarray) -> list[ScoredIcon]:
    """The kept candidates without the slivers among the runners-up and the other pieces of the best's
    own icon (scored.without_slivers, scored.without_fragments)."""
    return without_fragments(without_slivers(kept, (bgr.shape[1], bgr.shape[0]), query.shape == "line"))


def icon_outcome(bgr: np.ndarray, query: IconQuery, scored: list[ScoredIcon]) -> LocateResult:
    matching = suppress([s for s in scored if s.matches])
    if not matching and (alone := standout(query, scored)) is not None:
        return LocateResult("found", [candidate(alone)])
    if not matching:
        if query.unknown and scored:  # part of the description was not understood: let the model choose
            return _marks(bgr, scored)
        size = (bgr.shape[1], bgr.shape[0])
        closest = [f"{named(s.description)} ({where_on_screen(box_center(s.region.box), size)})"
                   for s in suppress(scored)[:5]]
        return LocateResult("not_found", [], closest)
    best = matching[0].score
    if query.anchor and scored and scored[0].score > best:
        return _marks(bgr, scored)  # one beside the label outscores every fitting one: let the model choose
    # the ties are every candidate scoring near the best, fitting or a hair short of a part's threshold
    # (a shape fit of 0.40 against 0.45): one just short of fitting is no reason to tap the other
    kept = _thick(query, suppress(scored), bgr)
    ties = glyph_over_drawn([s for s in kept if s.score >= TIE_RATIO * best])
    unsure = shape_alone_unsure(query, kept)
    if len(ties) == 1 and (best >= CONFIDENT or len(matching) == 1) and not query.unknown and not unsure:
        return LocateResult("found", [candidate(ties[0])])
    if len(ties) > 1 and not query.unknown:  # equal looks: the one clearly furthest toward the place
        pick = most_toward([t.region.box for t in ties], (bgr.shape[1], bgr.shape[0]), query.position)
        if pick is not None:
            return LocateResult("found", [candidate(ties[pick])])
    if not query.unknown and len(ties) <= MAX_AMBIGUOUS:  # the classifier names one of those to be shown
        shown = ties if len(ties) > 1 else suppress(matching)[:MAX_AMBIGUOUS]
        if (chosen := named_among(shown)) is not None:
            return LocateResult("found", [candidate(chosen)])
    if len(ties) == 1 or (query.unknown and len(ties) > MAX_AMBIGUOUS):
        # not sure of the best: show it with its runners-up (those not fitting too, when only a weak
        # shape reading picked it)
        return _marks(bgr, scored if unsure else matching)
    if len(ties) <= MAX_AMBIGUOUS:
        return LocateResult("ambiguous", [candidate(s, crop_with_box(bgr, s.region.box)) for s in ties])
    return LocateResult("too_many", [candidate(s) for s in ties[:10]])
