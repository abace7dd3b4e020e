"""outcome.shape_alone_unsure: when the shape is the only evidence (no colour, place or label named) and
it reads the asked glyph only weakly, the best is tapped only with a clear lead; else the model is asked
among it and its runners-up. A sure reading, or any named colour or place, is tapped as before."""

from __future__ import annotations

import numpy as np

from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.describe import IconDescription
from droidpilot.perception.icons.outcome import decide
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.icons.scene import Scene
from droidpilot.perception.icons.scored import ScoredIcon
from droidpilot.perception.types import Box

PAGE = np.full((1170, 540, 3), 255, np.uint8)
RING, PHOTO = (357, 1073, 390, 1106), (261, 951, 306, 1047)


def _icon(box: Box, shape: float, position: float | None = None, colour: float | None = None) -> ScoredIcon:
    desc = IconDescription("gray", 1.0, "circle", 0.9)
    score = 0.05 + 0.95 * shape
    if colour is not None:
        score *= 0.05 + 0.95 * colour
    if position is not None:
        score *= 0.1 + 0.9 * position
    return ScoredIcon(Region(box, "mask"), desc, colour, shape, position, None, score, "icon", shape)


def _decide(query: str, icons: list[ScoredIcon]):
    return decide(PAGE, parse_icon_query(query), Scene(), sorted(icons, key=lambda s: -s.score), [])


def test_a_weak_shape_reading_without_a_clear_lead_is_asked_not_tapped() -> None:
    # Amazon Music: a gray ring read 0.75 as "radio waves" (a radio-button glyph), the card's icon 0.39
    result = _decide("radio waves", [_icon(RING, 0.75), _icon(PHOTO, 0.39)])
    assert result.status == "ambiguous", result.to_dict()
    assert [tuple(c.box) for c in result.candidates] == [RING, PHOTO]  # the runner-up is shown too


def test_a_weak_shape_reading_with_a_clear_lead_is_still_tapped() -> None:
    # a backspace key read 0.75 with every other key far behind (a lead of 2.5 or more)
    result = _decide("backspace key", [_icon(RING, 0.75), _icon(PHOTO, 0.26)])
    assert result.status == "found" and tuple(result.candidates[0].box) == RING


def test_a_sure_shape_reading_with_a_small_lead_is_still_tapped() -> None:
    result = _decide("radio waves", [_icon(RING, 0.85), _icon(PHOTO, 0.5)])
    assert result.status == "found" and tuple(result.candidates[0].box) == RING


def test_a_named_place_is_evidence_of_its_own_so_a_weak_shape_is_tapped() -> None:
    result = _decide("radio waves, bottom right", [_icon(RING, 0.75, 1.0), _icon(PHOTO, 0.39, 1.0)])
    assert result.status == "found" and tuple(result.candidates[0].box) == RING


def test_a_named_colour_is_evidence_of_its_own_so_a_weak_shape_is_tapped() -> None:
    result = _decide("gray radio waves", [_icon(RING, 0.75, None, 1.0), _icon(PHOTO, 0.39, None, 1.0)])
    assert result.status == "found" and tuple(result.candidates[0].box) == RING
