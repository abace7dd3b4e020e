"""A shape descriptor for a binary icon mask, comparable at any size, stroke weight and fill.

Two halves, each a unit vector: the mask's shape (below) and the same shape of its stroke-normalised line
drawing (glyphs.strokes), compared apart (``shape_part`` / ``line_part``). The shape half has two parts,
each a unit vector, weighted and joined: the ink itself (the mask cropped to its ink, padded to
a square so the aspect ratio counts, resized to GRID x GRID and blurred) and the directions of its edges
(a histogram of gradient orientations over CELLS x CELLS cells, HOG-like). The ink part tells a filled
disc from a ring; the edge part reads an outlined heart and a filled one, or a thin and a bold gear, as
the same outline, which is what real icon sets vary. Cosine similarity compares two descriptors.
"""

from __future__ import annotations

import cv2
import numpy as np

from droidpilot.perception.icons.glyphs.strokes import ink_square, line_drawing

GRID = 24  # the ink part's side
EDGE_SIDE, CELLS, BINS = 32, 4, 8  # the edge part: square side, cells per side, orientation bins
INK_WEIGHT = 0.4  # share of the squared similarity carried by the ink part (the edges carry the rest)
SHAPE_SIZE = GRID * GRID + CELLS * CELLS * BINS  # the shape half; the line half is as long
SIZE = 2 * SHAPE_SIZE
_BIN_INDEX = np.arange(BINS).reshape(BINS, 1, 1)


def _square(mask: np.ndarray, side: int) -> np.ndarray | None:
    square = ink_square(mask)
    return None if square is None else cv2.resize(square, (side, side), interpolation=cv2.INTER_AREA)


def _unit(v: np.ndarray) -> np.ndarray | None:
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else None


def _edges(square: np.ndarray) -> np.ndarray | None:
    """Orientation histogram (unsigned, soft-binned, square-rooted) of the mask's edges per cell."""
    s = cv2.GaussianBlur(square, (3, 3), 0.8)
    gx = cv2.Sobel(s, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(s, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    pos = (np.arctan2(gy, gx) % np.pi) / np.pi * BINS
    low = np.floor(pos).astype(np.int64) % BINS
    frac = pos - np.floor(pos)
    cell = EDGE_SIDE // CELLS
    # every bin's weights at once (bins first, so each bin's cell sums run as they did bin by bin)
    weight = mag * ((low == _BIN_INDEX) * (1.0 - frac) + (((low + 1) % BINS) == _BIN_INDEX) * frac)
    hist = weight.reshape(BINS, CELLS, cell, CELLS, cell).sum(axis=(2, 4)).transpose(1, 2, 0)
    return _unit(np.sqrt(hist.ravel()))


def shape_descriptor(mask: np.ndarray) -> np.ndarray | None:
    """The shape half alone: a unit vector (float32, SHAPE_SIZE long) for a 0/1 (or 0/255) mask; None
    when empty."""
    ink_square = _square(mask, GRID)
    edge_square = _square(mask, EDGE_SIDE)
    if ink_square is None or edge_square is None:
        return None
    ink = _unit(cv2.GaussianBlur(ink_square, (5, 5), 1.0).ravel())
    edges = _edges(edge_square)
    if ink is None or edges is None:
        return None
    return np.concatenate([np.sqrt(INK_WEIGHT) * ink, np.sqrt(1.0 - INK_WEIGHT) * edges]).astype(np.float32)


def line_descriptor(mask: np.ndarray) -> np.ndarray:
    """The line half: the shape of the mask's stroke-normalised line drawing (zeros when it has none)."""
    lines = line_drawing(mask)
    d = shape_descriptor(lines) if lines is not None else None
    return d if d is not None else np.zeros(SHAPE_SIZE, np.float32)


def mask_descriptor(mask: np.ndarray) -> np.ndarray | None:
    """Both halves joined (float32, SIZE long, each half unit length); None when the mask is empty."""
    shape = shape_descriptor(mask)
    if shape is None:
        return None
    return np.concatenate([shape, line_descriptor(mask)])


def shape_part(descriptors: np.ndarray) -> np.ndarray:
    """The shape half of one descriptor or of a matrix of them (a view)."""
    return descriptors[..., :SHAPE_SIZE]


def line_part(descriptors: np.ndarray) -> np.ndarray:
    """The line half of one descriptor or of a matrix of them (a view)."""
    return descriptors[..., SHAPE_SIZE:]
