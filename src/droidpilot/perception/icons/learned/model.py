"""The learned icon classifier: a one-hidden-layer MLP over glyph descriptors, run in plain numpy.

Shipped as two files side by side: ``NAME.npz`` (standardisation, weights as float16) and
``NAME.json``, the manifest (class names, feature version, seed, fonts trained on, training data).
``load_model`` refuses weights that do not fit this library or this descriptor with ``ModelMismatch``,
whose message says what differs and how to retrain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from droidpilot.errors import DroidpilotError
from droidpilot.perception.blas import one_thread

FORMAT = 1
RETRAIN = ("python -m droidpilot.perception.icons.learned.train "
           "--out src/droidpilot/perception/icons/learned/weights")


class ModelMismatch(DroidpilotError):
    """The weights cannot be used here: missing, unreadable, for another glyph library or descriptor."""


@dataclass
class Mlp:
    """Weights of the classifier and what they were trained on."""

    mean: np.ndarray  # feature standardisation (F,)
    scale: np.ndarray  # (F,)
    w1: np.ndarray  # (F, H)
    b1: np.ndarray  # (H,)
    w2: np.ndarray  # (H, C)
    b2: np.ndarray  # (C,)
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def classes(self) -> list[tuple[str, ...]]:
        """Each class's glyph names (aliases drawn alike share one), the NONE class last."""
        return [tuple(c) for c in self.manifest.get("classes", [])]

    def hidden(self, x: np.ndarray) -> np.ndarray:
        """The hidden layer's activations for a float32 feature matrix."""
        z = ((x - self.mean) / self.scale) @ self.w1 + self.b1
        return np.maximum(z, 0.0, out=z)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Class scores (N x C) for a feature matrix (N x F)."""
        with one_thread():
            return self.hidden(x) @ self.w2 + self.b2

    def hidden_and_probabilities(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hidden layer (N x H, what the memory compares) and the softmax over the classes (N x C)."""
        with one_thread():
            h = self.hidden(x.astype(np.float32))
            z = h @ self.w2 + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return h, e / e.sum(axis=1, keepdims=True)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Softmax over the classes (N x C)."""
        return self.hidden_and_probabilities(x)[1]


def save_model(model: Mlp, out: Path, name: str = "icons") -> tuple[Path, Path]:
    """Write NAME.npz (weights as float16) and NAME.json (the manifest) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    weights, manifest = out / f"{name}.npz", out / f"{name}.json"
    np.savez_compressed(weights, mean=model.mean.astype(np.float32), scale=model.scale.astype(np.float32),
                        w1=model.w1.astype(np.float16), b1=model.b1.astype(np.float32),
                        w2=model.w2.astype(np.float16), b2=model.b2.astype(np.float32))
    manifest.write_text(json.dumps({"format": FORMAT, **model.manifest}, indent=1) + "\n", encoding="utf-8")
    return weights, manifest


def _read(weights: Path, manifest: Path) -> Mlp:
    try:
        meta = json.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelMismatch(f"{manifest}: no manifest beside the weights; retrain with: {RETRAIN}") from None
    except (OSError, ValueError) as exc:
        raise ModelMismatch(f"{manifest}: not a readable JSON manifest ({exc}); "
                            f"retrain with: {RETRAIN}") from None
    try:
        with np.load(weights) as z:
            arrays = {k: z[k].astype(np.float32) for k in ("mean", "scale", "w1", "b1", "w2", "b2")}
    except FileNotFoundError:
        raise ModelMismatch(f"{weights}: no weights file; train them with: {RETRAIN}") from None
    except (OSError, ValueError, KeyError) as exc:
        raise ModelMismatch(f"{weights}: not the classifier's weights ({exc}); "
                            f"retrain with: {RETRAIN}") from None
    if not isinstance(meta, dict):
        raise ModelMismatch(f"{manifest}: expected a JSON object; retrain with: {RETRAIN}")
    return Mlp(manifest=meta, **arrays)


def load_model(weights: Path, manifest: Path, feature_version: str, library: list[str]) -> Mlp:
    """The classifier at ``weights`` / ``manifest`` if it was trained for this descriptor and exactly this
    glyph library; ModelMismatch (saying what differs) otherwise."""
    model = _read(weights, manifest)
    meta = model.manifest
    if meta.get("format") != FORMAT:
        raise ModelMismatch(f"{manifest}: format {meta.get('format')!r}, this code reads {FORMAT}; "
                            f"retrain with: {RETRAIN}")
    if meta.get("feature_version") != feature_version:
        raise ModelMismatch(f"{manifest}: trained on features {meta.get('feature_version')!r}, the "
                            f"descriptor is now {feature_version!r}; retrain with: {RETRAIN}")
    classes = meta.get("classes")
    if not isinstance(classes, list) or not all(isinstance(c, list) and c for c in classes):
        raise ModelMismatch(f"{manifest}: 'classes' must be a list of lists of glyph names; "
                            f"retrain with: {RETRAIN}")
    named = [n for c in classes[:-1] for n in c]
    unknown = sorted(set(named) - set(library))
    untrained = sorted(set(library) - set(named))
    if unknown or untrained:
        parts = []
        if unknown:
            parts.append(f"{len(unknown)} class names not in the glyph library "
                         f"(e.g. {', '.join(unknown[:3])})")
        if untrained:
            parts.append(f"{len(untrained)} library glyphs it was not trained on "
                         f"(e.g. {', '.join(untrained[:3])})")
        raise ModelMismatch(f"{manifest}: {' and '.join(parts)}; retrain with: {RETRAIN}")
    n_classes, n_features = len(classes), model.mean.shape[0]
    shapes_ok = (model.w1.shape[0] == n_features and model.w2.shape[1] == n_classes
                 and model.b2.shape == (n_classes,) and model.w1.shape[1] == model.w2.shape[0])
    if not shapes_ok:
        raise ModelMismatch(f"{weights}: weight shapes {model.w1.shape}, {model.w2.shape} do not fit "
                            f"{n_classes} classes; retrain with: {RETRAIN}")
    return model
