"""Build the classifier's memory of labelled real icons (learned.memory) for a weights folder.

Run: python -m droidpilot.perception.icons.learned.memory_build --weights DIR [--labels FILE ...]
     [--hold-out-runs APP/RUN,...] [--other-as-none]

Each labelled glyph icon of the label files (benchmarks/data/real_icon_train_*.yaml by default) is read
as ranking reads a candidate at its labelled box and at the finder's own candidates over it
(real_crops); each reading's hidden layer becomes an entry, identical entries once. Brand and ``other``
icons become NONE entries only with ``--other-as-none``: the two label files disagree on app tiles (one
labels an unbranded launcher tile ``other``, the other by its glyph), and with them the leave-apps-out
half a got 8 more sure-and-wrong answers, every one "no glyph" on a launcher tile.
Writes DIR/memory.npz and a ``memory`` entry into DIR/icons.json (file, sha256, the weights' sha256,
the label files with their sha256, the runs left out). train.py builds it after every fit.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.icons.candidates import find_regions
from droidpilot.perception.icons.glyphs.catalogue import glyph_names
from droidpilot.perception.icons.learned.classes import NONE
from droidpilot.perception.icons.learned.features import feature_version
from droidpilot.perception.icons.learned.memory import FILE, Memory, save_memory, sha16, unit_rows
from droidpilot.perception.icons.learned.model import Mlp, ModelMismatch, load_model
from droidpilot.perception.icons.learned.real_crops import MATCH_IOU, iou, readings_features, screen_image
from droidpilot.perception.icons.learned.real_labels import (
    LabelFile,
    RealLabel,
    label_files,
    load_label_file,
    shown_path,
)

NAME = "icons"


def memory_class(label: RealLabel, index: dict[str, int], other_as_none: bool = False) -> int | None:
    """The class an entry of this label stands for: its glyph's; NONE for a brand or ``other`` icon with
    ``other_as_none`` (else None); None for a glyph the weights have no class for (a run on a few)."""
    if label.is_glyph:
        return index.get(label.glyph)
    return index[NONE] if other_as_none else None


def label_readings(files: Sequence[LabelFile], index: dict[str, int], hold_out_runs: Sequence[str] = (),
                   other_as_none: bool = False) -> tuple[list[np.ndarray], list[int]]:
    """Descriptors of every label's readings (its box and the finder's candidates over it) with the
    class each stands for, leaving out the labels of ``hold_out_runs``."""
    held = set(hold_out_runs)
    feats: list[np.ndarray] = []
    classes: list[int] = []
    for lf in files:
        by_screen: dict[str, list[RealLabel]] = {}
        for lab in lf.labels:
            if lab.run not in held and memory_class(lab, index, other_as_none) is not None:
                by_screen.setdefault(lab.screen, []).append(lab)
        for screen, group in by_screen.items():
            image = screen_image(lf.root, screen, group[0].where)
            regions = find_regions(image)
            for lab in group:
                found = readings_features(image, lab.box)
                for r in regions:
                    if iou(r.box, lab.box) >= MATCH_IOU:
                        found += readings_features(image, r.box, r.background)
                feats += found
                classes += [memory_class(lab, index, other_as_none)] * len(found)  # type: ignore[list-item]
    return feats, classes


def build_memory(model: Mlp, files: Sequence[LabelFile], hold_out_runs: Sequence[str] = (),
                 other_as_none: bool = False) -> Memory:
    """The memory of ``files``' labels (without ``hold_out_runs``) in ``model``'s hidden space."""
    index = {n: c for c, names in enumerate(model.classes) for n in names}
    feats, classes = label_readings(files, index, hold_out_runs, other_as_none)
    if not feats:
        return Memory(np.zeros((0, model.w1.shape[1]), np.float32), np.zeros(0, np.int64))
    keys = unit_rows(model.hidden(np.stack(feats).astype(np.float32))).astype(np.float16)
    seen: set[bytes] = set()
    keep = []
    for i, (key, c) in enumerate(zip(keys, classes, strict=True)):
        tag = key.tobytes() + c.to_bytes(4, "little")
        if tag not in seen:
            seen.add(tag)
            keep.append(i)
    return Memory(keys[keep].astype(np.float32), np.asarray(classes, np.int64)[keep])


def write_memory(folder: Path, model: Mlp, files: Sequence[LabelFile], hold_out_runs: Sequence[str] = (),
                 other_as_none: bool = False) -> Path:
    """Build the memory for the weights in ``folder``, write memory.npz and its manifest entry."""
    memory = build_memory(model, files, hold_out_runs, other_as_none)
    path = save_memory(memory, folder)
    manifest_path = folder / f"{NAME}.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["memory"] = {
        "file": FILE, "sha256": sha16(path), "weights_sha256": sha16(folder / f"{NAME}.npz"),
        "entries": len(memory.classes), "none_entries": int((memory.classes == len(model.classes) - 1).sum()),
        "label_files": [{"file": shown_path(f.path), "sha256": f.digest(), "labels": len(f.labels)}
                        for f in files],
        "held_out_runs": sorted(hold_out_runs), "other_as_none": other_as_none,
    }
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: (re)build the memory of a weights folder."""
    ap = argparse.ArgumentParser(prog="python -m droidpilot.perception.icons.learned.memory_build",
                                 description="Build the icon classifier's memory of labelled real icons.")
    ap.add_argument("--weights", type=Path, required=True, help="folder with icons.npz and icons.json")
    ap.add_argument("--labels", type=Path, nargs="*", default=None,
                    help="label files (default: benchmarks/data/real_icon_train_*.yaml)")
    ap.add_argument("--hold-out-runs", default="", help="APP/RUN,... whose labels are left out")
    ap.add_argument("--other-as-none", action="store_true", help="brand and 'other' icons as NONE entries")
    args = ap.parse_args(argv)
    held = [r.strip() for r in args.hold_out_runs.split(",") if r.strip()]
    try:
        model = load_model(args.weights / f"{NAME}.npz", args.weights / f"{NAME}.json", feature_version(),
                           glyph_names())
        known = set(glyph_names()) | {n for c in model.classes for n in c}
        files = [load_label_file(p, known) for p in label_files(args.labels)]
        path = write_memory(args.weights, model, files, held, args.other_as_none)
    except (InputError, ModelMismatch) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({path.stat().st_size / 1e3:.0f} kB) and its entry in {args.weights / NAME}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
