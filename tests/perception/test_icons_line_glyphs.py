"""Glyphs OCR glued to a text line (perception/icons/line_glyphs.py): a leading glyph on a chip and a
trailing symbol are cut off the line, on real lines of training screens where the glyph was lost before
(boxes as RapidOCR read them); a line ending in a letter, or in a symbol followed by a word, is left."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.icons.line_glyphs import ends_with_symbol, line_ink, text_part
from droidpilot.perception.types import Box

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
real = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


@real
@pytest.mark.parametrize(("path", "line", "text", "glyph"), [
    ("Google Maps/3/2.jpg", (231, 185, 342, 209), "Hotels", (236, 189, 261, 207)),  # bed on a white chip
    ("Multi-App/3/5.jpg", (374, 578, 501, 603), "+ Get notified", (378, 582, 398, 602)),  # bell on a pill
])
def test_a_leading_glyph_on_a_chip_is_cut_off_the_line(path: str, line: Box, text: str, glyph: Box) -> None:
    cut = text_part(read_image(REAL / path), line, text)
    assert cut[0] >= glyph[2] - 1 and cut[2] == line[2]


@real
@pytest.mark.parametrize(("path", "line", "text", "glyph"), [
    ("Google Play/3/3.jpg", (54, 340, 115, 367), "4.0★", (94, 345, 111, 362)),  # a rating's star
    ("Multi-App/3/5.jpg", (79, 496, 168, 525), "Sports >", (155, 506, 162, 518)),  # a chevron after a title
])
def test_a_trailing_symbol_is_cut_off_the_line(path: str, line: Box, text: str, glyph: Box) -> None:
    cut = text_part(read_image(REAL / path), line, text)
    assert cut[2] <= glyph[0] + 1 and cut[0] == line[0]


@real
def test_a_circled_character_ending_a_line_is_cut_off() -> None:
    # Google Play (training screen): "Rated for 3+ ①", the ① an info circle the OCR read as a digit
    cut = text_part(read_image(REAL / "Google Play/3/3.jpg"), (385, 372, 514, 393), "Rated for 3+ ①")
    assert cut[2] <= 497 and cut[0] == 385


@real
def test_a_glyph_ocr_left_unread_after_the_text_is_cut_off() -> None:
    # Google Play (training screen): "182M reviews" read, the info circle after it (136-150) not
    cut = text_part(read_image(REAL / "Google Play/3/3.jpg"), (17, 371, 153, 394), "182M reviews")
    assert 125 <= cut[2] <= 136 and cut[0] == 17


@real
@pytest.mark.parametrize(("path", "line", "text"), [
    ("Multi-App/3/10.jpg", (34, 172, 222, 195), "1/26/2024,15:57|70"),  # words read without spaces
    ("Google Maps/3/6.jpg", (346, 243, 446, 279), "4hr 5"),  # its last word is the read "5"
    ("Google Play/3/3.jpg", (17, 371, 131, 394), "182M reviews"),  # the text alone: nothing unread
])
def test_a_line_whose_ink_holds_only_its_read_words_keeps_its_end(path: str, line: Box, text: str) -> None:
    assert text_part(read_image(REAL / path), line, text)[2] == line[2]


def test_an_unread_glyph_needs_one_extra_word_set_well_apart() -> None:
    from droidpilot.perception.icons.line_glyphs import split_unread_glyph

    box = (0, 0, 200, 20)
    unread = _line([(0, 40), (48, 100), (110, 124)])  # two words, then a glyph 10 px (0.71 h) apart
    assert split_unread_glyph(unread, box, 2) == (0, 0, 105, 20)
    assert split_unread_glyph(unread, box, 3) == box  # the OCR read three words: the last is one
    close = _line([(0, 40), (48, 100), (106, 120)])  # a gap of 5 px (0.36 h): a word gap, not a glyph's
    assert split_unread_glyph(close, box, 2) == box
    wide = _line([(0, 40), (48, 100), (110, 150)])  # a last part wider than a glyph: a word
    assert split_unread_glyph(wide, box, 2) == box
    many = _line([(0, 20), (28, 50), (60, 80), (90, 104)])  # three parts more than the one word read
    assert split_unread_glyph(many, box, 1) == box


@real
def test_a_line_read_as_ending_in_a_letter_keeps_its_end() -> None:
    image = read_image(REAL / "Multi-App/3/5.jpg")
    assert text_part(image, (79, 496, 168, 525), "Sports")[2] == 168  # OCR saw no symbol: keep it


@real
def test_a_short_first_word_read_by_ocr_is_not_cut_off_as_a_glyph() -> None:
    # Notes (training screen): the "All" of "All notes" is glyph-sized, but OCR read it as the first word
    assert text_part(read_image(REAL / "Notes/2/4.jpg"), (28, 168, 304, 234), "All notes")[0] == 28


def test_a_leading_blob_is_a_glyph_when_unread_or_read_as_a_symbol() -> None:
    from droidpilot.perception.icons.line_glyphs import _lead_unread

    ink = _line([(0, 20), (30, 60), (70, 110)])  # three parts: a glyph-sized one, then two words
    assert not _lead_unread(ink, "All notes now")  # each part a word OCR read
    assert _lead_unread(ink, "notes now")  # near miss: a part more than the words read
    assert _lead_unread(ink, "+ notes now")  # near miss: read, but as a symbol
    assert _lead_unread(_line([(0, 20), (30, 60)]), "Q Search")  # near miss: a magnifier read as a letter


def _line(blobs: list[tuple[int, int]], height: int = 20) -> np.ndarray:
    ink = np.zeros((height, 200), bool)
    for x1, x2 in blobs:
        ink[3:height - 3, x1:x2] = True
    return ink


def test_a_symbol_followed_by_a_word_is_not_cut() -> None:
    from droidpilot.perception.icons.line_glyphs import split_trailing_symbol

    ink = _line([(0, 60), (70, 150)])  # "Play >" read, but the last blob after the gap is a word
    assert split_trailing_symbol(ink, (0, 0, 200, 20)) == (0, 0, 200, 20)
    glyph = _line([(0, 60), (70, 84)])  # a glyph-wide last blob is cut
    assert split_trailing_symbol(glyph, (0, 0, 200, 20)) == (0, 0, 65, 20)  # ends in the gap


def test_symbols_are_told_from_letters_and_punctuation() -> None:
    assert ends_with_symbol("4.0★") and ends_with_symbol("Sports >") and ends_with_symbol("More ›")
    assert ends_with_symbol("Rated for 3+ ①") and ends_with_symbol("Info ⓘ")
    assert not ends_with_symbol("Step 1") and not ends_with_symbol("Level 3")
    assert not ends_with_symbol("Sports") and not ends_with_symbol("Done.") and not ends_with_symbol("50%")
    assert not ends_with_symbol("") and not ends_with_symbol("设置")


def test_ink_is_measured_against_the_line_s_own_background() -> None:
    chip = np.full((30, 100, 3), 250, np.uint8)  # a white chip
    chip[8:22, 10:30] = 40  # dark glyph
    assert line_ink(chip, (0, 0, 100, 30)).sum() == 14 * 20
    dark = np.full((30, 100, 3), 30, np.uint8)  # the same line on a dark card: the white is the ink
    dark[8:22, 10:30] = 240
    assert line_ink(dark, (0, 0, 100, 30)).sum() == 14 * 20


def _badge_scene(key: bool) -> tuple[np.ndarray, Box]:
    """A white box holding dark "CC" letters (its OCR box is the white box) on a gray disc; with
    ``key``, the white box is a keyboard key larger than the letters' box, so white surrounds it too."""
    image = np.full((400, 400, 3), 245, np.uint8)
    image[150:250, 150:250] = 90  # the gray button
    if key:
        image[175:225, 170:230] = 255  # a key wider than the letters' box: white on both sides of it
    else:
        image[188:212, 186:214] = 255  # the white box, exactly the OCR box
    image[194:206, 190:198] = 30  # "C"
    image[194:206, 202:210] = 30  # "C"
    return image, (186, 188, 214, 212)


