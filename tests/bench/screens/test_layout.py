"""Layout signatures: text and picture cells, the bars left out, and clustering into distinct layouts."""

from __future__ import annotations

import numpy as np
import pytest

from droidpilot.bench.screens import layout
from droidpilot.bench.screens.layout import Signature, clusters, image_cells, signature, similarity
from droidpilot.perception.types import OcrLine

W, H = 540, 1170


def _line(x: int, y: int, text: str = "Inbox") -> OcrLine:
    return OcrLine(text, (x - 40, y - 12, x + 40, y + 12), 0.9)


def _blank() -> np.ndarray:
    return np.full((H, W), 250, dtype=np.uint8)


def test_lines_fill_their_cells_and_the_status_and_navigation_bars_are_left_out() -> None:
    lines = [_line(60, 20, "14:57"), _line(60, 150), _line(480, 150), _line(270, 1150, "Home")]
    sig = signature(lines, _blank())
    assert sig.lines == 4  # every line counts towards density
    assert sig.cells == {("text", 0, 0), ("text", 0, 2)}  # the bars hold no layout
    assert sig.text_rows == 1


def test_a_noisy_block_is_a_picture_and_text_on_flat_ground_is_not() -> None:
    gray = _blank()
    rng = np.random.default_rng(0)
    gray[300:600, 0:180] = rng.integers(0, 255, size=(300, 180))  # a photo in the left column
    gray[700:712, 200:340] = 20  # a thin line of dark "text" in the middle
    cells = image_cells(gray)
    assert cells and all(c == 0 for _r, c in cells)
    assert not any(c == 1 for _r, c in cells)
    sig = signature([], gray)
    assert {k for k, _r, _c in sig.cells} == {"image"}


def test_a_text_cell_is_not_counted_as_a_picture_too() -> None:
    gray = _blank()
    gray[120:200, :] = np.random.default_rng(1).integers(0, 255, size=(80, W))
    sig = signature([_line(60, 150)], gray)
    assert ("text", 0, 0) in sig.cells and ("image", 0, 0) not in sig.cells


def test_near_layouts_cluster_together_and_different_ones_apart() -> None:
    rows = frozenset(("text", r, 0) for r in range(10))
    list_a = Signature(rows, 10)
    list_b = Signature(rows - {("text", 9, 0)}, 9)  # one row fewer: the same list layout
    grid = Signature(frozenset(("image", r, c) for r in range(6) for c in range(3)), 4)
    assert similarity(list_a, list_b) == pytest.approx(0.9)
    assert similarity(list_a, grid) == 0
    assert clusters([list_a, grid, list_b]) == [[0, 2], [1]]
    assert similarity(Signature(frozenset(), 0), Signature(frozenset(), 0)) == 1.0


def test_percentiles_interpolate_and_refuse_no_values() -> None:
    assert layout.percentile([1, 2, 3, 4, 5], 10) == pytest.approx(1.4)
    assert layout.percentile([7], 90) == 7
    with pytest.raises(ValueError, match="no values"):
        layout.percentile([], 50)
