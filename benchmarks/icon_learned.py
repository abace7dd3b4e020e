"""The learned icon classifier on held-out augmented renders: top-1 / top-5 accuracy over glyph classes.

Run: .venv/bin/python benchmarks/icon_learned.py [--weights DIR] [--per-class N] [--seed S]
     .venv/bin/python benchmarks/icon_learned.py --real [--weights DIR] [--labels FILE ...] [--no-memory]

Renders every library glyph class ``per_class`` times with a seed the training never used (the
shipped weights were trained with the seed in their manifest; this refuses that seed), plus negatives
(text fragments, background patches), and prints top-1 / top-5 over the glyph samples, how often a glyph
is called NONE, how often a negative is, and milliseconds per classification (a batch of 256, warm).

``--real``: the classifier on the real labelled icons of the training label files (learned.real_labels),
each read as ranking reads a candidate at its labelled box; the label's answer is the class of its
surest reading, with the memory of labelled icons beside the weights (learned.memory) unless
``--no-memory``. Labels the weights and their memory never saw (runs left out with ``--hold-out-runs``,
or label files they were not built from: the cross-fitted halves) are the honest figure ``held_out``;
the others are listed apart as ``trained_on``. Per group: top-1,
top-5, called NONE, and how trustworthy a sure answer is: the share of labels with a top probability of
at least 0.5 and how many of those are wrong (classifier_say trusts p >= 0.5). ``other`` labels (icons
no library glyph fits) count how often one is called a glyph with p >= 0.5.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.icons.learned.classes import NONE
from droidpilot.perception.icons.learned.data import build_set
from droidpilot.perception.icons.learned.model import ModelMismatch
from droidpilot.perception.icons.learned.real_crops import readings_features, screen_image
from droidpilot.perception.icons.learned.real_labels import OTHER, RealLabel, label_files, load_label_file
from droidpilot.perception.icons.learned.score import WEIGHTS_DIR, Classifier, load_classifier

SURE = 0.5  # classifier_say.LEARNED_SURE: a probability above all other classes' together


def _seen(label: RealLabel, digest: str, part: object) -> bool:
    """Did the manifest part (``real`` of the weights, or ``memory``) take crops of this label?"""
    if not isinstance(part, dict):
        return False
    files = {f.get("sha256") for f in part.get("label_files", []) if isinstance(f, dict)}
    return digest in files and label.run not in part.get("held_out_runs", [])


def _group(label: RealLabel, digest: str, manifest: dict, memory: bool) -> str:
    seen = _seen(label, digest, manifest.get("real"))
    seen = seen or (memory and _seen(label, digest, manifest.get("memory")))
    return "trained_on" if seen else "held_out"


def real_main(clf: Classifier, paths: list[Path] | None) -> int:
    """Top-1 / top-5 / sure-and-wrong of the classifier on the real labelled icons, per group of runs."""
    model = clf.model
    index = {n: c for c, names in enumerate(model.classes) for n in names}
    none = index[NONE]
    rows: dict[str, list[tuple[int, np.ndarray]]] = {}  # group -> (true class or -1 for other, probs)
    for path in label_files(paths):
        lf = load_label_file(path, index)
        digest = lf.digest()
        for lab in lf.labels:
            if not lab.is_glyph and lab.glyph != OTHER:
                continue  # brands: the library has no brand classes
            feats = readings_features(screen_image(lf.root, lab.screen, lab.where), lab.box)
            if not feats:
                continue
            p = clf.probabilities(np.stack(feats))
            best = p[int(p.max(axis=1).argmax())]  # the surest reading
            truth = index[lab.glyph] if lab.is_glyph else -1
            group = _group(lab, digest, model.manifest, clf.memory is not None)
            rows.setdefault(group, []).append((truth, best))
    for group, items in sorted(rows.items()):
        glyphs = [(t, p) for t, p in items if t >= 0]
        others = [p for t, p in items if t < 0]
        top5 = [np.argsort(-p)[:5] for _, p in glyphs]
        n = max(1, len(glyphs))
        sure = [(t, p) for t, p in glyphs if p.max() >= SURE]
        sure_wrong = sum(int(p.argmax()) != t for t, p in sure)
        other_sure = sum(p[:none].max() >= SURE for p in others)
        print(f"icon_learned_real {group} memory={'yes' if clf.memory is not None else 'no'} "
              f"labels={len(glyphs)} "
              f"top1={sum(int(k[0] == t) for k, (t, _) in zip(top5, glyphs, strict=True)) / n:.3f} "
              f"top5={sum(int(t in k) for k, (t, _) in zip(top5, glyphs, strict=True)) / n:.3f} "
              f"called_none={sum(int(p.argmax()) == none for _, p in glyphs) / n:.3f} "
              f"sure={len(sure) / n:.3f} sure_wrong={sure_wrong} "
              f"other={len(others)} other_called_glyph_sure={other_sure}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weights", type=Path, default=WEIGHTS_DIR, help="folder with icons.npz and icons.json")
    ap.add_argument("--per-class", type=int, default=3)
    ap.add_argument("--negatives", type=int, default=1000, help="text fragments and background patches")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--real", action="store_true", help="measure on the real labelled icons instead")
    ap.add_argument("--labels", type=Path, nargs="*", default=None,
                    help="label files for --real (default: benchmarks/data/real_icon_train_*.yaml)")
    ap.add_argument("--no-memory", action="store_true", help="the network alone, without its memory")
    args = ap.parse_args()
    try:
        clf = load_classifier(args.weights, use_memory=not args.no_memory)
    except ModelMismatch as exc:
        print(f"icon_learned: {exc}", file=sys.stderr)
        return 2
    model = clf.model
    if args.real:
        try:
            return real_main(clf, args.labels)
        except InputError as exc:
            print(f"icon_learned: {exc}", file=sys.stderr)
            return 2
    if args.seed == model.manifest.get("seed"):
        print(f"icon_learned: --seed {args.seed} is the training seed; pick another", file=sys.stderr)
        return 2
    classes = model.classes
    x, y = build_set(classes, args.per_class, args.seed, args.negatives)
    started = time.perf_counter()
    p = clf.probabilities(x)
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
