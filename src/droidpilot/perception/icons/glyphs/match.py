"""Scale-invariant glyph matching on binarized masks.

Masks are described by glyphs.descriptor (ink and edge directions of the mask and of its stroke-normalised
line drawing) and compared by cosine similarity, each half apart. A candidate's fit to the asked glyphs
is its similarity, discounted by how many other glyphs of the library fit it better (a filled disc looks
a little like every round glyph; the asked glyph must be among the very best fits to count).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from droidpilot.perception.blas import one_thread
from droidpilot.perception.icons.glyphs.catalogue import glyph_names, library_key
from droidpilot.perception.icons.glyphs.descriptor import (
    GRID,
    INK_WEIGHT,
    SIZE,
    line_part,
    mask_descriptor,
    shape_part,
)
from droidpilot.perception.icons.glyphs.families import new_names
from droidpilot.perception.icons.glyphs.render import glyph_mask
from droidpilot.perception.icons.glyphs.stored import load_or_build
from droidpilot.perception.icons.glyphs.styles import best_styles, styled_library

SIM_FLOOR, SIM_SPAN = 0.7, 0.2  # similarity at which a fit starts, and the span to a full fit
KIN = 0.9  # glyphs this similar to an asked glyph (as drawn) are its variants and never its rivals
STYLED = 0.75  # a fit found only through another style counts this much of one to the font's own drawing
LINED = 0.75  # a fit found only through the line drawings counts this much of one (as STYLED)
RIVALS = 6.0  # each library glyph fitting a candidate better than the asked one costs a factor e^(-1/6)
INK_GATE = 0.5  # the ink-only fit counts this share of itself when the line drawings disagree outright
LINE_RIVALS = 2.0  # line drawings are alike more often (every ring glyph): a better one costs e^(-1/2)


def _build_library() -> dict[str, np.ndarray]:
    names, rows = [], []
    for name in glyph_names():
        d = mask_descriptor(glyph_mask(name))
        if d is not None:
            names.append(name)
            rows.append(d)
    matrix = np.stack(rows) if rows else np.zeros((0, SIZE), np.float32)
    return {"names": np.asarray(names, dtype=str), "matrix": matrix}


@lru_cache(maxsize=4)
def _library(key: tuple[str, ...]) -> tuple[tuple[str, ...], np.ndarray]:
    built = load_or_build("drawn", key, _build_library)
    return tuple(str(n) for n in built["names"]), built["matrix"]


def library() -> tuple[tuple[str, ...], np.ndarray]:
    """(names, descriptors) of every library glyph as its own font draws it, built once per process."""
    return _library(library_key())


def _kin(names: tuple[str, ...], rows: list[int]) -> set[int]:
    """Glyphs drawn almost like an asked one (home / home_filled / house): variants, not rivals. Told by
    each name's own drawing only: with every family's drawings a "?" grows so many look-alikes that a
    speech bubble beside it loses its rivals and fits the question mark better than the "?" does."""
    base_names, base = library()
    where = {n: i for i, n in enumerate(base_names)}
    asked = [where[names[r]] for r in rows if names[r] in where]
    if not asked:
        return set()
    with one_thread():
        close = (shape_part(base[asked]) @ shape_part(base).T).max(axis=0) >= KIN
    index = {n: i for i, n in enumerate(names)}
    return {index[base_names[i]] for i in np.flatnonzero(close) if base_names[i] in index}


@lru_cache(maxsize=8)
def _rival_mask(names: tuple[str, ...]) -> np.ndarray:
    """Which glyphs may be rivals: Material's and our drawn shapes. The names only other families draw
    (1,500 of them: brand logos, variants Material lacks) are there to be asked for; as rivals they would
    make every real icon look a little like something else (Font Awesome's envira logo is a leaf)."""
    only_families = set(new_names())
    return np.asarray([n not in only_families for n in names], bool)


def _rivals(names: tuple[str, ...], sims: np.ndarray, skip: Sequence[int]) -> np.ndarray:
    """The columns of ``sims`` that are rivals of the asked glyphs (``skip``: the asked and their kin)."""
    keep = _rival_mask(names).copy()
    keep[list(skip)] = False
    return sims[:, keep]


def _fit(own: np.ndarray, others: np.ndarray, rivals: float = RIVALS) -> np.ndarray:
    """Similarity to the asked glyph above SIM_FLOOR, discounted per rival fitting better."""
    better = (others > own[:, None] + 0.002).sum(axis=1)  # library glyphs fitting better than the asked
    return np.clip((own - SIM_FLOOR) / SIM_SPAN, 0.0, 1.0) * np.exp(-better / rivals)


def _drawn_ink_fit(cand: np.ndarray, wanted: Sequence[str]) -> np.ndarray:
    """The fit by the ink part alone against the glyphs as the font draws them: an icon drawn from the
    font itself (SimPhone's, a Material app's) keeps the fit it has there, whatever the styles add."""
    names, matrix = library()
    index = {n: i for i, n in enumerate(names)}
    rows = [index[n] for n in wanted if n in index]
    if not rows:
        return np.zeros(len(cand), np.float32)
    ink = GRID * GRID
    with one_thread():
        sims = cand[:, :ink] @ matrix[:, :ink].T  # both parts unit-length scaled by the same weight
    sims /= INK_WEIGHT
    return _fit(sims[:, rows].max(axis=1), _rivals(names, sims, rows))


def _line_fit(cand: np.ndarray, wanted: Sequence[str]) -> np.ndarray:
    """The fit of the candidates' line drawings to the asked glyphs'. Every other glyph is a rival,
    look-alikes too: a ring with a check and a ring with an "i" differ in little but that."""
    names, matrix = library()
    index = {n: i for i, n in enumerate(names)}
    rows = [index[n] for n in wanted if n in index]
    if not rows:
        return np.zeros(len(cand), np.float32)
    with one_thread():
        sims = line_part(cand) @ line_part(matrix).T
    return _fit(sims[:, rows].max(axis=1), _rivals(names, sims, rows), LINE_RIVALS)


def glyph_fits(descriptors: Sequence[np.ndarray | None], wanted: Sequence[str]) -> list[float]:
    """How well each candidate descriptor fits any of the ``wanted`` glyphs, 0..1 (0 for None).

    Every glyph is compared in each of its styles (glyphs.styles) and counts with its best one, the asked
    glyphs and their rivals alike, so an outlined or bold real icon is measured against its own style;
    and by line drawings (glyphs.strokes), where a thin outline, a bold one and a fill of one shape agree.
    """
    names, _, _ = styled_library()
    index = {n: i for i, n in enumerate(names)}
    rows = [index[n] for n in wanted if n in index]
    out = [0.0] * len(descriptors)
    present = [i for i, d in enumerate(descriptors) if d is not None]
    if not rows or not present:
        return out
    cand = np.stack([descriptors[i] for i in present]).astype(np.float32)  # type: ignore[misc]
    with one_thread():
        sims = best_styles(shape_part(cand))
    kin = sorted(set(rows) | _kin(names, rows))
    lines = _line_fit(cand, wanted)
    # the blurred ink alone takes a 3-px "<" for the share glyph; its line drawing (no nodes) does not
    ink = _drawn_ink_fit(cand, wanted) * (INK_GATE + (1.0 - INK_GATE) * lines)
    fit = np.maximum(STYLED * _fit(sims[:, rows].max(axis=1), _rivals(names, sims, kin)), ink)
    fit = np.maximum(fit, LINED * lines)
    for k, i in enumerate(present):
        out[i] = float(fit[k])
    return out


@lru_cache(maxsize=4)
def _describing(key: tuple[str, ...]) -> np.ndarray:
    """Which library glyphs may name a candidate: Material's and our drawn shapes, not the names only
    other families have (``genderless`` for a ring, ``500px``), which a model cannot check on screen."""
    del key  # a cache key only
    names, _ = library()
    only_families = set(new_names())
    return np.asarray([n not in only_families for n in names], bool)


def best_glyphs(descriptor: np.ndarray | None, limit: int = 3) -> list[tuple[str, float]]:
    """The Material and drawn glyphs most like a descriptor, with their shape halves' similarity (for
    describing a candidate; the line half is less sure of a 20-px glyph's details)."""
    if descriptor is None:
        return []
    names, matrix = library()
    if not names:
        return []
    with one_thread():
        sims = shape_part(matrix) @ shape_part(descriptor)
    sims = np.where(_describing(library_key()), sims, -1.0)
    top = np.argpartition(-sims, limit)[:limit] if len(sims) > limit else np.arange(len(sims))
    top = top[np.argsort(-sims[top])]
    return [(names[i], float(sims[i])) for i in top]
