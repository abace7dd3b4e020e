"""A training (or evaluation) set: augmented renders of every class's glyphs and negatives, as features.

Deterministic for a seed: each class draws from its own generator (seed, class index), so a set is the
same however many classes come before it, and a held-out set is another seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from droidpilot.perception.icons.learned.augment import Sample, glyph_sample, patch_sample, text_sample
from droidpilot.perception.icons.learned.classes import NONE
from droidpilot.perception.icons.learned.features import FEATURE_SIZE, sample_features

TEXT_SHARE = 0.6  # of the negatives, text fragments (the rest background patches)
TRIES = 4  # draws per sample before a sample whose box held no foreground is given up


def _draw(rng: np.random.Generator, names: tuple[str, ...]) -> Sample:
    if names == (NONE,):
        return text_sample(rng) if rng.random() < TEXT_SHARE else patch_sample(rng)
    return glyph_sample(rng, names[int(rng.integers(0, len(names)))])


def build_set(classes: Sequence[tuple[str, ...]], per_class: int, seed: int, negatives: int,
              progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(features float32 N x FEATURE_SIZE, class indices int64) with ``per_class`` samples per glyph class
    and ``negatives`` samples for the NONE class."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for c, names in enumerate(classes):
        rng = np.random.default_rng([seed, c])
        count = negatives if names == (NONE,) else per_class
        for _ in range(count):
            for _ in range(TRIES):
                f = sample_features(_draw(rng, names))
                if f is not None:
                    xs.append(f)
                    ys.append(c)
                    break
        if progress is not None:
            progress(c + 1, len(classes))
    x = np.stack(xs).astype(np.float32) if xs else np.zeros((0, FEATURE_SIZE), np.float32)
    return x, np.asarray(ys, np.int64)
