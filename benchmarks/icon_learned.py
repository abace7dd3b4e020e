"""The learned icon classifier on held-out augmented renders: top-1 / top-5 accuracy over glyph classes.

Run: .venv/bin/python benchmarks/icon_learned.py [--weights DIR] [--per-class N] [--seed S]

Renders every library glyph class ``per_class`` times with a seed the training never used (the
shipped weights were trained with the seed in their manifest; this refuses that seed), plus negatives
(text fragments, background patches), and prints top-1 / top-5 over the glyph samples, how often a glyph
is called NONE, how often a negative is, and milliseconds per classification (a batch of 256, warm).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from droidpilot.perception.icons.glyphs.catalogue import glyph_names
from droidpilot.perception.icons.learned.data import build_set
from droidpilot.perception.icons.learned.features import feature_version
from droidpilot.perception.icons.learned.model import ModelMismatch, load_model
from droidpilot.perception.icons.learned.score import NAME, WEIGHTS_DIR


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weights", type=Path, default=WEIGHTS_DIR, help="folder with icons.npz and icons.json")
    ap.add_argument("--per-class", type=int, default=3)
    ap.add_argument("--negatives", type=int, default=1000, help="text fragments and background patches")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    try:
        model = load_model(args.weights / f"{NAME}.npz", args.weights / f"{NAME}.json", feature_version(),
                           glyph_names())
    except ModelMismatch as exc:
        print(f"icon_learned: {exc}", file=sys.stderr)
        return 2
    if args.seed == model.manifest.get("seed"):
        print(f"icon_learned: --seed {args.seed} is the training seed; pick another", file=sys.stderr)
        return 2
    classes = model.classes
    x, y = build_set(classes, args.per_class, args.seed, args.negatives)
    started = time.perf_counter()
    p = model.probabilities(x)
    ms = 1000 * (time.perf_counter() - started) / max(1, len(x))
    top5 = np.argsort(-p, axis=1)[:, :5]
    none = len(classes) - 1
    glyph = y != none
    hit1 = top5[:, 0] == y
    hit5 = (top5 == y[:, None]).any(axis=1)
    print(f"icon_learned_heldout classes={len(classes) - 1} samples={int(glyph.sum())} "
          f"top1={hit1[glyph].mean():.3f} top5={hit5[glyph].mean():.3f} "
          f"glyph_called_none={(top5[glyph, 0] == none).mean():.3f} "
          f"negatives={int((~glyph).sum())} negative_called_none={hit1[~glyph].mean():.3f} "
          f"ms_per_crop={ms:.3f} seed={args.seed} trained_seed={model.manifest.get('seed')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
