"""Shapes drawn by our own code join the glyph library: a round speech bubble, a curved share arrow and the
shift key's block arrow, a curved shuffle, a bed, a pin with a hole, a sparkle, fullscreen corners, a
captions box and a gamepad, as real apps draw them, are found by their words in any stroke, and their near
misses (a plain ring, a chevron, a "less-than", a five-point star, repeat, a sofa, a square) are not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from droidpilot.perception.icons.glyphs import (
    available,
    glyph_fits,
    glyph_mask,
    mask_descriptor,
    phrase_glyphs,
)
from droidpilot.perception.icons.glyphs.catalogue import glyph_names
from droidpilot.perception.icons.glyphs.drawn import DRAWN
from droidpilot.perception.icons.glyphs.match import library

pytestmark = pytest.mark.skipif(not available(), reason="fonts-material-design-icons-iconfont not installed")
AA = cv2.LINE_AA


def _outlined(mask: np.ndarray, side: int, pen: int) -> np.ndarray:
    """A filled mask's outlines redrawn with a ``pen``-pixel line at ``side`` pixels (an outlined set)."""
    mask = np.pad(mask, 4)
    scale = (side - 2) / max(mask.shape)
    contours, _ = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    img = np.zeros((side, side), np.uint8)
    cv2.drawContours(img, [np.round(c * scale).astype(np.int32) for c in contours], -1, 1, pen)
    return img


def _fit(img: np.ndarray, words: str) -> float:
    return glyph_fits([mask_descriptor(img)], phrase_glyphs(words))[0]


def test_the_drawn_shapes_are_library_glyphs_with_words() -> None:
    names, _ = library()
    assert set(DRAWN) <= set(names) and set(DRAWN) <= set(glyph_names())
    assert "drawn_round_bubble" in phrase_glyphs("speech bubble")
    assert "drawn_block_arrow_up" in phrase_glyphs("shift key")
    assert glyph_mask("drawn_curved_share").shape[0] > 40  # drawn at the font's render size


def test_an_outlined_round_bubble_is_a_speech_bubble_and_a_ring_is_not() -> None:
    bubble = _outlined(glyph_mask("drawn_round_bubble"), 26, 1)
    ring = np.zeros((26, 26), np.uint8)
    cv2.ellipse(ring, (13, 12), (11, 10), 0, 0, 360, 1, 1, AA)
    assert _fit(bubble, "speech bubble") >= 0.5
    assert _fit(ring, "speech bubble") < 0.5 * _fit(bubble, "speech bubble")


def test_a_bubble_with_three_dots_is_a_speech_bubble() -> None:
    dots = cv2.resize(glyph_mask("drawn_round_bubble_dots") * 255, (40, 40), interpolation=cv2.INTER_AREA)
    assert _fit((dots > 127).astype(np.uint8), "speech bubble") >= 0.5


def test_an_outlined_block_arrow_is_the_shift_key_and_a_chevron_is_not() -> None:
    shift = _outlined(glyph_mask("drawn_block_arrow_up"), 26, 1)
    chevron = np.zeros((26, 26), np.uint8)
    cv2.polylines(chevron, [np.array([[3, 18], [13, 7], [23, 18]], np.int32)], False, 1, 2, AA)
    assert _fit(shift, "shift key") >= 0.5
    assert _fit(chevron, "shift key") < 0.5 * _fit(shift, "shift key")


def test_a_curved_share_arrow_is_share_and_a_less_than_is_not() -> None:
    share = cv2.resize(glyph_mask("drawn_curved_share") * 255, (36, 36), interpolation=cv2.INTER_AREA) > 127
    less = np.zeros((36, 36), np.uint8)
    cv2.polylines(less, [np.array([[28, 6], [8, 18], [28, 30]], np.int32)], False, 1, 3, AA)
    assert _fit(share.astype(np.uint8), "share") >= 0.5
    assert _fit(less, "share") < 0.5 * _fit(share.astype(np.uint8), "share")


