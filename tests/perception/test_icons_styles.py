"""Glyph styles and the ink + edge descriptor: the same glyph thin, bold, outlined or filled still reads as
itself, and a different glyph drawn in the same style does not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from droidpilot.perception.icons.glyphs import available, glyph_fits, glyph_mask, mask_descriptor
from droidpilot.perception.icons.glyphs.styles import glyph_starts, glyph_styles, styled_library

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


def test_an_empty_or_tiny_mask_has_no_descriptor() -> None:
    assert mask_descriptor(np.zeros((20, 20), np.uint8)) is None
    one = np.zeros((20, 20), np.uint8)
    one[5, 5] = 1
    assert mask_descriptor(one) is None
