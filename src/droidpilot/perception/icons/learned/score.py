"""The classifier's say in ranking: the probability that a candidate reading is one of the asked glyphs.

The shipped weights (``weights/icons.npz`` + ``icons.json``) are loaded once per process; another folder
with ``DROIDPILOT_ICON_CLASSIFIER=DIR``, none with ``DROIDPILOT_ICON_CLASSIFIER=none``. Weights that are
missing or do not fit this library or descriptor log one warning line and ranking keeps its old path
(``learned_fits`` returns None): never a crash, never probabilities for classes that are not the library's.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from droidpilot.perception.icons.glyphs.catalogue import glyph_names
from droidpilot.perception.icons.learned.features import feature_version
from droidpilot.perception.icons.learned.model import Mlp, ModelMismatch, load_model

CLASSIFIER_ENV = "DROIDPILOT_ICON_CLASSIFIER"
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
NAME = "icons"
log = logging.getLogger("droidpilot.perception.icons.learned")


@dataclass(frozen=True)
class Verdict:
    """What the classifier says of one reading: the probability it is one of the asked glyphs, and the
    probability of the likeliest glyph that was not asked."""

    asked: float
    other: float


class Classifier:
    """A loaded model with the class index of every glyph name it knows."""

    def __init__(self, model: Mlp) -> None:
        self.model = model
        self.index: dict[str, int] = {n: c for c, names in enumerate(model.classes) for n in names}

    def glyph_probabilities(self, descriptors: Sequence[np.ndarray | None], wanted: Sequence[str]
                            ) -> list[float]:
        """Per descriptor, the probability of any class drawing one of ``wanted`` (0 for None or when no
        asked name is a class)."""
        return [v.asked for v in self.verdicts(descriptors, wanted)]

    def verdicts(self, descriptors: Sequence[np.ndarray | None], wanted: Sequence[str]) -> list[Verdict]:
        """Per descriptor, the probability of the ``wanted`` glyphs and of the likeliest other glyph
        (the NONE class, "no icon", is no other glyph); (0, 0) for None or when no asked name is a class."""
        out = [Verdict(0.0, 0.0)] * len(descriptors)
        classes = sorted({self.index[n] for n in wanted if n in self.index})
        present = [i for i, d in enumerate(descriptors) if d is not None]
        if not classes or not present:
            return out
        x = np.stack([descriptors[i] for i in present]).astype(np.float32)  # type: ignore[misc]
        probs = self.model.probabilities(x)
        asked = probs[:, classes].sum(axis=1)
        others = probs[:, :-1].copy()  # the NONE class is last
        others[:, [c for c in classes if c < others.shape[1]]] = 0.0
        other = others.max(axis=1) if others.shape[1] else np.zeros(len(present))
        for k, i in enumerate(present):
            out[i] = Verdict(float(asked[k]), float(other[k]))
        return out


@lru_cache(maxsize=4)
def _load(folder: str, library_key: int) -> Classifier | None:
    del library_key  # cache key only: a changed library is checked again
    where = Path(folder)
    try:
        model = load_model(where / f"{NAME}.npz", where / f"{NAME}.json", feature_version(), glyph_names())
    except ModelMismatch as exc:
        log.warning("icon classifier not used, ranking by glyph descriptors alone: %s", exc)
        return None
    return Classifier(model)


def classifier() -> Classifier | None:
    """The classifier ranking uses, or None (no glyph library, switched off, or weights that do not fit)."""
    choice = os.environ.get(CLASSIFIER_ENV, "").strip()
    if choice.lower() == "none" or not glyph_names():
        return None
    return _load(str(Path(choice).expanduser() if choice else WEIGHTS_DIR), len(glyph_names()))


def learned_fits(descriptors: Sequence[np.ndarray | None], wanted: Sequence[str]) -> list[float] | None:
    """The classifier's probability per descriptor for the ``wanted`` glyphs; None when there is no
    classifier to ask (ranking then uses the descriptor fit alone)."""
    model = classifier()
    return None if model is None else model.glyph_probabilities(descriptors, wanted)


def learned_verdicts(descriptors: Sequence[np.ndarray | None], wanted: Sequence[str]) -> list[Verdict] | None:
    """The classifier's verdict per descriptor for the ``wanted`` glyphs (asked and likeliest other);
    None when there is no classifier to ask."""
    model = classifier()
    return None if model is None else model.verdicts(descriptors, wanted)
