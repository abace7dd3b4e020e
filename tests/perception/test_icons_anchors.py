"""Text a query points at: text written inside the icon ("LIVE icon", "G logo") read by OCR, and a label
the icon sits next to ("chevron next to To") as a soft preference by nearness."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from droidpilot.perception.icons import locate_icon, parse_icon_query
from droidpilot.perception.icons.anchors import ANCHOR_FLOOR, anchor_boxes, lines_reading, nearness
from droidpilot.perception.icons.drawing import DrawnIcon, as_rgb, blank_screen, draw_icon
from droidpilot.perception.types import OcrLine

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
W, H = 1080, 2400


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def _write(img: np.ndarray, text: str, at: tuple[int, int], size: int, rgb: tuple[int, int, int]
           ) -> tuple[np.ndarray, OcrLine]:
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    font = ImageFont.truetype(str(FONT), size) if FONT.exists() else ImageFont.load_default()
    draw.text(at, text, fill=rgb, font=font)
    x1, y1, x2, y2 = draw.textbbox(at, text, font=font)
    return cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR), OcrLine(text, (x1, y1, x2, y2), 0.98)


def test_written_text_is_read_from_capitals_or_quotes_only() -> None:
    assert parse_icon_query("LIVE icon, top left").texts == ("live",)
    assert parse_icon_query("S logo").texts == ("s",)  # no colour, no shape: still a query, not refused
    assert parse_icon_query("'Go' button").texts == ("go",)
    google = parse_icon_query("google G logo")
    assert google.texts == ("g",) and google.unknown == () and google.brands == ("google",)  # brands.yaml
    assert parse_icon_query("live icon, top left").texts == ()  # lower case names a glyph, not text
    assert parse_icon_query("red heart").texts == ()


def test_one_letter_in_both_cases_is_the_text_written_in_the_icon() -> None:
    # Notes' text-size button reads "Aa": the text, and "text style" after it names the icon, not a text
    aa = parse_icon_query("Aa text style", names_ok=True)
    assert aa.texts == ("aa",) and aa.unknown == ()
    assert parse_icon_query("Aa text format button", names_ok=True).texts == ("aa",)
    assert parse_icon_query("letter W").texts == ("w",)  # a marker before the text still marks it
    # near misses: capitalised words of the language are no text ("All", "Go"), nor a lower-case "aa"
    assert parse_icon_query("triangle beside All notes").texts == ()
    assert parse_icon_query("Go button", names_ok=True).texts == ()
    assert parse_icon_query("aa text style", names_ok=True).texts == ("style",)


def test_a_numbered_label_keeps_its_numbers() -> None:
    assert parse_icon_query("small star beside Tigo's 3.9").anchor == "tigo s 3 9"
    assert parse_icon_query("info circle beside 182M reviews").anchor == "182m reviews"
    assert parse_icon_query("chevron down next to To").anchor == "to"


def test_a_possessive_label_is_the_one_nearest_its_owner() -> None:
    # two apps' tiles side by side, each with its name and a rating "4.5★" under it (Google Play)
    lines = [OcrLine("Bigo Live-Live", (15, 784, 139, 808), 0.99),
             OcrLine("Rakuten Viber", (183, 784, 302, 806), 0.99),
             OcrLine("4.5★", (14, 836, 64, 859), 0.99), OcrLine("4.5★", (182, 836, 232, 859), 0.99),
             OcrLine("3.9★", (349, 836, 397, 859), 0.99)]
    assert anchor_boxes(lines, "bigo s 4 5") == [(14, 836, 64, 859)]
    assert anchor_boxes(lines, "viber s 4 5") == [(182, 836, 232, 859)]
    assert anchor_boxes(lines, "tigo s 3 9") == [(349, 836, 397, 859)]  # one line reads it: the owner unread
    # near misses: an owner no line names leaves both ratings; a rating no line reads is no label
    assert anchor_boxes(lines, "voya s 4 5") == [(14, 836, 64, 859), (182, 836, 232, 859)]
    assert anchor_boxes(lines, "bigo s 4 4") == []


def test_anchor_is_the_label_after_next_to_not_an_enclosing_thing() -> None:
    assert parse_icon_query("chevron down next to To").anchor == "to"
    assert parse_icon_query("house icon beside Home, top").anchor == "home"
    assert parse_icon_query("camera icon in the search bar").anchor is None
    assert parse_icon_query("red heart, bottom").anchor is None


def test_lines_are_matched_whole_not_as_substrings() -> None:
    lines = [OcrLine("Home", (10, 10, 80, 40), 0.99), OcrLine("Homework due", (10, 100, 200, 130), 0.99),
             OcrLine("Go home now", (10, 200, 200, 230), 0.99), OcrLine("LIVES", (300, 10, 360, 40), 0.9)]
    assert anchor_boxes(lines, "home") == [(10, 10, 80, 40)]  # the exact line wins
    assert anchor_boxes(lines[1:], "home") == [(10, 200, 200, 230)]  # whole word, not "Homework"
    assert anchor_boxes(lines, "nowhere") == [] and anchor_boxes(lines, None) == []
    assert lines_reading(lines, ["live"]) == []  # "LIVES" is not "LIVE"
    assert lines_reading(lines, ["home"]) == [(10, 10, 80, 40)]


def test_nearness_favours_the_same_row_over_another_row() -> None:
    label = [(40, 300, 120, 330)]
    beside = nearness((130, 300, 160, 330), label)
    row_end = nearness((1000, 300, 1030, 330), label)
    other_row = nearness((130, 900, 160, 930), label)
    assert beside > row_end > other_row >= ANCHOR_FLOOR
    assert beside > 0.95


def _two_arrows() -> tuple[np.ndarray, list[DrawnIcon], list[OcrLine]]:
    img = blank_screen(W, H, "light")
    arrows = [draw_icon(img, "arrow", (980, y), 60, "gray") for y in (600, 1400)]
    img, messages = _write(img, "Messages", (60, 580), 44, (33, 33, 33))
    img, calls = _write(img, "Calls", (60, 1380), 44, (33, 33, 33))
    return img, arrows, [messages, calls]


def test_a_label_next_to_the_icon_chooses_between_equal_icons() -> None:
    img, arrows, lines = _two_arrows()
    assert locate_icon(as_rgb(img), "gray arrow", ocr_lines=lines).status == "ambiguous"
    for label, arrow in (("Messages", arrows[0]), ("Calls", arrows[1])):
        result = locate_icon(as_rgb(img), f"gray arrow next to {label}", ocr_lines=lines)
        assert result.status == "found" and _inside(result.candidates[0].point, arrow.box), label


def test_a_label_not_on_screen_is_ignored_not_guessed() -> None:
    img, _, lines = _two_arrows()
    assert locate_icon(as_rgb(img), "gray arrow next to Settings", ocr_lines=lines).status == "ambiguous"


def test_text_inside_an_icon_is_read_by_ocr() -> None:
    img = blank_screen(W, H, "dark")
    cv2.rectangle(img, (100, 200), (260, 280), (60, 60, 230), -1)  # a red tile with "LIVE" on it
    img, live = _write(img, "LIVE", (122, 218), 36, (255, 255, 255))
    cv2.rectangle(img, (700, 200), (860, 280), (60, 60, 230), -1)  # the same tile, other text
    img, shop = _write(img, "SHOP", (718, 218), 36, (255, 255, 255))
    result = locate_icon(as_rgb(img), "LIVE icon, top left", ocr_lines=[live, shop])
    assert result.status == "found" and _inside(result.candidates[0].point, (100, 200, 261, 281))
    other = locate_icon(as_rgb(img), "SHOP icon", ocr_lines=[live, shop])
    assert other.status == "found" and _inside(other.candidates[0].point, (700, 200, 861, 281))
    assert locate_icon(as_rgb(img), "NEWS icon", ocr_lines=[live, shop]).status == "not_found"