def _small(name: str, side: int) -> np.ndarray:
    """A library glyph (the font's or a drawn one) scaled to ``side`` pixels on its longer side, as a small
    icon on screen."""
    mask = glyph_mask(name)
    scale = side / max(mask.shape)
    size = (max(1, round(mask.shape[1] * scale)), max(1, round(mask.shape[0] * scale)))
    img = cv2.resize(mask * 255, size, interpolation=cv2.INTER_AREA)
    return (img > 127).astype(np.uint8)


def _five_point_star(side: int) -> np.ndarray:
    img = np.zeros((side, side), np.uint8)
    radii = [(side / 2 - 1) * (1.0 if k % 2 == 0 else 0.45) for k in range(10)]
    angles = [-np.pi / 2 + k * np.pi / 5 for k in range(10)]
    pts = [(side / 2 + r * np.cos(a), side / 2 + r * np.sin(a)) for r, a in zip(radii, angles, strict=True)]
    cv2.fillPoly(img, [np.round(np.array(pts)).astype(np.int32)], 1, AA)
    return img


def _square_outline(side: int) -> np.ndarray:
    img = np.zeros((side, side), np.uint8)
    cv2.rectangle(img, (3, 3), (side - 4, side - 4), 1, 2)
    return img


# words -> (right ones drawn otherwise: the drawn shape, the font's own, an outline) and their look-alikes
RIGHT_AND_NEAR: dict[str, tuple[list[str], list[str]]] = {
    "sparkle": (["drawn_sparkle", "auto_awesome", "outlined:drawn_sparkle"], ["five-point star", "star"]),
    "fullscreen": (["drawn_fullscreen_corners", "fullscreen"], ["square", "crop"]),
    "shuffle": (["drawn_curved_shuffle", "shuffle"], ["repeat", "sync"]),
    "bed": (["drawn_bed"], ["weekend", "directions_car"]),
    "captions": (["outlined:drawn_captions_box", "drawn_captions_box"], ["square", "hd"]),
    "map pin": (["outlined:drawn_pin_with_hole"], ["water_drop", "radio_button_checked"]),
    "share nodes": (["share"], ["hub", "scatter_plot", "bubble_chart"]),
    "gamepad": (["drawn_gamepad", "outlined:drawn_gamepad"], ["directions_car", "weekend"]),
}


def _sample(name: str) -> np.ndarray:
    if name == "five-point star":
        return _five_point_star(32)
    if name == "square":
        return _square_outline(32)
    if name.startswith("outlined:"):
        return _outlined(glyph_mask(name.split(":", 1)[1]), 30, 2)
    return _small(name, 30)


@pytest.mark.parametrize("words", sorted(RIGHT_AND_NEAR))
def test_a_drawn_shape_fits_its_icon_in_any_drawing_and_not_its_look_alikes(words: str) -> None:
    right, near = RIGHT_AND_NEAR[words]
    right_fits = {name: _fit(_sample(name), words) for name in right}
    near_fits = {name: _fit(_sample(name), words) for name in near}
    assert min(right_fits.values()) >= 0.5, right_fits
    assert max(near_fits.values()) < 0.5 * min(right_fits.values()), (right_fits, near_fits)


def test_a_small_filled_pin_with_a_hole_reads_as_a_map_pin_and_a_drop_does_not() -> None:
    pin, drop = _fit(_small("drawn_pin_with_hole", 30), "map pin"), _fit(_small("water_drop", 30), "map pin")
    assert pin >= 0.4 and drop < 0.5 * pin


def test_the_new_words_name_the_drawn_shapes_and_a_star_is_no_sparkle() -> None:
    assert "drawn_sparkle" in phrase_glyphs("sparkles") and "drawn_sparkle" not in phrase_glyphs("star")
    assert "drawn_curved_shuffle" in phrase_glyphs("crossed arrows")
    assert "drawn_curved_shuffle" not in phrase_glyphs("repeat")
    assert "drawn_captions_box" in phrase_glyphs("cc")
    assert "drawn_fullscreen_corners" in phrase_glyphs("four corners")
    assert "drawn_bed" in phrase_glyphs("hotel") and "drawn_bed" not in phrase_glyphs("sofa")
