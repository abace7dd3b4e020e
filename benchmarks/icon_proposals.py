"""How often the icon locator's proposal stage (perception/icons/candidates.py) offers a box for the real
icon, and where the ranking puts it, on real screens: tune, report and the training sets, never holdout.

Run: .venv/bin/python benchmarks/icon_proposals.py [--split tune|report|train|all] [--no-rank]
     [--misses] [--crops DIR] [--app NAME] [--root DIR]

Per split and per app:
- ``proposed``: share of queries whose true box some proposal of find_regions matches. A proposal
  matches when its IoU with the true box is at least 0.5, or when its centre is inside the true box and
  its width and height are each between half and twice the true box's (a box a little looser or tighter
  than the ink, or a glyph's tile, still proposes the icon; a whole toolbar does not).
- ``recall@1/4/8``: the true icon among rank_icons' first k for the query, counted as icon_real.py counts
  it (the candidate's tap point inside the true box); skipped with --no-rank.
- ``cands/screen``: proposals per screen (median), and ``cpu_s/screen``: CPU seconds of find_regions per
  screen (median, warm; OCR lines are read once per screen beforehand and not counted).

The proposal stage does not use the learned classifier, so figures on the training sets are honest even
though the classifier is trained on their crops. ``--misses`` lists every query not proposed (and, with
ranks, those proposed but ranked 8th or lower) with the nearest proposal; with ``--crops DIR`` it writes
each missed icon's surroundings (4x, true box green, proposals touching it red) under DIR. The holdout is
never loaded here: its icons are measured only, once, by icon_real.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.icons.candidates import Region, find_regions, iou
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.types import Box, OcrLine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from icon_real import KS, _ocr, _rank_of
from real_icon_set import DATA, IconLabel, load_labels, screens_root
from real_icon_train_set import TRAIN_FILES

SPLITS = ("tune", "report", "train")  # never "holdout"
MATCH_IOU = 0.5
SIZE_RATIO = 2.0


def matches(box: Box, truth: Box) -> bool:
    """Does a proposal ``box`` propose the icon whose true box is ``truth`` (the rule in the docstring)?"""
    if iou(box, truth) >= MATCH_IOU:
        return True
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    if not (truth[0] <= cx < truth[2] and truth[1] <= cy < truth[3]):
        return False
    for side, true_side in ((box[2] - box[0], truth[2] - truth[0]), (box[3] - box[1], truth[3] - truth[1])):
        if not true_side / SIZE_RATIO <= side <= true_side * SIZE_RATIO:
            return False
    return True


@dataclass
class Tally:
    """Proposal and ranking counts for one group of queries (a split, an app)."""

    n: int = 0
    proposed: int = 0
    ranked: int = 0  # queries that were ranked (all unless --no-rank)
    at: dict[int, int] = field(default_factory=lambda: {k: 0 for k in KS})
    cands: list[int] = field(default_factory=list)  # per screen
    cpu: list[float] = field(default_factory=list)  # per screen

    def line(self) -> str:
        n = max(1, self.n)
        ranks = (" recall " + " ".join(f"@{k}={self.at[k] / max(1, self.ranked):.3f}" for k in KS)
                 if self.ranked else "")
        return (f"proposed={self.proposed / n:.3f}{ranks} "
                f"cands/screen={statistics.median(self.cands) if self.cands else 0:.0f} "
                f"cpu_s/screen={statistics.median(self.cpu) if self.cpu else 0.0:.3f} "
                f"n={self.n} screens={len(self.cands)}")


def load(split: str, root: Path | None = None) -> tuple[Path, list[IconLabel]]:
    """(screens folder, labels) of the development splits and training sets asked for; never holdout."""
    written, labels = load_labels(DATA)
    chosen = [lb for lb in labels if lb.split in ("tune", "report") and split in ("all", lb.split)]
    if split in ("all", "train"):
        for path in TRAIN_FILES:
            _, train = load_labels(path, ("train",))
            chosen += train
    return screens_root(written, root), chosen


def _save_crop(folder: Path, name: str, image: np.ndarray, truth: Box, near: list[Box]) -> None:
    """The miss's surroundings at 4x: true box green, proposals touching it red (BGR file)."""
    h, w = image.shape[:2]
    pad = max(12, truth[2] - truth[0], truth[3] - truth[1])
    x1, y1 = max(0, truth[0] - pad), max(0, truth[1] - pad)
    x2, y2 = min(w, truth[2] + pad), min(h, truth[3] + pad)
    crop = cv2.resize(image[y1:y2, x1:x2, ::-1], None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
    for box, colour in [*((b, (0, 0, 255)) for b in near), (truth, (0, 200, 0))]:
        cv2.rectangle(crop, (4 * (box[0] - x1), 4 * (box[1] - y1)), (4 * (box[2] - x1) - 1,
                      4 * (box[3] - y1) - 1), colour, 1)
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / name), np.ascontiguousarray(crop))


