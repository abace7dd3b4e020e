"""A runner-up that is a sliver (a photo's edge, a disc's rim, a divider: two or three pixels thick and
long) does not make the best candidate ambiguous (perception/icons/scored.without_slivers); a thin but
real icon does, and so does a sliver when the query asks for a line. Nor does another piece of the best's
own icon (touching it, not much larger: the two arrows of a swap glyph); an equal icon a little apart does."""

from __future__ import annotations

import numpy as np

from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.describe import IconDescription
from droidpilot.perception.icons.outcome import decide
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.icons.scene import Scene
from droidpilot.perception.icons.scored import ScoredIcon, without_fragments, without_slivers
from droidpilot.perception.types import Box

PAGE = np.full((1170, 540, 3), 255, np.uint8)
HEART = (475, 563, 515, 600)  # TikTok's like button, right of the video (report screen TikTok/1/2)


def _icon(box: Box, score: float) -> ScoredIcon:
    desc = IconDescription("white", 1.0, "heart", 0.9)
    return ScoredIcon(Region(box, "bright"), desc, 1.0, 0.9, 1.0, None, score, "icon", 0.9)


def _decide(query: str, icons: list[ScoredIcon]):
    return decide(PAGE, parse_icon_query(query), Scene(), sorted(icons, key=lambda s: -s.score), [])


def test_a_sliver_runner_up_leaves_the_best_found() -> None:
    for sliver in ((490, 449, 505, 451), (461, 279, 464, 305)):  # 15x2 and 3x26 px: an edge, a cursor
        result = _decide("white heart", [_icon(HEART, 1.0), _icon(sliver, 0.82)])
        assert result.status == "found" and result.candidates[0].box == HEART, sliver


def test_a_thin_real_icon_as_runner_up_still_makes_it_ambiguous() -> None:
    # near misses: vertical three-dot menus, 5 px wide, and 3 px wide but only 5.7 times as long
    for dots in ((410, 109, 415, 133), (501, 417, 504, 434)):
        result = _decide("white heart", [_icon(HEART, 1.0), _icon(dots, 0.82)])
        assert result.status == "ambiguous", dots


def test_slivers_stay_when_a_line_is_asked_or_the_best_is_one() -> None:
    sliver, heart = _icon((490, 449, 505, 451), 0.9), _icon(HEART, 1.0)
    assert without_slivers([heart, sliver], (540, 1170), asked_line=True) == [heart, sliver]
    assert without_slivers([sliver, heart], (540, 1170), asked_line=False) == [sliver, heart]
    assert without_slivers([heart, sliver], (540, 1170), asked_line=False) == [heart]


def test_another_piece_of_the_best_icon_leaves_it_found() -> None:
    # Google Maps' swap glyph read as two arrows, overlapping; a share glyph's part split off its disc
    pairs = (((472, 188, 487, 205), (461, 172, 478, 191)), ((496, 919, 517, 945), (484, 931, 495, 945)))
    for best, piece in pairs:
        result = _decide("white heart", [_icon(best, 1.0), _icon(piece, 0.95)])
        assert result.status == "found" and result.candidates[0].box == best, piece


def test_an_equal_icon_apart_or_a_larger_one_around_still_makes_it_ambiguous() -> None:
    best = _icon((472, 188, 487, 205), 1.0)
    beside = _icon((492, 188, 507, 205), 0.95)  # 5 px apart: the next icon of a row
    around = _icon((440, 150, 500, 215), 0.95)  # larger and overlapping: a button or card, not a piece
    assert without_fragments([best, beside, around]) == [best, beside, around]
    assert _decide("white heart", [best, beside]).status == "ambiguous"
