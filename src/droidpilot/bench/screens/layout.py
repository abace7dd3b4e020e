"""A screen's coarse layout signature, and distinct layouts as clusters of signatures.

Definition (stated so the count can be reproduced): the content area is the screen between 6% and 93% of
its height (status and navigation bars left out). It is cut into ``ROWS`` x ``COLS`` cells. A cell is
*text* when an OCR line's box centre lies in it, *image* when at least ``IMAGE_SHARE`` of its pixels differ
from the cell's median grey by more than ``IMAGE_DELTA`` (a photo, map, thumbnail or filled card; text alone
covers far less) and no line's centre lies in it. The signature is the set of (kind, row, col) cells. Two
screens share a layout when their signatures' Jaccard similarity is at least ``SAME_LAYOUT``; distinct
layouts are the clusters of leader clustering in sample order (a screen joins the first cluster whose
leader it shares a layout with, else leads a new one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from droidpilot.perception.types import OcrLine

ROWS, COLS = 12, 3
TOP, BOTTOM = 0.06, 0.93
IMAGE_DELTA = 30
IMAGE_SHARE = 0.35
SAME_LAYOUT = 0.6

Cell = tuple[str, int, int]


@dataclass(frozen=True)
class Signature:
    """The occupied cells of one screen and its OCR line count."""

    cells: frozenset[Cell]
    lines: int

    @property
    def text_rows(self) -> int:
        """How many of the ``ROWS`` bands hold text."""
        return len({r for kind, r, _ in self.cells if kind == "text"})


def _cell(x: float, y: float, width: int, height: int) -> tuple[int, int] | None:
    top, bottom = TOP * height, BOTTOM * height
    if not top <= y < bottom:
        return None
    row = min(ROWS - 1, int((y - top) / (bottom - top) * ROWS))
    col = min(COLS - 1, int(x / width * COLS))
    return row, col


def image_cells(gray: np.ndarray) -> set[tuple[int, int]]:
    """The content-area cells of a greyscale image (H x W, 0-255) that look like pictures (see above)."""
    height, width = gray.shape
    top, bottom = int(TOP * height), int(BOTTOM * height)
    found = set()
    for r in range(ROWS):
        y1 = top + (bottom - top) * r // ROWS
        y2 = top + (bottom - top) * (r + 1) // ROWS
        for c in range(COLS):
            block = gray[y1:y2, width * c // COLS: width * (c + 1) // COLS].astype(np.int16)
            if block.size and np.mean(np.abs(block - np.median(block)) > IMAGE_DELTA) >= IMAGE_SHARE:
                found.add((r, c))
    return found


def signature(lines: Sequence[OcrLine], gray: np.ndarray) -> Signature:
    """The layout signature of a screen from its OCR lines and its greyscale pixels."""
    height, width = gray.shape
    text = set()
    for line in lines:
        x1, y1, x2, y2 = line.box
        at = _cell((x1 + x2) / 2, (y1 + y2) / 2, width, height)
        if at is not None:
            text.add(at)
    cells = {("text", r, c) for r, c in text}
    cells |= {("image", r, c) for r, c in image_cells(gray) - text}
    return Signature(frozenset(cells), len(lines))


def similarity(a: Signature, b: Signature) -> float:
    """Jaccard similarity of two signatures' cells (two empty screens are alike)."""
    union = a.cells | b.cells
    return len(a.cells & b.cells) / len(union) if union else 1.0


def clusters(signatures: Iterable[Signature], same: float = SAME_LAYOUT) -> list[list[int]]:
    """Leader clustering in order: the indices of the screens in each distinct layout."""
    leaders: list[Signature] = []
    members: list[list[int]] = []
    for i, sig in enumerate(signatures):
        for k, lead in enumerate(leaders):
            if similarity(sig, lead) >= same:
                members[k].append(i)
                break
        else:
            leaders.append(sig)
            members.append([i])
    return members


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` (0-100) percentile by linear interpolation; ValueError on no values."""
    if not values:
        raise ValueError("no values to take a percentile of")
    return float(np.percentile(np.asarray(values, dtype=float), q))
