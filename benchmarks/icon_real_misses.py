"""A miss report for the real-screen icon set: per missed query, what was found against the truth.

Run: .venv/bin/python benchmarks/icon_real_misses.py [--split tune|report|all] [--crops DIR] [--app NAME]

For every query locate_icon did not hit, prints the parsed query (words not understood included), the
outcome, the first three ranked candidates with the parts of their scores, and the true icon's rank and
score; with --crops, saves the true icon's crop and the chosen one's (4x, for looking at) under DIR.
The holdout split is never listed (``all`` is tune and report): it is measured only, by icon_real.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.icons.rank import ScoredIcon, locate_icon, rank_icons

sys.path.insert(0, str(Path(__file__).resolve().parent))
from icon_real import _ocr
from real_icon_set import MEASURED_ONLY, IconLabel, load_labels, screens_root


def _save(path: Path, image: np.ndarray, box: tuple[int, int, int, int]) -> None:
    pad = 6
    h, w = image.shape[:2]
    crop = image[max(0, box[1] - pad):min(h, box[3] + pad), max(0, box[0] - pad):min(w, box[2] + pad)]
    crop = cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(path), crop)


def _line(s: ScoredIcon) -> str:
    parts = " ".join(f"{k}={v:.2f}" for k, v in (("c", s.colour), ("s", s.shape), ("p", s.position))
                     if v is not None)
    where = f"{list(s.region.box)} {s.region.source}/{s.reading}"
    return f"{s.description.text!r} {where} score={s.score:.3f} {parts}"


def report(labels: list[IconLabel], root: Path, crops: Path | None) -> int:
    """Print the misses; returns how many there were."""
    engine = _ocr("rapidocr")
    missed = 0
    for n, label in enumerate(labels):
        bgr = read_image(root / label.screen)
        image = bgr[:, :, ::-1].copy()
        lines = list(engine.recognize(image)) if engine is not None else None
        try:
            res = locate_icon(image, label.query, ocr_lines=lines)
        except InputError as exc:
            missed += 1
            print(f"[{n}] {label.screen} {label.query!r}: refused ({exc})")
            continue
        if res.status == "found" and label.contains(res.candidates[0].point):
            continue
        missed += 1
        q = parse_icon_query(label.query, names_ok=True)
        ranked = rank_icons(image, label.query, ocr_lines=lines)
        truth = next(((i, s) for i, s in enumerate(ranked) if label.contains(s.point)), None)
        print(f"[{n}] {label.screen} {label.query!r} truth={list(label.box)} -> {res.status}")
        print(f"     parsed colour={q.colour} shape={q.shape} glyphs={list(q.glyphs)[:6]} "
              f"pos={q.position} style={q.style} unknown={list(q.unknown)}")
        for s in ranked[:3]:
            print(f"     top  {_line(s)}")
        print(f"     true rank={truth[0]} {_line(truth[1])}" if truth else "     true: no candidate")
        if crops is not None:
            stem = f"{n:03d}_{label.app.replace(' ', '_')}"
            _save(crops / f"{stem}_truth.png", bgr, label.box)
            if ranked:
                _save(crops / f"{stem}_top.png", bgr, ranked[0].region.box)
    return missed


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=["tune", "report", "all"], default="tune")
    ap.add_argument("--crops", type=Path, default=None, help="folder for the truth / chosen crops")
    ap.add_argument("--app", default=None, help="only this app's screens")
    args = ap.parse_args(argv)
    try:
        written, labels = load_labels()
        root = screens_root(written, None)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    chosen = [lb for lb in labels if args.split in ("all", lb.split) and args.app in (None, lb.app)
              and lb.split not in MEASURED_ONLY]
    if args.crops is not None:
        args.crops.mkdir(parents=True, exist_ok=True)
    missed = report(chosen, root, args.crops)
    print(f"misses {missed} of {len(chosen)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