def _nearest(regions: list[Region], truth: Box) -> Region | None:
    """The proposal overlapping the true box most; of none overlapping, the one whose centre is closest."""
    tx, ty = (truth[0] + truth[2]) / 2, (truth[1] + truth[3]) / 2
    return max(regions, key=lambda r: (iou(r.box, truth), -abs((r.box[0] + r.box[2]) / 2 - tx)
                                       - abs((r.box[1] + r.box[3]) / 2 - ty)), default=None)


def measure(labels: list[IconLabel], root: Path, ocr_name: str, rank: bool, misses: bool,
            crops: Path | None) -> dict[str, Tally]:
    """Propose once per screen, match every query's true box, rank each query; tallies by split/app."""
    engine = _ocr(ocr_name)
    tallies: dict[str, Tally] = {}
    by_screen: dict[str, list[IconLabel]] = {}
    for label in labels:
        by_screen.setdefault(label.screen, []).append(label)
    warm = False
    for screen, group in by_screen.items():
        image = read_image(root / screen)[:, :, ::-1].copy()  # BGR file -> RGB, as screenshots arrive
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        lines: list[OcrLine] | None = list(engine.recognize(image)) if engine is not None else None
        if not warm:
            find_regions(bgr, lines)
            warm = True
        c0 = time.process_time()
        regions = find_regions(bgr, lines)
        cpu = time.process_time() - c0
        split = group[0].split
        for key in {split, f"{split}/{group[0].app}", "all"}:
            tallies.setdefault(key, Tally()).cands.append(len(regions))
            tallies[key].cpu.append(cpu)
        for i, label in enumerate(group):
            hit = any(matches(r.box, label.box) for r in regions)
            at = _rank_of(image, label, lines) if rank else None
            for key in (split, f"{split}/{label.app}", "all"):
                t = tallies[key]
                t.n += 1
                t.proposed += hit
                if rank:
                    t.ranked += 1
                    for k in KS:
                        t.at[k] += at is not None and at < k
            late = rank and (at is None or at >= KS[-1])
            if misses and (not hit or late):
                near = _nearest(regions, label.box)
                what = "not proposed" if not hit else f"proposed, rank {at}"
                got = (f"nearest {list(near.box)} {near.source} iou={iou(near.box, label.box):.2f}"
                       if near else "")
                print(f"  miss [{split}] {screen}: {label.query!r} {list(label.box)} {what}; {got}")
                if crops is not None:
                    touching = [r.box for r in regions if iou(r.box, label.box) > 0.05][:12]
                    name = f"{screen.replace('/', '_')[:-4]}_{i:02d}_{'p' if not hit else 'r'}.png"
                    _save_crop(crops, name, image, label.box, touching)
    return tallies


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ocr", default="rapidocr", help="OCR engine for the text lines (rapidocr, none)")
    ap.add_argument("--split", choices=[*SPLITS, "all"], default="all")
    ap.add_argument("--root", type=Path, default=None, help="folder holding APP/RUN/STEP.jpg screens")
    ap.add_argument("--app", default=None, help="only screens of this app folder (\"Google Maps\")")
    ap.add_argument("--no-rank", action="store_true", help="proposals only (fast): no recall@k")
    ap.add_argument("--misses", action="store_true", help="list queries not proposed (or ranked 8th+)")
    ap.add_argument("--crops", type=Path, default=None, help="with --misses: write each miss's crop here")
    args = ap.parse_args(argv)
    cv2.setNumThreads(2)
    try:
        root, labels = load(args.split, args.root)
        labels = [lb for lb in labels if args.app in (None, lb.app)]
        if not labels:
            raise InputError(f"no queries for split {args.split!r} and app {args.app!r}; check the app's "
                             "folder name (as under mobile-eval-real)")
        tallies = measure(labels, root, args.ocr, not args.no_rank, args.misses, args.crops)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"icon_proposals_queries {len(labels)} on {len({lb.screen for lb in labels})} real screens "
          f"(OCR {args.ocr}; match: IoU>={MATCH_IOU} or centre inside and each side within {SIZE_RATIO:g}x)")
    for split in SPLITS:
        if split not in tallies:
            continue
        print(f"icon_proposals_{split} {tallies[split].line()}")
        for key in sorted(k for k in tallies if k.startswith(split + "/")):
            print(f"icon_proposals_{split}_app {key.split('/', 1)[1]!r} {tallies[key].line()}")
    print(f"icon_proposals_overall {tallies['all'].line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
