"""Icon localisation on real phone screens (mobile-eval-real, MIT, X-PLUG/MobileAgent; see its LICENSE).

A few screens of ../shared/reference/mobile-eval-real with boxes from benchmarks/data/real_icons.yaml:
everyday icons drawn by other icon sets than the library's font are found, and near misses are not
taken (a bell query does not pick the gear on the same bar; an outlined heart is not the filled one).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from droidpilot.perception.icons.candidates import _is_text
from droidpilot.perception.icons.rank import locate_icon
from droidpilot.perception.types import Box, OcrLine

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


def _screen(path: str) -> np.ndarray:
    return np.asarray(Image.open(REAL / path).convert("RGB"))


def _found_in(image: np.ndarray, query: str, box: Box) -> bool:
    res = locate_icon(image, query, ocr_lines=[])
    if res.status != "found":
        return False
    x, y = res.candidates[0].point
    return box[0] <= x < box[2] and box[1] <= y < box[3]


AMAZON_BELL: Box = (40, 94, 68, 127)
AMAZON_GEAR: Box = (470, 95, 504, 128)


@pytest.fixture(scope="module")
def amazon() -> np.ndarray:
    return _screen("Amazon Music/1/2.jpg")


def test_a_filled_vendor_gear_is_found(amazon: np.ndarray) -> None:
    # Amazon Music's gear is a bold, filled gear with a round hole: not the Material font's drawing
    assert _found_in(amazon, "white gear, top right", AMAZON_GEAR)


def test_a_bell_query_does_not_pick_the_gear_on_the_same_bar(amazon: np.ndarray) -> None:
    assert _found_in(amazon, "white bell, top", AMAZON_BELL)
    assert _found_in(amazon, "gear, top", AMAZON_GEAR)  # and the other way round, worded differently


def test_keyboard_backspace_and_a_house_in_a_bottom_bar() -> None:
    keyboard = _screen("Chrome/2/3.jpg")
    assert _found_in(keyboard, "backspace key, bottom right", (481, 1007, 514, 1031))
    assert _found_in(keyboard, "delete key, bottom right", (481, 1007, 514, 1031))  # another word
    music = _screen("Amazon Music/1/2.jpg")
    assert _found_in(music, "cyan house, bottom left", (48, 1074, 81, 1105))


def test_outline_icons_in_a_tab_bar() -> None:
    shop = _screen("Alibaba.com/2/3.jpg")
    assert _found_in(shop, "shopping cart, bottom", (363, 1077, 393, 1106))
    assert _found_in(shop, "person outline, bottom right", (473, 1076, 499, 1107))
    assert not _found_in(shop, "person outline, bottom right", (363, 1077, 393, 1106))  # not the cart


def _heart_screen() -> tuple[np.ndarray, Box, Box]:
    """A white page with two real hearts: Alibaba's outlined heart and TikTok's filled heart (its white
    pixels drawn dark, as a filled heart on a light page)."""
    outline = _screen("Alibaba.com/2/8.jpg")[910:950, 424:466]
    filled_src = _screen("TikTok/1/2.jpg")[550:606, 468:522].astype(np.int16)
    ink = filled_src.min(axis=2) > 225
    page = np.full((1170, 540, 3), 250, np.uint8)
    page[500:540, 100:142] = outline
    patch = page[500:556, 360:414]
    patch[ink] = (40, 40, 40)
    return page, (100, 500, 142, 540), (360, 500, 414, 556)


def test_outlined_heart_is_not_the_filled_heart() -> None:
    page, outlined, filled = _heart_screen()
    assert _found_in(page, "outlined heart", outlined)
    assert _found_in(page, "filled heart", filled)
    assert _found_in(page, "heart outline", outlined)  # the style word after the shape
    assert _found_in(page, "solid heart", filled)


def test_a_kebab_menu_the_ocr_read_as_000_is_still_an_icon() -> None:
    mail = _screen("Gmail/3/3.jpg")
    read = [OcrLine("000", (493, 101, 509, 132), 0.88)]  # what RapidOCR reads there
    res = locate_icon(mail, "three dots, top right", ocr_lines=read)
    assert res.status == "found"
    x, y = res.candidates[0].point
    assert 495 <= x < 508 and 100 <= y < 132


def test_only_short_stacked_reads_are_taken_for_icons() -> None:
    assert not _is_text(OcrLine("000", (493, 101, 509, 132), 0.88))  # three dots stacked
    assert _is_text(OcrLine("000", (100, 100, 140, 116), 0.88))  # a number on a line
    assert _is_text(OcrLine("1", (100, 100, 108, 120), 0.99))  # a tall lone digit stays text
    assert _is_text(OcrLine("Wi-Fi", (100, 100, 110, 160), 0.9))  # five characters: text, whatever the box


# Gmail's keyboard as RapidOCR reads it: one confident letter per key of the middle and lower rows.
KEY_LINES = [OcrLine(t, b, 0.99) for t, b in (
    ("a", (44, 928, 68, 957)), ("S", (97, 928, 122, 957)), ("d", (149, 922, 177, 957)),
    ("f", (206, 923, 227, 957)), ("g", (255, 926, 285, 965)), ("h", (308, 922, 338, 959)),
    ("k", (417, 923, 444, 958)), ("Z", (97, 1008, 122, 1036)), ("X", (149, 1007, 176, 1036)),
    ("C", (203, 1006, 230, 1037)), ("V", (256, 1007, 284, 1036)), ("b", (309, 1001, 337, 1037)),
    ("n", (364, 1007, 390, 1036)), ("m", (412, 1007, 449, 1037)))]


def test_a_shift_key_query_taps_no_letter_key() -> None:
    # the glyph matcher reads the "f" key's letter as an arrow; a keyboard's letter keys are text, so no
    # letter key is tapped, and the shift key is among the candidates the model is shown
    res = locate_icon(_screen("Gmail/3/3.jpg"), "shift key arrow, bottom left", ocr_lines=KEY_LINES)
    shift = (29, 1006, 57, 1032)
    on_shift = [shift[0] <= x <= shift[2] and shift[1] <= y <= shift[3] for x, y in
                (c.point for c in res.candidates)]
    assert res.status != "found" or on_shift[0], res.candidates[0].point
    assert any(on_shift), [c.point for c in res.candidates]


def test_a_white_heart_over_a_video_picture_is_found() -> None:
    # TikTok: the liked-video heart sits on a photo whose texture glued it to the picture
    assert _found_in(_screen("TikTok/3/5.jpg"), "white heart, right", (472, 613, 517, 658))