def test_a_short_word_on_its_own_tile_is_a_badge() -> None:
    from droidpilot.perception.icons.line_glyphs import badge

    image, box = _badge_scene(key=False)
    assert badge(image, box, "CC")
    assert not badge(image, box, "Subtitles on")  # a longer text is a label, on whatever it is drawn


def test_a_word_on_a_key_or_on_the_page_is_no_badge() -> None:
    from droidpilot.perception.icons.line_glyphs import badge

    image, box = _badge_scene(key=True)
    assert not badge(image, box, "CC")  # a key's letters: the key's white on both sides of the rim
    page = np.full((400, 400, 3), 245, np.uint8)
    page[194:206, 190:198] = 30
    assert not badge(page, box, "A")  # a letter on the page


@real
def test_a_captions_badge_read_as_text_is_proposed() -> None:
    # YouTube (report screen): the white "CC" box on a gray disc, read "CC" at 0.98, was text before
    from droidpilot.perception.icons.candidates import find_regions, iou
    from droidpilot.perception.types import OcrLine

    image = read_image(REAL / "YouTube/3/5.jpg")
    lines = [OcrLine("CC", (484, 255, 512, 277), 0.982)]
    assert any(iou(r.box, (484, 254, 513, 279)) >= 0.5 for r in find_regions(image, lines))


