"""A memory of the labelled real icons beside the classifier: a candidate much like an icon someone
labelled is evidence for that icon's glyph (and, in a memory built ``--other-as-none``, one much like a
labelled brand or ``other`` icon is evidence against any library glyph: the NONE class).

Each entry is the classifier's hidden layer (Mlp.hidden, unit length, float16) for one reading of a
labelled crop, with its class. A reading's probabilities are blended with its nearest entries' classes,
as kNN language models do: ``p' = (1 - l m) p + l knn`` where ``knn`` weighs the ``NEIGHBOURS``
nearest entries by ``exp(similarity / TEMPERATURE)``, keeping only the votes for the network's
``CHOICES`` likeliest classes (``m`` is what is kept), and ``l = WEIGHT`` scaled by how far the nearest
similarity is above ``FLOOR`` (0 at or below it). The constants were chosen on four training runs left out of
both the weights and the memory (benchmarks/icon_learned.py --real) and on leave-apps-out half b, and
confirmed on half a (neither half gets worse; the held-out runs gain). Shipped as ``memory.npz`` beside
the weights; the weights' manifest entry ``memory`` names it, its sha256, the weights' sha256 it was
built for and the label files it read (memory_build).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from droidpilot.perception.icons.learned.model import ModelMismatch

FILE = "memory.npz"
WEIGHT = 0.7  # the memory's share of a reading's probabilities when its nearest entry is identical
FLOOR = 0.5  # hidden-layer cosine at or below which the memory says nothing
TEMPERATURE = 0.1  # softness of the vote among the nearest entries
NEIGHBOURS = 5
CHOICES = 5  # the memory votes only among the network's likeliest classes of a reading (see blend)
REBUILD = "python -m droidpilot.perception.icons.learned.memory_build --weights DIR"


def sha16(path: Path) -> str:
    """The file's sha256, first 16 hex digits (as manifests record files)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def unit_rows(h: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length (a zero row stays zero)."""
    return h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-9)


@dataclass(frozen=True)
class Memory:
    """Unit hidden-layer vectors of labelled real readings and the class each stands for."""

    keys: np.ndarray  # float32 N x H
    classes: np.ndarray  # int64 N; the NONE class for brand and ``other`` icons

    def blend(self, hidden: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """Probabilities (N x C) moved towards the classes of each reading's nearest entries, among the
        network's ``CHOICES`` likeliest classes only: the memory confirms or reorders what the network
        considers, and never brings in a class it ruled out (unmasked, real neighbours of look-alike
        glyphs flipped rendered lock/bell pairs the network told apart)."""
        if not len(self.keys) or not len(hidden):
            return probs
        sims = unit_rows(hidden.astype(np.float32)) @ self.keys.T
        k = min(NEIGHBOURS, sims.shape[1])
        near = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        top = np.take_along_axis(sims, near, axis=1)
        best = top.max(axis=1)
        votes = np.exp((top - best[:, None]) / TEMPERATURE)
        votes /= votes.sum(axis=1, keepdims=True)
        knn = np.zeros_like(probs)
        np.add.at(knn, (np.repeat(np.arange(len(probs)), k), self.classes[near].ravel()), votes.ravel())
        choices = np.argpartition(-probs, min(CHOICES, probs.shape[1]) - 1, axis=1)[:, :CHOICES]
        allowed = np.zeros(probs.shape, bool)
        np.put_along_axis(allowed, choices, True, axis=1)
        knn *= allowed
        share = WEIGHT * np.clip((best - FLOOR) / (1.0 - FLOOR), 0.0, 1.0)
        return probs * (1.0 - share * knn.sum(axis=1))[:, None] + share[:, None] * knn


def save_memory(memory: Memory, folder: Path) -> Path:
    """Write ``folder/memory.npz`` (keys as float16) and return its path."""
    path = folder / FILE
    np.savez_compressed(path, keys=memory.keys.astype(np.float16), classes=memory.classes.astype(np.int32))
    return path


def load_memory(folder: Path, manifest: dict[str, Any], hidden: int, n_classes: int) -> Memory | None:
    """The memory the manifest names, checked against its file and the weights beside it; None when the
    manifest names none; ModelMismatch (what differs, how to rebuild) when it does not fit."""
    entry = manifest.get("memory")
    if entry is None:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        raise ModelMismatch(f"{folder}: the manifest's 'memory' must name its file; rebuild with: {REBUILD}")
    path = folder / entry["file"]
    if not path.is_file():
        raise ModelMismatch(f"{path}: the memory the manifest names is missing; rebuild with: {REBUILD}")
    if sha16(path) != entry.get("sha256"):
        raise ModelMismatch(f"{path}: sha256 {sha16(path)} is not the manifest's {entry.get('sha256')!r}; "
                            f"rebuild with: {REBUILD}")
    weights = folder / "icons.npz"
    if weights.is_file() and sha16(weights) != entry.get("weights_sha256"):
        raise ModelMismatch(f"{path}: built for other weights ({entry.get('weights_sha256')!r}, these are "
                            f"{sha16(weights)}); rebuild with: {REBUILD}")
    try:
        with np.load(path) as z:
            keys, classes = z["keys"].astype(np.float32), z["classes"].astype(np.int64)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelMismatch(f"{path}: not a memory file ({exc}); rebuild with: {REBUILD}") from None
    if keys.ndim != 2 or keys.shape[1] != hidden or classes.shape != (len(keys),) or (
            len(classes) and (classes.min() < 0 or classes.max() >= n_classes)):
        raise ModelMismatch(f"{path}: keys {keys.shape} / classes {classes.shape} do not fit a hidden layer "
                            f"of {hidden} and {n_classes} classes; rebuild with: {REBUILD}")
    return Memory(keys, classes)
