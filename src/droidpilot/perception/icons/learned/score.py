"""The classifier's say in ranking: the probability that a candidate reading is one of the asked glyphs.

The shipped weights (``weights/icons.npz`` + ``icons.json``) are loaded once per process; another folder
with ``DROIDPILOT_ICON_CLASSIFIER=DIR``, none with ``DROIDPILOT_ICON_CLASSIFIER=none``. The memory of
labelled real icons beside them (learned.memory) blends into every probability; ``DROIDPILOT_ICON_MEMORY=
none`` leaves it out (to measure without it); a memory that does not fit its weights is left out with a
warning. Weights that are
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
from droidpilot.perception.icons.learned.memory import Memory, load_memory
from droidpilot.perception.icons.learned.model import Mlp, ModelMismatch, load_model

CLASSIFIER_ENV = "DROIDPILOT_ICON_CLASSIFIER"
MEMORY_ENV = "DROIDPILOT_ICON_MEMORY"
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
    """A loaded model (and its memory, if any) with the class index of every glyph name it knows."""

    def __init__(self, model: Mlp, memory: Memory | None = None) -> None:
        self.model = model
        self.memory = memory
        self.index: dict[str, int] = {n: c for c, names in enumerate(model.classes) for n in names}

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities (N x C) of feature rows: the network's, blended with the memory's."""
        hidden, probs = self.model.hidden_and_probabilities(x)
        return probs if self.memory is None else self.memory.blend(hidden, probs)

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
        probs = self.probabilities(x)
        asked = probs[:, classes].sum(axis=1)
        others = probs[:, :-1].copy()  # the NONE class is last
        others[:, [c for c in classes if c < others.shape[1]]] = 0.0
        other = others.max(axis=1) if others.shape[1] else np.zeros(len(present))
        for k, i in enumerate(present):
            out[i] = Verdict(float(asked[k]), float(other[k]))
        return out


def load_classifier(folder: Path, use_memory: bool = True, library: list[str] | None = None) -> Classifier:
    """The weights in ``folder`` with their memory (unless ``use_memory`` is False, or it does not fit:
    then one warning line); ModelMismatch when the weights do not fit ``library`` (the glyph library's
    names by default) or the descriptor."""
    names = glyph_names() if library is None else library
    model = load_model(folder / f"{NAME}.npz", folder / f"{NAME}.json", feature_version(), names)
    memory = None
    if use_memory:
        try:
            memory = load_memory(folder, model.manifest, model.w1.shape[1], len(model.classes))
        except ModelMismatch as exc:
            log.warning("icon classifier's memory not used: %s", exc)
    return Classifier(model, memory)


@lru_cache(maxsize=4)
def _load(folder: str, library_key: int, use_memory: bool) -> Classifier | None:
    del library_key  # cache key only: a changed library is checked again
    try:
        return load_classifier(Path(folder), use_memory)
    except ModelMismatch as exc:
        log.warning("icon classifier not used, ranking by glyph descriptors alone: %s", exc)
        return None


def classifier() -> Classifier | None:
    """The classifier ranking uses, or None (no glyph library, switched off, or weights that do not fit)."""
    choice = os.environ.get(CLASSIFIER_ENV, "").strip()
    if choice.lower() == "none" or not glyph_names():
        return None
    use_memory = os.environ.get(MEMORY_ENV, "").strip().lower() != "none"
    return _load(str(Path(choice).expanduser() if choice else WEIGHTS_DIR), len(glyph_names()), use_memory)


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
