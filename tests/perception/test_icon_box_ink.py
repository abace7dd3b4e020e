"""Tightening an icon's box to its ink (benchmarks/icon_box_ink.py), as the real-screen icon set's boxes are
written: on drawn images whose true ink box is known, and on the shipped set's own boxes."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from droidpilot.errors import InputError

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"


def _module(name: str):  # a module of benchmarks/ (not a package), imported by path
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ink():
    return _module("icon_box_ink")


def _page(h: int = 60, w: int = 60, colour: tuple[int, int, int] = (245, 245, 245)) -> np.ndarray:
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = colour
    return image


def test_a_glyph_on_a_plain_page_is_boxed_exactly(ink) -> None:
    image = _page()
    image[15:21, 12:22] = (30, 30, 30)  # rows 15..20, columns 12..21: [12, 15, 22, 21) exclusive
    assert ink.ink_box(image, (5, 5, 40, 40)) == (12, 15, 22, 21)
    assert ink.rim_is_plain(image, (5, 5, 40, 40))


def test_separate_parts_are_one_icon_and_a_stray_pixel_is_not_ink(ink) -> None:
    image = _page()
    for x in (20, 27, 34):  # three dots
        image[30:33, x:x + 3] = (20, 20, 20)
    image[10, 10] = (0, 0, 0)  # one JPEG speck, smaller than min_area
    assert ink.ink_box(image, (4, 4, 50, 50)) == (20, 30, 37, 33)


def test_a_faint_icon_needs_a_lower_tolerance(ink) -> None:
    image = _page()
    image[20:30, 20:40] = (215, 215, 215)  # a pale gray switch: 30 levels from the page
    with pytest.raises(InputError, match=re.escape("holds no ink unlike its rim (tolerance 48)")):
        ink.ink_box(image, (10, 10, 50, 50))
    assert ink.ink_box(image, (10, 10, 50, 50), tol=20) == (20, 20, 40, 30)


def test_a_white_glyph_on_a_coloured_button_is_its_ink(ink) -> None:
    image = _page(colour=(10, 90, 210))  # the button's blue is the rim, so the glyph is the ink
    image[25:35, 28:31] = (255, 255, 255)
    image[28:31, 24:36] = (255, 255, 255)
    assert ink.ink_box(image, (15, 15, 45, 45)) == (24, 25, 36, 35)


@pytest.mark.parametrize(("box", "needle"), [
    ((50, 50, 70, 70), "is not inside the 60x60 screen"),
    ((10, 10, 12, 40), "is not inside the 60x60 screen with room for a rim"),
    ((-1, 0, 20, 20), "is not inside"),
])
def test_a_box_off_the_screen_or_too_small_is_refused(ink, box, needle: str) -> None:
    with pytest.raises(InputError, match=re.escape(needle)):
        ink.ink_box(_page(), box)


def test_a_rim_across_other_ink_is_busy(ink) -> None:
    image = _page()
    image[:, 30:33] = (0, 0, 0)  # a rule line the rough box's rim crosses
    assert not ink.rim_is_plain(image, (10, 10, 50, 50))


pytestmark_real = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


@pytestmark_real
def test_the_holdout_boxes_are_tight_to_their_ink(ink) -> None:
    found = ink.check("holdout", slack=1)  # a rim a pixel further out may take in one more anti-aliased row
    assert all("busy rim, box kept as drawn by hand" in line for line in found), found


CHROME = """root: ../shared/reference/mobile-eval-real
screens:
  - path: Chrome/1/2.jpg
    split: report
    icons:
      - {query: "gray gear, right", box: BOX}
"""


@pytestmark_real
@pytest.mark.parametrize(("box", "reported"), [
    ("[489, 786, 513, 811]", False),  # the shipped box
    ("[489, 786, 516, 811]", True),   # three pixels of page on the right
    ("[489, 789, 513, 811]", True),   # three rows of the gear cut off at the top
])
def test_check_reports_a_box_a_few_pixels_off(ink, tmp_path: Path, box: str, reported: bool) -> None:
    path = tmp_path / "set.yaml"
    path.write_text(CHROME.replace("BOX", box), encoding="utf-8")
    found = ink.check("all", slack=1, path=path)
    assert bool(found) == reported, found
    if reported:
        assert "ink is [489, 786, 513, 811]" in found[0]
