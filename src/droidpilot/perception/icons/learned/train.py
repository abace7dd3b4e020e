"""Train the icon classifier from the glyph library, deterministically, in numpy (Adam, fixed seed).

Run: python -m droidpilot.perception.icons.learned.train --out DIR [--per-class N] [--epochs E]
     [--hidden H] [--seed S] [--real-copies N] [--other-as-none] [--labels FILE ...]
     [--hold-out-runs APP/RUN,...] [--no-memory]

Renders every library glyph ``per_class`` times (learned.augment; kept on disk by learned.render_cache),
adds real crops of the labelled icons in benchmarks/data/real_icon_train_*.yaml (or ``--labels``;
learned.real_crops), describes each as ranking does (learned.features), fits a one-hidden-layer MLP
with Adam on one BLAS thread, and writes DIR/icons.npz and DIR/icons.json (model.save_model), whose
manifest names the label files and their hashes. Then it builds the memory of the same labels from the
weights as written (learned.memory_build; not with ``--no-memory``). ``--hold-out-runs`` leaves those
runs' crops out of both (to measure on them: benchmarks/icon_learned.py --real). The defaults are the
shipped weights' settings.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.blas import one_thread
from droidpilot.perception.icons.glyphs.catalogue import font_path, glyph_names
from droidpilot.perception.icons.learned.augment import TEXT_FONTS
from droidpilot.perception.icons.learned.classes import glyph_classes
from droidpilot.perception.icons.learned.features import feature_version
from droidpilot.perception.icons.learned.memory_build import write_memory
from droidpilot.perception.icons.learned.model import Mlp, load_model, save_model
from droidpilot.perception.icons.learned.real_crops import CropSet, build_crops
from droidpilot.perception.icons.learned.real_labels import (
    LabelFile,
    label_files,
    load_label_file,
    shown_path,
)
from droidpilot.perception.icons.learned.render_cache import renders


@dataclass(frozen=True)
class Settings:
    """How a model is trained; the defaults are the shipped weights'."""

    per_class: int = 30
    negatives: int = 3000  # text fragments and patches: common candidates on screens, one class of many
    epochs: int = 14
    hidden: int = 320
    seed: int = 34
    batch: int = 256
    lr: float = 3e-3
    weight_decay: float = 1e-4  # decoupled (AdamW), on the weight matrices only
    smoothing: float = 0.05  # label smoothing: probabilities stay usable scores, not 0/1
    real_copies: int = 16  # variants of each labelled real icon (learned.real_crops)
    other_as_none: bool = False  # real icons labelled ``other`` train the NONE class (else left out)


