"""The text row a query names ("chevron on the VPN row", "gray switch for airplane mode"): the OCR line it
names is found, and of one icon repeated down a list the one in that row is ranked first and tapped."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from droidpilot.perception.icons import locate_icon, parse_icon_query
from droidpilot.perception.icons.anchors import anchor_boxes
from droidpilot.perception.icons.drawing import as_rgb, blank_screen
from droidpilot.perception.icons.rank import rank_icons
from droidpilot.perception.icons.row_labels import named_rows, row_nearness
from droidpilot.perception.types import OcrLine

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
W, H = 540, 1170
ROWS = ("Account", "VPN", "Airplane mode", "Screen sharing")


def _line(text: str, box: tuple[int, int, int, int]) -> OcrLine:
    return OcrLine(text, box, 0.97)


def _named(query: str, lines: list[OcrLine]) -> list[tuple[int, int, int, int]]:
    return named_rows(lines, parse_icon_query(query, names_ok=True), H)


def test_a_line_is_named_when_the_query_says_all_its_words() -> None:
    lines = [_line("VPN", (30, 300, 80, 325)), _line("Airplane mode", (30, 400, 190, 425)),
             _line("Mode", (30, 500, 90, 525))]
    assert _named("chevron on the vpn row", lines) == [(30, 300, 80, 325)]
    assert _named("gray switch on the airplane mode row", lines) == [(30, 400, 190, 425)]  # two beat "Mode"
    assert _named("gray switch on the vpn row", [_line("VPN settings & more", (30, 300, 260, 325))]) == []
    # "for X" names the label the icon goes with (query.anchor): anchors.py weighs by it, rows stay out
    assert parse_icon_query("gray switch for airplane mode", names_ok=True).anchor == "airplane mode"
    assert _named("gray switch for airplane mode", lines) == []
    assert _named("gear, top right", lines) == []  # no line's words are said
    # the phrase after "in"/"on" read inside a longer line names it too
    assert _named("gray chevron in jpmorgan chase",
                  [_line("JPMorgan Chase & Co.", (30, 300, 260, 325))]) == [(30, 300, 260, 325)]
    # "to fill in X" names the row as "for X" does: the label read inside a longer line (anchors.py)
    q = parse_icon_query("arrow to fill in jpmorgan chase", names_ok=True)
    assert q.anchor_row and anchor_boxes([_line("JPMorgan Chase & Co.", (30, 300, 260, 325))],
                                         q.anchor) == [(30, 300, 260, 325)]


def test_near_misses_name_no_row() -> None:
    # the same words in two rows (typed in the search field and suggested below): no row is picked
    twice = [_line("West Lake", (80, 100, 200, 125)), _line("West Lake", (80, 200, 200, 225))]
    assert _named("gray chevron in west lake", twice) == []
    # a colour, a place or a stop word is not a row's name; the status bar's text is no row
    assert _named("gray chevron, right", [_line("Gray", (30, 300, 90, 325))]) == []
    assert _named("chevron on the top row", [_line("Top", (30, 300, 90, 325))]) == []
    assert _named("vpn key, status bar", [_line("VPN", (300, 10, 340, 30))]) == []
    # "next to X" is anchors.py's label: no line reads it, so no row is guessed from its words ("Recent")
    assert _named("clock next to the second recent place", [_line("Recent", (30, 300, 120, 325))]) == []
    # the text written in the icon is not the row it sits in
    assert _named("'GO' button", [_line("GO", (30, 300, 90, 325))]) == []


def test_row_nearness_prefers_the_row_over_the_distance_along_it() -> None:
    label = (30, 300, 120, 325)
    same_row_far = (490, 302, 505, 324)  # the row's chevron at its far end
    next_row = (490, 380, 505, 402)  # the chevron of the row below
    assert row_nearness(same_row_far, [label]) > 2 * row_nearness(next_row, [label])
    assert row_nearness((125, 300, 150, 325), [label]) > row_nearness(same_row_far, [label])


def _settings_screen() -> tuple[np.ndarray, list[OcrLine], list[tuple[int, int, int, int]]]:
    """A settings list: a label on the left of each row, the same gray chevron at the right end."""
    img = blank_screen(W, H)
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    font = ImageFont.truetype(str(FONT), 26) if FONT.exists() else ImageFont.load_default()
    lines, chevrons = [], []
    for i, text in enumerate(ROWS):
        y = 200 + 110 * i
        x1, y1, x2, y2 = draw.textbbox((30, y), text, font=font)
        draw.text((30, y), text, fill=(20, 20, 20), font=font)
        lines.append(_line(text, (x1, y1, x2, y2)))
        cy = (y1 + y2) // 2
        chevrons.append((486, cy - 14, 508, cy + 14))
    img = cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)
    for x1, y1, x2, y2 in chevrons:
        pts = np.array([[x1 + 4, y1 + 3], [x2 - 5, (y1 + y2) // 2], [x1 + 4, y2 - 3]], np.int32)
        cv2.polylines(img, [pts], False, (110, 110, 110), 3, cv2.LINE_AA)
    return img, lines, chevrons


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def test_the_chevron_of_the_named_row_is_ranked_first_and_tapped() -> None:
    img, lines, chevrons = _settings_screen()
    for row, query in ((1, "chevron on the vpn row"), (3, "chevron on the screen sharing row"),
                       (2, "gray chevron for airplane mode")):
        ranked = rank_icons(as_rgb(img), query, ocr_lines=lines)
        assert _inside(ranked[0].point, chevrons[row]), (query, ranked[0].region.box)
        result = locate_icon(as_rgb(img), query, ocr_lines=lines)
        assert result.status == "found" and _inside(result.candidates[0].point, chevrons[row]), result.status


def test_a_row_nobody_shows_is_not_tapped() -> None:
    img, lines, chevrons = _settings_screen()
    result = locate_icon(as_rgb(img), "chevron on the bluetooth row", ocr_lines=lines)
    assert result.status != "found"  # four equal chevrons and no row named: asking, not a guess
    assert all(any(_inside(c.point, box) for box in chevrons) for c in result.candidates)
