"""A small icon classifier droidpilot trains itself from its glyph library and ships (numpy only).

classes (the class set, from the catalogue) -> augment (renders as real screens show icons, and
negatives) -> features (the glyph descriptor ranking already computes) -> data (a seeded set) -> train
(Adam in numpy, ``python -m droidpilot.perception.icons.learned.train --out DIR``) -> model (the MLP,
its .npz and manifest) -> score (its probability for the asked glyphs, used in ranking beside the
descriptor fit).
"""

from __future__ import annotations

from droidpilot.perception.icons.learned.model import ModelMismatch
from droidpilot.perception.icons.learned.score import (
    CLASSIFIER_ENV,
    Verdict,
    classifier,
    learned_fits,
    learned_verdicts,
)

__all__ = ["CLASSIFIER_ENV", "ModelMismatch", "Verdict", "classifier", "learned_fits", "learned_verdicts"]