@real
def test_a_row_of_status_icons_read_as_text_is_icons() -> None:
    # Gmail (training screen): "VPN ×" read over the VPN key, a muted bell, wifi, a SIM's cross and the
    # battery; the bell (387-403) was blanked as text before
    from droidpilot.perception.icons.candidates import find_regions, iou
    from droidpilot.perception.icons.line_glyphs import status_icons
    from droidpilot.perception.types import OcrLine

    image = read_image(REAL / "Gmail/3/2.jpg")
    assert status_icons(image, (349, 15, 502, 39), "VPN ×")
    assert not status_icons(image, (26, 15, 86, 39), "15:06")  # the clock holds what it reads
    lines = [OcrLine("15:06", (26, 15, 86, 39), 1.0), OcrLine("VPN ×", (349, 15, 502, 39), 0.72)]
    assert any(iou(r.box, (387, 19, 403, 36)) >= 0.5 for r in find_regions(image, lines))


@real
def test_a_status_bar_word_holding_its_own_ink_stays_text() -> None:
    from droidpilot.perception.icons.line_glyphs import status_icons

    # Amazon Music (training screen): "VPN" read over the VPN key alone
    assert not status_icons(read_image(REAL / "Amazon Music/1/2.jpg"), (352, 17, 382, 36), "VPN")


def test_status_icons_are_only_in_the_status_bar_and_never_the_clock() -> None:
    from droidpilot.perception.icons.line_glyphs import status_icons

    screen = np.full((1170, 540, 3), 245, np.uint8)
    for x in (360, 390, 420, 450):  # four icon-sized blobs, well apart
        screen[18:34, x:x + 16] = 40
        screen[618:634, x:x + 16] = 40  # the same row mid-screen: a line of text, not the status bar
    assert status_icons(screen, (350, 14, 480, 38), "VPN")
    assert not status_icons(screen, (350, 614, 480, 638), "VPN")  # below the status bar
    assert not status_icons(screen, (350, 14, 480, 38), "12:34")  # the clock stays text
    assert not status_icons(screen, (350, 14, 480, 38), "one two three")  # the words it holds


@real
def test_a_glyph_ocr_left_unread_between_words_is_cut_out() -> None:
    # Google Maps (training screen): "Lake· 40 min" read, the car (89-106) between "Lake·" and "40" not
    from droidpilot.perception.icons.line_glyphs import text_parts

    left, right = text_parts(read_image(REAL / "Google Maps/3/5.jpg"), (21, 1043, 184, 1067), "Lake· 40 min")
    assert left[0] == 21 and 79 <= left[2] <= 89 and 106 <= right[0] <= 117 and right[2] == 184


def test_an_inner_glyph_must_be_the_one_extra_word_set_apart_on_both_sides() -> None:
    from droidpilot.perception.icons.line_glyphs import split_inner_glyph

    box = (0, 0, 200, 20)
    car = _line([(0, 40), (42, 44), (60, 74), (84, 100), (106, 140)])  # word, dot, glyph, two words
    car[3:17, 42:44] = False
    car[13:15, 42:44] = True  # the dot is low and small: part of the word before it
    assert split_inner_glyph(car, box, 3) == [(0, 0, 52, 20), (79, 0, 200, 20)]
    assert split_inner_glyph(car, box, 4) == [box]  # the OCR read four words: the glyph is one
    close = _line([(0, 40), (48, 62), (67, 100), (106, 140)])  # 4 px (0.29 h) to the next word: a word
    assert split_inner_glyph(close, box, 3) == [box]
    two = _line([(0, 40), (50, 64), (74, 88), (98, 140)])  # two glyph-like words set apart
    assert split_inner_glyph(two, box, 3) == [box]  # one is unread, but which: the words do not say
    assert split_inner_glyph(two, box, 2) == [box]  # two words more than read: not one unread glyph
