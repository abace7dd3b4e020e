"""What real apps draw icons on (perception/icons/grounds.py) as proposals: glyphs inside chips and pills,
faint tiles (a switch's track, the disc behind a map pin) and vivid ink on a dull picture. Real cases are
icons of benchmarks/data/real_icon_train_*.yaml (and tune) the proposal stage missed before; the near
misses are what must not become a proposal (thin strokes, colour on a colourful page)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from droidpilot.perception.icons.boxes import components
from droidpilot.perception.icons.candidates import _background, find_regions, iou
from droidpilot.perception.icons.grounds import faint_tiles, tile_shaped, vivid
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.types import Box, OcrLine

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
real = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


def _proposed(path: str, truth: Box) -> bool:
    """Does find_regions propose the icon (IoU >= 0.5 with its true box, as icon_proposals.py counts)?"""
    regions = find_regions(read_image(REAL / path), [])
    return any(iou(r.box, truth) >= 0.5 for r in regions)


@real
@pytest.mark.parametrize(("path", "truth"), [
    ("Google Play/3/2.jpg", (258, 1071, 282, 1096)),  # train: four squares on the Apps tab's blue pill
    ("Google Play/2/4.jpg", (258, 1071, 282, 1095)),  # tune: the same tab bar on another screen
])
def test_a_glyph_of_parts_inside_a_pill_is_one_proposal(path: str, truth: Box) -> None:
    assert _proposed(path, truth)


@real
@pytest.mark.parametrize(("path", "truth"), [
    ("Settings/2/4.jpg", (450, 183, 504, 215)),  # train: a light-gray switch track, off
    ("Google Maps/2/4.jpg", (36, 259, 84, 307)),  # tune: the gray disc behind a pin in a result list
])
def test_a_faint_tile_is_proposed(path: str, truth: Box) -> None:
    assert _proposed(path, truth)


@real
@pytest.mark.parametrize(("path", "truth"), [
    ("TikTok/3/4.jpg", (474, 615, 516, 655)),  # train: TikTok's red heart on the video
    ("Amazon Music/3/2.jpg", (41, 1000, 79, 1036)),  # train: a teal radio badge over a yellow-striped photo
])
def test_vivid_ink_on_a_dull_picture_is_a_part_of_the_vivid_mask(path: str, truth: Box) -> None:
    # the mask finds these; it is not wired into find_regions (its parts of photos and logos took two
    # colour-only taps of grounding_real: "yellow circle", "turquoise circle")
    work = read_image(REAL / path)
    parts = components(vivid(work, _background(work)))
    assert any(iou(p, truth) >= 0.5 for p in parts)


def test_thin_faint_strokes_are_no_tile() -> None:
    page = np.full((400, 300), 0, np.uint8)  # diff to the page: 0 everywhere
    cv2.circle(page, (150, 100), 25, 20, 2)  # a faint ring: a divider-like outline, not a solid tile
    cv2.rectangle(page, (60, 250), (240, 252), 20, -1)  # a faint divider line
    cv2.rectangle(page, (120, 300), (170, 330), 20, -1)  # a solid faint tile: the one proposal
    assert faint_tiles(page, 300.0) == [(120, 300, 171, 331)]


def test_a_faint_tile_with_strong_ink_over_most_of_it_is_left_to_the_ordinary_mask() -> None:
    diff = np.zeros((400, 300), np.uint8)
    diff[100:140, 100:150] = 90  # a dark tile: the ordinary 35-mask proposes it already
    assert faint_tiles(diff, 300.0) == []


def test_colour_on_a_colourful_page_is_not_vivid_ink() -> None:
    work = np.full((200, 200, 3), (200, 60, 20), np.uint8)  # a saturated blue bar (BGR)
    cv2.circle(work, (100, 100), 20, (40, 40, 230), -1)  # a red disc on it
    assert not vivid(work, work.copy()).any()  # the page behind is as colourful: not "vivid on dull"
    dull = np.full((200, 200, 3), 90, np.uint8)
    assert vivid(work, dull).any()


def test_two_touching_colours_are_cut_at_their_seam() -> None:
    work = np.full((120, 200, 3), 60, np.uint8)
    work[40:80, 20:100] = (20, 200, 230)  # a yellow stripe (BGR)
    work[40:80, 100:140] = (200, 190, 20)  # a teal badge touching it
    parts = components(vivid(work, np.full_like(work, 60)))
    assert len(parts) == 2 and any(p[0] >= 100 for p in parts)


def test_a_chip_is_tile_shaped_and_a_toolbar_is_not() -> None:
    assert tile_shaped((0, 0, 130, 40), 540.0)  # a "Repost" chip: wide but short
    assert not tile_shaped((0, 0, 520, 60), 540.0)  # a search bar across the screen
    assert not tile_shaped((0, 0, 130, 90), 540.0)  # a card: too tall for a chip, too big for a tile


@real
def test_a_chip_s_glyph_is_proposed_and_its_label_s_letters_are_not() -> None:
    image = read_image(REAL / "Google Maps/3/2.jpg")  # train: the "Hotels" chip over the map
    lines = [OcrLine("Hotels", (231, 185, 342, 209), 1.0)]  # as RapidOCR reads it: the bed inside the box
    regions = find_regions(image, lines)
    assert any(iou(r.box, (236, 189, 261, 207)) >= 0.5 for r in regions)  # the bed
    word = (266, 187, 342, 209)
    assert not any(r.box[0] >= word[0] - 2 and r.box[2] <= word[2] + 2 and r.box[1] >= word[1] - 4
                   and r.box[3] <= word[3] + 4 for r in regions)  # no letter, no group of letters
