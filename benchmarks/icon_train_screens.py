"""Icon localisation on the training screens (benchmarks/data/real_icon_train_a.yaml and _b.yaml), with
icon_real's own measure(): fresh screens nobody tuned the locator on, to judge decision rules.

Run: .venv/bin/python benchmarks/icon_train_screens.py [--half a|b|both] [--ocr rapidocr|none] [--misses]

The two files are the two halves: decide a rule on one (a), confirm it on the other (b); a rule that helps
one half only is not general. Prints icon_real's aggregate line per half and per app (hit, recall@1/4/8,
ambiguous_with_truth, wrong_found, ambiguous, not_found, seconds per query) and, with ``--misses``, each
query not hit with what was answered (these screens are for training, so listing them is allowed; the
holdout of real_icons.yaml is never listed here or anywhere).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from droidpilot.errors import InputError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from icon_real import measure
from real_icon_set import IconLabel, load_labels, screens_root

DATA = Path(__file__).resolve().parent / "data"
HALVES = ("a", "b")


def half_labels(half: str) -> tuple[Path, list[IconLabel]]:
    """(screens folder, labels) of one training file; the split of every label is renamed to the half
    ("train_a"), so icon_real's tallies keep the halves apart."""
    written, labels = load_labels(DATA / f"real_icon_train_{half}.yaml", splits=("train",))
    renamed = [IconLabel(lb.screen, f"train_{half}", lb.query, lb.box, lb.glyph) for lb in labels]
    return screens_root(written, None), renamed


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=[*HALVES, "both"], default="both")
    ap.add_argument("--ocr", default="rapidocr", help="OCR engine for the text lines (rapidocr, none)")
    ap.add_argument("--misses", action="store_true", help="print every query not hit with what was answered")
    args = ap.parse_args(argv)
    cv2.setNumThreads(2)
    halves = HALVES if args.half == "both" else (args.half,)
    try:
        tallies = {}
        for half in halves:
            root, labels = half_labels(half)
            tallies.update(measure(labels, root, args.ocr, args.misses))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    tallies.pop("all", None)
    for half in halves:
        key = f"train_{half}"
        print(f"icon_train_{half} {tallies[key].line()}")
        for app in sorted(k for k in tallies if k.startswith(key + "/")):
            print(f"icon_train_{half}_app {app.split('/', 1)[1]!r} {tallies[app].line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
