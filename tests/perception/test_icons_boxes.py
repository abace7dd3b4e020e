"""Rows of dots (perception/icons/boxes.py's dot_rows): a kebab menu's three dots, each too small to be
proposed alone, are one proposal; dots too far apart, unlike in size, or only two are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.perception.icons.boxes import dot_rows
from droidpilot.perception.icons.candidates import find_regions, iou
from droidpilot.perception.icons.imageio import read_image

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"


@pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")
@pytest.mark.parametrize(("path", "truth"), [
    ("YouTube/3/2.jpg", (501, 510, 504, 528)),  # train: three dots beside a video title, 3-5 px each
    ("YouTube/3/6.jpg", (501, 417, 504, 434)),  # train: three dots on a sponsored card
])
def test_a_kebab_menu_of_tiny_dots_is_proposed(path: str, truth: tuple[int, int, int, int]) -> None:
    regions = find_regions(read_image(REAL / path), [])
    assert any(iou(r.box, truth) >= 0.5 for r in regions)


def test_three_alike_dots_in_a_column_are_one_row() -> None:
    dots = [(501, 511, 505, 516), (501, 518, 506, 522), (502, 525, 505, 529)]  # as JPEG left them
    assert dot_rows(dots, 8) == [(501, 511, 506, 529)]


def test_a_row_of_dots_reads_sideways_too() -> None:
    assert dot_rows([(10, 50, 14, 54), (19, 50, 23, 54), (28, 50, 32, 54)], 8) == [(10, 50, 32, 54)]


@pytest.mark.parametrize("dots", [
    [(10, 50, 14, 54), (19, 50, 23, 54)],  # two dots: a colon, not a menu
    [(10, 50, 14, 54), (30, 50, 34, 54), (50, 50, 54, 54)],  # 16 px apart: separate specks
    [(10, 50, 14, 54), (19, 50, 23, 54), (28, 48, 36, 56)],  # the third is twice the size
    [(10, 50, 20, 60), (25, 50, 35, 60), (40, 50, 50, 60)],  # larger than a dot: parts, left to group
])
def test_near_misses_are_no_row(dots: list[tuple[int, int, int, int]]) -> None:
    assert dot_rows(dots, 8) == []