def fit(x: np.ndarray, y: np.ndarray, n_classes: int, s: Settings,
        log: Callable[[str], None] | None = None) -> Mlp:
    """An MLP fitted to features ``x`` and class indices ``y`` with Adam (cosine learning rate)."""
    rng = np.random.default_rng(s.seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    xs = ((x - mean) / scale).astype(np.float32)
    f = x.shape[1]
    params = {
        "w1": (rng.standard_normal((f, s.hidden)) * np.sqrt(2.0 / f)).astype(np.float32),
        "b1": np.zeros(s.hidden, np.float32),
        "w2": (rng.standard_normal((s.hidden, n_classes)) * np.sqrt(1.0 / s.hidden)).astype(np.float32),
        "b2": np.zeros(n_classes, np.float32),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    b1, b2, eps = 0.9, 0.999, 1e-8
    steps = s.epochs * int(np.ceil(len(xs) / s.batch))
    t = 0
    with one_thread():
        for epoch in range(s.epochs):
            order = rng.permutation(len(xs))
            total = 0.0
            for start in range(0, len(xs), s.batch):
                idx = order[start:start + s.batch]
                xb, yb = xs[idx], y[idx]
                h = np.maximum(xb @ params["w1"] + params["b1"], 0.0)
                z = h @ params["w2"] + params["b2"]
                z -= z.max(axis=1, keepdims=True)
                p = np.exp(z)
                p /= p.sum(axis=1, keepdims=True)
                target = np.full_like(p, s.smoothing / n_classes)
                target[np.arange(len(yb)), yb] += 1.0 - s.smoothing
                total += float(-(target * np.log(p + 1e-12)).sum())
                dz = (p - target) / len(yb)
                dh = (dz @ params["w2"].T) * (h > 0)
                grads = {"w2": h.T @ dz, "b2": dz.sum(axis=0), "w1": xb.T @ dh, "b1": dh.sum(axis=0)}
                t += 1
                lr = 0.5 * s.lr * (1.0 + np.cos(np.pi * (t - 1) / steps))
                for k, g in grads.items():
                    m[k] = b1 * m[k] + (1 - b1) * g
                    v[k] = b2 * v[k] + (1 - b2) * g * g
                    step = lr * (m[k] / (1 - b1 ** t)) / (np.sqrt(v[k] / (1 - b2 ** t)) + eps)
                    if k.startswith("w"):
                        step += lr * s.weight_decay * params[k]
                    params[k] -= step.astype(np.float32)
            if log is not None:
                log(f"epoch {epoch + 1}/{s.epochs}: loss {total / len(xs):.4f}")
    return Mlp(mean.astype(np.float32), scale.astype(np.float32), params["w1"], params["b1"],
               params["w2"], params["b2"])


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else None


def real_set(settings: Settings, classes: Sequence[tuple[str, ...]], paths: Sequence[Path] | None = None,
             hold_out_runs: Sequence[str] = ()) -> tuple[CropSet, list[LabelFile]]:
    """Real crops of the label files (the checkout's by default) for ``classes``, without the crops of
    ``hold_out_runs``; and the files as read. Every glyph name must be the library's; labels of glyphs
    outside ``classes`` (a run on a few of them) train nothing."""
    index = {n: c for c, names in enumerate(classes) for n in names}
    known = set(glyph_names()) | set(index)  # a run on a few classes skips the other glyphs' labels
    files = [load_label_file(p, known) for p in label_files(paths)]
    crops = build_crops(files, index, settings.real_copies, settings.seed, settings.other_as_none)
    held = set(hold_out_runs)
    return crops.where(lambda run: run not in held), files


def real_manifest(files: Sequence[LabelFile], crops: CropSet, hold_out_runs: Sequence[str]
                  ) -> dict[str, object]:
    """What the manifest says of the real crops: each label file with its hash, and the runs left out."""
    return {"label_files": [{"file": shown_path(f.path), "sha256": f.digest(), "labels": len(f.labels)}
                            for f in files],
            "crops": len(crops.y), "held_out_runs": sorted(hold_out_runs)}


def train(settings: Settings, names: Sequence[str] | None = None,
          log: Callable[[str], None] | None = None, labels: Sequence[Path] | None = None,
          hold_out_runs: Sequence[str] = ()) -> Mlp:
    """A classifier for the library's glyphs (or only ``names``), trained on renders and on the real
    crops of ``labels`` (the checkout's label files by default; ``[]`` for none), manifest filled in."""
    classes = glyph_classes(list(names) if names is not None else None)
    started = time.perf_counter()
    x, y = renders(classes, settings.per_class, settings.seed, settings.negatives)
    crops, files = real_set(settings, classes, labels, hold_out_runs)
    if log is not None:
        log(f"{len(x)} renders and {len(crops.y)} real crops ({sum(len(f.labels) for f in files)} labels) "
            f"of {len(classes)} classes in {time.perf_counter() - started:.0f} s")
    model = fit(np.concatenate([x, crops.x]), np.concatenate([y, crops.y]), len(classes), settings, log)
    model.manifest = {
        "feature_version": feature_version(),
        "classes": [list(c) for c in classes],
        "seed": settings.seed,
        "settings": settings.__dict__,
        "fonts": {"icons": str(font_path()), "icons_sha256": _digest(font_path()),
                  "text_negatives": [str(p) for p in TEXT_FONTS if p.is_file()]},
        "library_glyphs": len(glyph_names()) if names is None else len(names),
        "training_data": "augmented renders of the glyph library (learned.augment), text/background "
                         "negatives, and real crops of the labelled icons (learned.real_crops)",
        "real": real_manifest(files, crops, hold_out_runs),
        "samples": len(x) + len(crops.y),
    }
    return model


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: train with the given settings and write the weights and manifest."""
    ap = argparse.ArgumentParser(prog="python -m droidpilot.perception.icons.learned.train",
                                 description="Train droidpilot's icon classifier from the glyph library.")
    ap.add_argument("--out", type=Path, required=True, help="folder for icons.npz and icons.json")
    d = Settings()
    ap.add_argument("--per-class", type=int, default=d.per_class, help="renders per glyph class")
    ap.add_argument("--epochs", type=int, default=d.epochs)
    ap.add_argument("--hidden", type=int, default=d.hidden)
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--real-copies", type=int, default=d.real_copies, help="variants per real labelled icon")
    ap.add_argument("--other-as-none", action="store_true", help="real icons labelled 'other' train NONE")
    ap.add_argument("--labels", type=Path, nargs="*", default=None,
                    help="real-crop label files (default: benchmarks/data/real_icon_train_*.yaml)")
    ap.add_argument("--hold-out-runs", default="", help="APP/RUN,... whose crops are left out")
    ap.add_argument("--no-memory", action="store_true", help="do not build the memory of labelled icons")
    args = ap.parse_args(argv)
    if not glyph_names():
        print("the glyph library is empty: install fonts-material-design-icons-iconfont (Makefile "
              "SYSTEM_PACKAGES) or set DROIDPILOT_ICON_FONT / DROIDPILOT_ICON_CSS", file=sys.stderr)
        return 2
    settings = Settings(per_class=args.per_class, epochs=args.epochs, hidden=args.hidden, seed=args.seed,
                        real_copies=args.real_copies, other_as_none=args.other_as_none)
    started = time.perf_counter()
    held = [r.strip() for r in args.hold_out_runs.split(",") if r.strip()]
    try:
        model = train(settings, log=lambda msg: print(msg, flush=True), labels=args.labels,
                      hold_out_runs=held)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    weights, manifest = save_model(model, args.out)
    print(f"wrote {weights} ({weights.stat().st_size / 1e6:.2f} MB) and {manifest} "
          f"in {time.perf_counter() - started:.0f} s", flush=True)
    if not args.no_memory:  # from the weights as written (float16), as ranking will load them
        written = load_model(weights, manifest, feature_version(), glyph_names())
        known = set(glyph_names()) | {n for c in written.classes for n in c}
        files = [load_label_file(p, known) for p in label_files(args.labels)]
        memory = write_memory(args.out, written, files, held)
        print(f"wrote {memory} ({memory.stat().st_size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
