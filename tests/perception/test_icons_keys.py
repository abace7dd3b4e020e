"""A keyboard's letter keys are text: a row of look-alike keys each captioned by one OCR-read letter. A lone
letter elsewhere (a magnifier read as "Q") and a column of avatars with initials stay icon candidates."""

from __future__ import annotations

import numpy as np

from droidpilot.perception.icons.candidates import find_regions
from droidpilot.perception.icons.keys import caption_boxes, letter_keys
from droidpilot.perception.types import OcrLine


def _key(x: int, y: int) -> tuple[int, int, int, int]:
    return (x, y, x + 50, y + 68)


def _letter(x: int, y: int) -> tuple[int, int, int, int]:
    return (x + 14, y + 18, x + 36, y + 50)


def test_a_row_of_captioned_keys_is_a_keyboard() -> None:
    row = [_key(x, 900) for x in (5, 60, 115, 170)]
    keys, caps = letter_keys(row, [_letter(x, 900) for x in (5, 60, 115, 170)])
    assert keys == set(row) and len(caps) == 4


def test_two_keys_a_column_of_avatars_and_uncaptioned_tiles_are_not() -> None:
    two = [_key(5, 900), _key(60, 900)]
    assert letter_keys(two, [_letter(5, 900), _letter(60, 900)])[0] == set()
    column = [_key(20, y) for y in (300, 400, 500)]  # avatars with initials, one under the other
    assert letter_keys(column, [_letter(20, y) for y in (300, 400, 500)])[0] == set()
    row = [_key(x, 900) for x in (5, 60, 115)]  # a row of tiles, one captioned: icons on tiles
    assert letter_keys(row, [_letter(5, 900)])[0] == set()


def test_captions_are_one_confident_character() -> None:
    lines = [OcrLine("f", (1, 1, 9, 12), 0.99), OcrLine("f", (20, 1, 29, 12), 0.6),
             OcrLine("fg", (40, 1, 59, 12), 0.99), OcrLine("?", (70, 1, 79, 12), 0.99)]
    assert caption_boxes(lines) == [(1, 1, 9, 12)]


def test_find_regions_drops_the_letter_keys_but_keeps_the_shift_key() -> None:
    img = np.full((1170, 540, 3), (230, 225, 222), np.uint8)
    lines = []
    for i, x in enumerate((60, 115, 170, 225)):
        img[900:968, x:x + 50] = 255
        img[918:950, x + 18:x + 32] = 40  # the letter
        lines.append(OcrLine("zxcv"[i], (x + 14, 916, x + 36, 952), 0.99))
    img[900:968, 5:55] = (200, 195, 190)  # the shift key: a darker key with an arrow, no caption
    img[915:955, 26:34] = 40
    img[915:923, 18:42] = 40
    boxes = [r.box for r in find_regions(img, lines)]
    assert not any(b[0] >= 60 and b[2] <= 280 and b[1] >= 895 for b in boxes), boxes
    assert any(b[0] <= 26 and b[2] >= 34 and b[1] >= 895 and b[3] <= 972 for b in boxes), boxes
