"""Glyph styles and the ink + edge descriptor: the same glyph thin, bold, outlined or filled still reads as
itself, and a different glyph drawn in the same style does not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from droidpilot.perception.icons.glyphs import available, glyph_fits, glyph_mask, mask_descriptor
from droidpilot.perception.icons.glyphs.descriptor import BINS, CELLS, EDGE_SIDE, _edges, _square, shape_part
from droidpilot.perception.icons.glyphs.styles import best_styles, glyph_starts, glyph_styles, styled_library

pytestmark = pytest.mark.skipif(not available(), reason="fonts-material-design-icons-iconfont not installed")


def _styles(name: str) -> dict[str, np.ndarray]:
    return dict(glyph_styles(glyph_mask(name)))


def test_a_filled_glyph_gets_an_outline_and_an_outlined_one_a_silhouette() -> None:
    heart = _styles("favorite")
    assert "outline" in heart and "filled" not in heart
    # the outline keeps the silhouette's edge and drops its inside
    assert heart["outline"].sum() < 0.6 * heart["drawn"].sum()
    border = _styles("favorite_border")
    assert "filled" in border and "outline" not in border
    assert border["filled"].sum() > 1.5 * border["drawn"].sum()


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    da, db = mask_descriptor(a), mask_descriptor(b)
    assert da is not None and db is not None
    return float(da @ db)


def test_stroke_weight_changes_a_glyph_less_than_another_glyph_does() -> None:
    gear = np.pad(glyph_mask("settings"), 8)
    bold = cv2.dilate(gear, np.ones((5, 5), np.uint8))
    bell = np.pad(glyph_mask("notifications"), 8)
    assert _cos(gear, bold) > 0.9
    assert _cos(gear, bold) > _cos(gear, bell) + 0.1


def test_an_outlined_gear_fits_gear_and_not_bell() -> None:
    styles = _styles("settings")
    ring = styles["outline"]
    d = mask_descriptor(cv2.resize(ring, (30, 30), interpolation=cv2.INTER_AREA))  # small, as on a phone
    gear_fit, bell_fit = glyph_fits([d, d], ["settings"])[0], glyph_fits([d], ["notifications"])[0]
    assert gear_fit > 0.5 and bell_fit < 0.1


def test_the_styled_library_groups_rows_by_glyph() -> None:
    names, matrix, owners = styled_library()
    starts = glyph_starts(owners)
    assert len(starts) == len(names) and matrix.shape[0] == len(owners) > len(names)
    assert np.all(np.diff(owners) >= 0)  # rows of one glyph are contiguous
    assert np.allclose(np.linalg.norm(matrix[:50], axis=1), 1.0, atol=1e-4)


def test_best_styles_are_the_per_glyph_maxima_of_the_styled_rows() -> None:
    names, matrix, owners = styled_library()
    shapes = shape_part(np.stack([d for d in (mask_descriptor(_styles(n)[s]) for n in ("settings", "search")
                                              for s in ("drawn", "outline")) if d is not None]))
    shapes = np.concatenate([shapes, matrix[[0, len(owners) // 2, len(owners) - 1]]])  # library rows too
    expected = np.maximum.reduceat(shapes @ matrix.T, glyph_starts(owners), axis=1)
    got = best_styles(shapes)
    assert got.shape == (len(shapes), len(names))
    assert np.allclose(got, expected, rtol=0, atol=1e-6)  # the same maxima (a BLAS may round apart)


def _edges_bin_by_bin(square: np.ndarray) -> np.ndarray:
    """The edge histogram as first written, one orientation bin at a time (the reference)."""
    s = cv2.GaussianBlur(square, (3, 3), 0.8)
    gx, gy = cv2.Sobel(s, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(s, cv2.CV_32F, 0, 1, ksize=3)
    mag, pos = np.hypot(gx, gy), (np.arctan2(gy, gx) % np.pi) / np.pi * BINS
    low, frac = np.floor(pos).astype(np.int64) % BINS, pos - np.floor(pos)
    cell = EDGE_SIDE // CELLS
    hist = np.zeros((CELLS, CELLS, BINS), np.float32)
    for k in range(BINS):
        weight = mag * ((low == k) * (1.0 - frac) + (((low + 1) % BINS) == k) * frac)
        hist[:, :, k] = weight.reshape(CELLS, cell, CELLS, cell).sum(axis=(1, 3))
    v = np.sqrt(hist.ravel())
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("name", ["settings", "favorite_border", "search", "close"])
def test_the_edge_histogram_is_the_bin_by_bin_one(name: str) -> None:
    for mask in _styles(name).values():
        square = _square(mask, EDGE_SIDE)
        assert square is not None
        assert np.array_equal(_edges(square), _edges_bin_by_bin(square))


def test_an_empty_or_tiny_mask_has_no_descriptor() -> None:
    assert mask_descriptor(np.zeros((20, 20), np.uint8)) is None
    one = np.zeros((20, 20), np.uint8)
    one[5, 5] = 1
    assert mask_descriptor(one) is None
