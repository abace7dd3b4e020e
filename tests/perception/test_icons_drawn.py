"""Shapes drawn by our own code join the glyph library: a round speech bubble, a curved share arrow and the
shift key's block arrow, as real apps draw them, are found by their words in any stroke, and their near
misses (a plain ring, a chevron, a "less-than") are not."""

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
