"""The classifier's say in the outcome (perception/icons/classifier_say.py, used by outcome.py): a sure
classifier settles the candidates offered to the model on the best-scored one it names, when its colour
and place fit; anything less, or a classifier sure of another glyph, leaves the old outcome."""

from __future__ import annotations

import numpy as np
import pytest

from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.classifier_say import LEARNED_LEAD, LEARNED_SURE, named_among
from droidpilot.perception.icons.describe import IconDescription
from droidpilot.perception.icons.learned import Verdict
from droidpilot.perception.icons.outcome import icon_outcome
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.icons.scored import ScoredIcon
from droidpilot.perception.types import Box

PAGE = np.full((1170, 540, 3), 255, np.uint8)
LEFT, RIGHT = (60, 500, 110, 550), (400, 500, 450, 550)


def _icon(box: Box, score: float, verdict: Verdict | None, position: float | None = None,
          colour: float = 1.0, shape: float = 0.6) -> ScoredIcon:
    desc = IconDescription("gray", 1.0, "unknown", 0.0)
    return ScoredIcon(Region(box, "mask"), desc, colour, shape, position, None, score, "icon", shape, None,
                      verdict)


def _outcome(query: str, icons: list[ScoredIcon]):
    return icon_outcome(PAGE, parse_icon_query(query), sorted(icons, key=lambda s: -s.score))


def test_two_look_alikes_are_settled_on_the_one_the_classifier_is_sure_of() -> None:
    named = _icon(LEFT, 0.60, Verdict(0.8, 0.05))
    other = _icon(RIGHT, 0.58, Verdict(0.1, 0.6))
    result = _outcome("gray gear", [named, other])
    assert result.status == "found" and result.candidates[0].box == named.region.box


def test_look_alikes_stay_ambiguous_without_a_classifier() -> None:
    result = _outcome("gray gear", [_icon(LEFT, 0.60, None), _icon(RIGHT, 0.58, None)])
    assert result.status == "ambiguous" and len(result.candidates) == 2


@pytest.mark.parametrize(("top", "runner"), [
    (LEARNED_SURE - 0.01, 0.0),  # just short of sure
    (0.8, 0.8 / LEARNED_LEAD + 0.01),  # sure, but the runner-up reads almost half as likely the glyph
])
def test_a_classifier_not_clearly_naming_one_leaves_them_ambiguous(top: float, runner: float) -> None:
    pair = [_icon(LEFT, 0.60, Verdict(top, 0.0)), _icon(RIGHT, 0.58, Verdict(runner, 0.0))]
    result = _outcome("gray gear", pair)
    assert result.status == "ambiguous"


def test_the_classifier_sure_of_a_runner_up_does_not_tap_it_when_it_is_not_the_best_scored() -> None:
    # the classifier names the second: the scores put the other first, so the model chooses
    pair = [_icon(LEFT, 0.60, Verdict(0.1, 0.0)), _icon(RIGHT, 0.58, Verdict(0.9, 0.0))]
    result = _outcome("gray gear", pair)
    assert result.status == "ambiguous"


def test_a_sure_classifier_on_a_candidate_in_the_wrong_place_is_not_tapped() -> None:
    # the asked glyph by the classifier, but "bottom" asked and it sits half-way (place fit 0.45 < 0.5)
    misplaced = _icon(LEFT, 0.60, Verdict(0.95, 0.01), position=0.45)
    placed = _icon(RIGHT, 0.55, Verdict(0.05, 0.01), position=1.0)
    assert not named_among([misplaced, placed])
    result = _outcome("gray gear, bottom", [misplaced, placed])
    assert result.status != "found" or result.candidates[0].box != misplaced.region.box


def test_a_sure_classifier_on_a_candidate_of_the_wrong_colour_is_not_tapped() -> None:
    red = _icon(LEFT, 0.60, Verdict(0.95, 0.01), colour=0.55)
    assert not named_among([red, _icon(RIGHT, 0.55, Verdict(0.05, 0.01))])


@pytest.mark.parametrize("verdict", [
    Verdict(0.05, 0.9),  # sure it is another glyph: real icons it reads so were right (it learnt fonts)
    Verdict(0.3, 0.55),
    None,  # no classifier
])
def test_a_confident_match_is_tapped_whatever_other_glyph_the_classifier_names(verdict: Verdict | None
                                                                               ) -> None:
    best = _icon(LEFT, 0.70, verdict)
    result = _outcome("gray gear", [best, _icon(RIGHT, 0.2, None, shape=0.1)])
    assert result.status == "found" and result.candidates[0].box == best.region.box


def test_a_sure_classifier_on_a_confident_match_of_the_wrong_glyph_does_not_lift_it_over_the_right() -> None:
    # near miss: the classifier sure of the runner-up (the right glyph), the scores sure of the first
    first = _icon(LEFT, 0.60, Verdict(0.02, 0.9))
    right = _icon(RIGHT, 0.55, Verdict(0.9, 0.02))
    assert named_among([first, right]) is None
    assert _outcome("gray gear", [first, right]).status == "ambiguous"
