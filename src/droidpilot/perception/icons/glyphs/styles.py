"""The same glyph in the styles real apps draw it: thinner and bolder strokes, outlined and filled.

Real screens mix icon sets: a gear may be a filled Material glyph, a 1.5-px outline from a vendor set, or
a bold bitmap. Each library glyph is therefore compared in several renderings derived from the font's
mask (morphology at the render size): as drawn, thin, bold, the outline of a filled glyph, and the filled
silhouette of an outlined one; and so is each other icon family's drawing of it (glyphs.families), a
drawing in its own right. A candidate's fit to a glyph is its best fit to any of those.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import cv2
import numpy as np

from droidpilot.perception.icons.glyphs.catalogue import glyph_codepoints, glyph_names, library_key
from droidpilot.perception.icons.glyphs.descriptor import SHAPE_SIZE, shape_descriptor
from droidpilot.perception.icons.glyphs.families import family_references
from droidpilot.perception.icons.glyphs.render import glyph_mask, reference_mask
from droidpilot.perception.icons.glyphs.stored import load_or_build

STYLES = ("drawn", "thin", "bold", "outline", "filled")
STROKE = 3  # pixels at the 64-px render size: about the step between Material's weights
SOLID = 0.55  # ink share of the glyph's own silhouette above which a glyph reads as filled


def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def _silhouette(mask: np.ndarray) -> np.ndarray:
    """The glyph with its holes filled (outer contours drawn solid)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out


def _inner_parts(base: np.ndarray) -> np.ndarray:
    """Ink not connected to the glyph's outer outline (a clock's hands, the dot of an "i")."""
    count, labels = cv2.connectedComponents(base, connectivity=8)
    if count <= 2:
        return np.zeros_like(base)
    contours, _ = cv2.findContours(base, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    rim = np.zeros_like(base)
    cv2.drawContours(rim, contours, -1, 1, thickness=1)
    outer = set(np.unique(labels[(rim > 0) & (base > 0)]).tolist()) - {0}
    return (np.isin(labels, list(outer), invert=True) & (labels > 0)).astype(np.uint8)


def glyph_styles(mask: np.ndarray) -> Iterator[tuple[str, np.ndarray]]:
    """(style, mask) for each style that differs from the drawn glyph; thin strokes never vanish.

    The outline of a filled glyph follows all of its edges (a filled clock keeps its hands' outline);
    the filled form of an outlined glyph fills its silhouette but cuts its inner parts out (an outlined
    clock becomes a disc with the hands as holes, never a plain disc).
    """
    base = np.pad((mask > 0).astype(np.uint8), STROKE + 2)
    yield "drawn", base
    thin = cv2.erode(base, _disc(1))
    if thin.sum() >= 0.4 * base.sum():
        yield "thin", thin
    yield "bold", cv2.dilate(base, _disc(STROKE // 2 + 1))
    silhouette = _silhouette(base)
    solid = base.sum() / max(1, silhouette.sum())
    if solid >= SOLID:  # a filled glyph: its edges as a stroke, as outlined icon sets draw it
        ring = base - cv2.erode(base, _disc(STROKE))
        if ring.sum() > 0:
            yield "outline", ring
    if silhouette.sum() > 1.2 * base.sum():  # an outlined glyph: filled, inner parts cut out
        inner = cv2.dilate(_inner_parts(base), _disc(1))
        yield "filled", silhouette * (1 - inner)


SAME_DRAWING = 0.97  # a family's drawing this like one the name has already adds nothing (MDI's copies)


def _references(name: str) -> Iterator[np.ndarray]:
    """The masks a library name is drawn as: its own glyph, then each other family's drawing of it."""
    yield glyph_mask(name)
    refs = family_references().get(name, ())
    own = 0 if name in glyph_codepoints() else 1  # a new name's own glyph is its first family drawing
    for ref in refs[own:]:
        yield reference_mask(ref)


def _build_styled() -> dict[str, np.ndarray]:
    names: list[str] = []
    rows: list[np.ndarray] = []
    owners: list[int] = []
    for name in glyph_names():
        own = len(names)
        drawings: list[np.ndarray] = []
        for mask in _references(name):
            drawn = shape_descriptor(mask)
            if drawn is None or any(float(d @ drawn) >= SAME_DRAWING for d in drawings):
                continue
            drawings.append(drawn)
            for _, styled in glyph_styles(mask):
                d = shape_descriptor(styled)
                if d is not None:
                    rows.append(d.astype(np.float32))
                    owners.append(own)
        if drawings:
            names.append(name)
    matrix = np.stack(rows) if rows else np.zeros((0, SHAPE_SIZE), np.float32)
    return {"names": np.asarray(names, dtype=str), "matrix": matrix, "owners": np.asarray(owners, np.int64)}


@lru_cache(maxsize=2)
def _styled(key: tuple[str, ...]) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    built = load_or_build("styled", key, _build_styled)
    return tuple(str(n) for n in built["names"]), built["matrix"], built["owners"].astype(np.int64)


def styled_library() -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """(glyph names, one shape-half descriptor row per style of each of a name's drawings in every
    family, the glyph index of each row), built once per process.

    Rows of one glyph are contiguous, so per-glyph maxima are a ``np.maximum.reduceat`` over ``starts``
    (``best_styles`` gives the same maxima faster).
    """
    return _styled(library_key())


@lru_cache(maxsize=2)
def _by_style_count(key: tuple[str, ...]) -> tuple[np.ndarray, tuple[tuple[int, int, int], ...], np.ndarray]:
    """The styled library's rows regrouped for per-glyph maxima by whole-column steps: glyphs with the
    same number of styled rows side by side, style by style ((first row, glyphs, styles) per group), and
    where each glyph's column lands among the groups' columns."""
    _, matrix, owners = _styled(key)
    starts = glyph_starts(owners)
    sizes = np.diff(np.append(starts, len(owners)))
    rows: list[np.ndarray] = []
    blocks: list[tuple[int, int, int]] = []
    members: list[np.ndarray] = []
    at = 0
    for styles in (int(s) for s in np.unique(sizes)):
        glyphs = np.flatnonzero(sizes == styles)
        blocks.append((at, len(glyphs), styles))
        rows += [starts[glyphs] + j for j in range(styles)]
        members.append(glyphs)
        at += len(glyphs) * styles
    order = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    where = np.argsort(np.concatenate(members)) if members else np.zeros(0, np.int64)
    return np.ascontiguousarray(matrix[order]), tuple(blocks), where


def best_styles(shapes: np.ndarray) -> np.ndarray:
    """Each candidate's best cosine similarity to each glyph of the styled library over the glyph's rows
    (candidates x glyphs, float32), for shape-half descriptors ``shapes``: exactly the maxima
    ``np.maximum.reduceat(shapes @ matrix.T, glyph_starts(owners), axis=1)`` gives, without reduceat's
    slow walk along a row (a query's largest single cost after the product itself)."""
    matrix, blocks, where = _by_style_count(library_key())
    sims = shapes @ matrix.T
    best = []
    for first, count, styles in blocks:
        top = sims[:, first:first + count].copy()
        for j in range(1, styles):
            np.maximum(top, sims[:, first + j * count:first + (j + 1) * count], out=top)
        best.append(top)
    if not best:
        return np.zeros((len(shapes), 0), np.float32)
    return np.concatenate(best, axis=1)[:, where]


def glyph_starts(owners: np.ndarray) -> np.ndarray:
    """The first row of each glyph in a styled library (owners sorted, each glyph present)."""
    if len(owners) == 0:
        return np.zeros(0, np.int64)
    return np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
