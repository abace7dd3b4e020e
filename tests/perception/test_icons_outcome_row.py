"""The row of the named label settles a list's repeated icon (outcome.alone_in_row): of arrows alike, one a
row, the one level with the label "next to" names is tapped; two in that row, or the label not read, stay
a question."""

from __future__ import annotations

import numpy as np

from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.describe import IconDescription
from droidpilot.perception.icons.outcome import decide, in_label_row
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.icons.scene import Scene
from droidpilot.perception.icons.scored import ScoredIcon
from droidpilot.perception.types import Box, OcrLine

PAGE = np.full((1170, 540, 3), 255, np.uint8)
QUERY = "arrow pointing up left next to gas station"
ROWS = (200, 290, 380, 470)  # a suggestion list: one arrow at the right end of every row


def _arrow(box: Box, score: float) -> ScoredIcon:
    desc = IconDescription("black", 1.0, "arrow", 0.9)
    return ScoredIcon(Region(box, "mask"), desc, None, 0.99, None, None, score, "icon", 0.99)


def _lines(label_y: int) -> list[OcrLine]:
    # the words typed in the search field, and the suggestion rows' titles
    return [OcrLine("gas station", (60, 90, 200, 120), 0.95),
            OcrLine("gas station", (115, label_y - 8, 249, label_y + 24), 0.95),
            *(OcrLine(f"place {y}", (115, y - 8, 300, y + 24), 0.95) for y in ROWS if y != label_y)]


def _arrows(first_y: int) -> list[ScoredIcon]:
    ys = sorted(ROWS, key=lambda y: abs(y - first_y))
    return [_arrow((483, y - 2, 502, y + 17), 1.0 - 0.1 * k) for k, y in enumerate(ys)]


def _decide(icons: list[ScoredIcon], lines: list[OcrLine]):
    return decide(PAGE, parse_icon_query(QUERY, names_ok=True), Scene(), icons, lines, settle=False)


def test_the_one_arrow_level_with_the_label_is_tapped() -> None:
    result = _decide(_arrows(200), _lines(200))
    assert result.status == "found"
    assert result.candidates[0].box == (483, 198, 502, 217)


def test_two_in_the_labels_row_stay_a_question() -> None:
    icons = _arrows(200)
    icons.insert(1, _arrow((40, 196, 70, 222), 0.97))  # a place pin left of the title, as sure as the arrow
    assert _decide(icons, _lines(200)).status == "ambiguous"


def test_a_label_no_line_reads_settles_nothing() -> None:
    lines = [ln for ln in _lines(200) if ln.text != "gas station"]
    assert _decide(_arrows(200), lines).status == "ambiguous"


def test_the_first_offered_must_be_the_one_in_the_row() -> None:
    icons = _arrows(290)  # the label weighting put another row's arrow first
    assert _decide(icons, _lines(200)).status == "ambiguous"


def test_level_means_within_half_a_label_height() -> None:
    label = (116, 357, 278, 390)  # a two-line row's title: its arrow is centred on title and subtitle
    assert in_label_row((483, 381, 502, 399), label)
    assert not in_label_row((485, 291, 502, 308), label)
    assert not in_label_row((485, 474, 502, 491), label)
