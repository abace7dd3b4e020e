"""Scale-invariant glyph matching on binarized masks.

A mask is cropped to its ink, padded to a square around its centre (so the aspect ratio counts), resized
to GRID x GRID and blurred, then compared by cosine similarity. A candidate's fit to the asked glyphs is
its similarity, discounted by how many other glyphs of the library fit it better (a filled disc looks a
little like every round glyph; the asked glyph must be among the very best fits to count).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np

from droidpilot.perception.blas import one_thread
from droidpilot.perception.icons.glyphs.catalogue import font_path, glyph_codepoints
from droidpilot.perception.icons.glyphs.render import glyph_mask

GRID = 24
SIM_FLOOR, SIM_SPAN = 0.7, 0.2  # similarity at which a fit starts, and the span to a full fit
RIVALS = 6.0  # each library glyph fitting a candidate better than the asked one costs a factor e^(-1/6)


def mask_descriptor(mask: np.ndarray) -> np.ndarray | None:
    """A unit vector describing a 0/1 (or 0/255) mask's shape at any size; None for an empty mask."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 4:
        return None
    crop = (mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 0).astype(np.float32)
    h, w = crop.shape
    side = max(h, w)
    square = np.zeros((side, side), np.float32)
    y0, x0 = (side - h) // 2, (side - w) // 2
    square[y0:y0 + h, x0:x0 + w] = crop
    small = cv2.resize(square, (GRID, GRID), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 1.0)
    norm = float(np.linalg.norm(small))
    return (small.ravel() / norm) if norm > 0 else None


@lru_cache(maxsize=4)
def _library(css_key: str, font_key: str) -> tuple[tuple[str, ...], np.ndarray]:
    del css_key, font_key  # cache keys only
    names, rows = [], []
    for name in glyph_codepoints():
        d = mask_descriptor(glyph_mask(name))
        if d is not None:
            names.append(name)
            rows.append(d)
    matrix = np.stack(rows) if rows else np.zeros((0, GRID * GRID), np.float32)
    return tuple(names), matrix


def library() -> tuple[tuple[str, ...], np.ndarray]:
    """(names, descriptors) of every glyph in the font, built once per process."""
    return _library(str(len(glyph_codepoints())), str(font_path()))


def glyph_fits(descriptors: Sequence[np.ndarray | None], wanted: Sequence[str]) -> list[float]:
    """How well each candidate descriptor fits any of the ``wanted`` glyphs, 0..1 (0 for None)."""
    names, matrix = library()
    index = {n: i for i, n in enumerate(names)}
    rows = [index[n] for n in wanted if n in index]
    out = [0.0] * len(descriptors)
    present = [i for i, d in enumerate(descriptors) if d is not None]
    if not rows or not present:
        return out
    cand = np.stack([descriptors[i] for i in present])  # type: ignore[misc]
    with one_thread():
        sims = cand @ matrix.T  # (candidates, library)
    own = sims[:, rows].max(axis=1)
    others = np.delete(sims, rows, axis=1)
    better = (others > own[:, None] + 0.002).sum(axis=1)  # library glyphs fitting better than the asked
    fit = np.clip((own - SIM_FLOOR) / SIM_SPAN, 0.0, 1.0) * np.exp(-better / RIVALS)
    for k, i in enumerate(present):
        out[i] = float(fit[k])
    return out


def best_glyphs(descriptor: np.ndarray | None, limit: int = 3) -> list[tuple[str, float]]:
    """The library glyphs most like a descriptor, with their similarity (for describing a candidate)."""
    if descriptor is None:
        return []
    names, matrix = library()
    if not names:
        return []
    with one_thread():
        sims = matrix @ descriptor
    top = np.argpartition(-sims, limit)[:limit] if len(sims) > limit else np.arange(len(sims))
    top = top[np.argsort(-sims[top])]
    return [(names[i], float(sims[i])) for i in top]
