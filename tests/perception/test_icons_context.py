"""The thing a query says an icon is in or on: a search bar found around its hint text (or the text typed
in it), a coloured button by its colour, and candidates outside it weighed down."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from droidpilot.perception.icons import locate_icon
from droidpilot.perception.icons.context import coloured_patch, container_box, field_around, inside
from droidpilot.perception.icons.drawing import DrawnIcon, as_rgb, blank_screen, draw_icon
from droidpilot.perception.types import OcrLine

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
W, H = 540, 1170
BAR = (30, 80, 510, 140)  # a light gray search field on a white page


def _write(img: np.ndarray, text: str, at: tuple[int, int]) -> tuple[np.ndarray, OcrLine]:
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    font = ImageFont.truetype(str(FONT), 22) if FONT.exists() else ImageFont.load_default()
    draw.text(at, text, fill=(90, 90, 90), font=font)
    box = tuple(int(v) for v in draw.textbbox(at, text, font=font))
    return cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR), OcrLine(text, box, 0.99)


def _screen(hint: str) -> tuple[np.ndarray, list[OcrLine], DrawnIcon, DrawnIcon]:
    img = blank_screen(W, H, "light")
    cv2.rectangle(img, BAR[:2], (BAR[2] - 1, BAR[3] - 1), (225, 225, 225), -1)
    in_bar = draw_icon(img, "circle", (470, 110), 30, "gray", outline=4)  # a ring at the bar's right end
    below = draw_icon(img, "circle", (470, 1000), 30, "gray", outline=4)  # the same ring further down
    img, line = _write(img, hint, (80, 96))
    img, other = _write(img, "Since you searched for rings", (30, 600))
    return img, [line, other], in_bar, below


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def test_the_search_field_is_found_around_its_hint_or_typed_text() -> None:
    for hint in ("Search here", "Steph Curry"):  # a hint, or a search already typed (no hint word)
        img, lines, _, _ = _screen(hint)
        box = container_box(img, lines, "search bar")
        assert box is not None and abs(box[0] - BAR[0]) <= 2 and abs(box[2] - BAR[2]) <= 2, hint
        assert abs(box[1] - BAR[1]) <= 2 and abs(box[3] - BAR[3]) <= 2, hint
    img, lines, _, _ = _screen("Search here")
    assert container_box(img, lines[1:], "search bar") is None  # "searched" in a sentence is no hint
    assert container_box(img, lines, "popup") is None  # not a kind looked for: no preference at all


def test_a_field_the_colour_of_the_page_is_the_row_not_the_page() -> None:
    img = blank_screen(W, H, "light")
    img, line = _write(img, "Search", (80, 300))
    box = field_around(img, line.box)
    assert box[0] == 0 and box[2] == W and box[3] - box[1] < 100  # the band across the screen


def test_the_icon_in_the_search_bar_not_the_one_below() -> None:
    img, lines, in_bar, below = _screen("Search here")
    res = locate_icon(as_rgb(img), "gray ring in the search bar", ocr_lines=lines)
    assert res.status == "found" and _inside(res.candidates[0].point, in_bar.box)
    res = locate_icon(as_rgb(img), "gray ring, bottom", ocr_lines=lines)  # no container: the place decides
    assert res.status == "found" and _inside(res.candidates[0].point, below.box)


def test_the_one_icon_on_a_coloured_button() -> None:
    img = blank_screen(W, H, "light")
    cv2.rectangle(img, (30, 260), (510, 315), (218, 209, 37), -1)  # a cyan button (BGR)
    star = draw_icon(img, "star", (120, 287), 22, "black")
    draw_icon(img, "star", (120, 700), 22, "black")
    img, label = _write(img, "Try it free", (160, 275))
    patch = coloured_patch(img, "cyan")
    assert patch is not None and inside(star.box, patch)
    res = locate_icon(as_rgb(img), "sparkle icon on the cyan button", ocr_lines=[label])
    assert res.status == "found" and _inside(res.candidates[0].point, star.box)
