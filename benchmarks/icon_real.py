"""Icon localisation on real phone screens, scored on the labelled set benchmarks/data/real_icons.yaml.

Run: .venv/bin/python benchmarks/icon_real.py [--ocr rapidocr|none] [--split tune|report|holdout|all ...]
     [--misses] [--exclude-runs-of benchmarks/data/real_icon_train_*.yaml]

Per split (tune and report: screens looked at while developing; holdout: labelled blind, only measured),
per app and overall:
hit (locate_icon answered "found" and its point is inside the true box), candidate recall@1/4/8 (the
true icon among rank_icons' first k), wrong_found (a "found" outside the true box: a wrong tap, worse than
asking), how many were answered ambiguous and not_found (counts), and seconds per query (locate_icon,
warm, median). OCR lines are read once per screen, as the agent reads them, and are not part of the
per-query time. ``--misses`` lists the misses of the development
splits only: a holdout miss is counted, never shown, so no one tunes on it.
``--exclude-runs-of FILE...`` (the classifier's real-crop label files) also tallies each split without
the queries on screens of runs ("APP/RUN") those files took training crops from (lines ``..._outside``):
a screen of such a run shares its app's look with what the classifier learnt, so it flatters it.
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
import yaml

from droidpilot.errors import InputError
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.icons.rank import locate_icon, rank_icons
from droidpilot.perception.types import OcrLine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_icon_set import MEASURED_ONLY, SPLITS, IconLabel, load_labels, screens_root

KS = (1, 4, 8)


@dataclass
class Tally:
    """Counts for one group of queries (a split, an app)."""

    n: int = 0
    hits: int = 0
    at: dict[int, int] = field(default_factory=lambda: {k: 0 for k in KS})
    asked: int = 0  # ambiguous with the true icon among the candidates shown to the model
    wrong: int = 0  # "found" with its point outside the true box: a wrong tap, worse than asking
    statuses: dict[str, int] = field(default_factory=dict)  # how many of each outcome (ambiguous, ...)
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # less sensitive to a machine shared with others

    def add(self, hit: bool, rank: int | None, asked: bool, seconds: tuple[float, float],
            wrong: bool = False, status: str = "found") -> None:
        self.n += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.hits += hit
        self.wrong += wrong
        self.asked += asked
        self.seconds.append(seconds[0])
        self.cpu.append(seconds[1])
        for k in KS:
            self.at[k] += rank is not None and rank < k

    def line(self) -> str:
        n = max(1, self.n)
        recall = " ".join(f"@{k}={self.at[k] / n:.3f}" for k in KS)
        return (f"hit={self.hits / n:.3f} recall {recall} ambiguous_with_truth={self.asked / n:.3f} "
                f"wrong_found={self.wrong} ambiguous={self.statuses.get('ambiguous', 0)} "
                f"not_found={self.statuses.get('not_found', 0)} "
                f"s/query={statistics.median(self.seconds) if self.seconds else 0.0:.3f} "
                f"cpu_s/query={statistics.median(self.cpu) if self.cpu else 0.0:.3f} n={self.n}")


def _ocr(name: str):  # an OcrEngine behind the cache, or None
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    engine = make_ocr_engine(name)
    return cached(engine) if engine is not None else None


def _rank_of(image: np.ndarray, label: IconLabel, lines: list[OcrLine] | None) -> int | None:
    for i, s in enumerate(rank_icons(image, label.query, ocr_lines=lines)):
        if label.contains(s.point):  # where the candidate would be tapped
            return i
    return None


def trained_runs(paths: list[Path]) -> set[str]:
    """The runs ("APP/RUN") whose screens the given training label files label."""
    runs: set[str] = set()
    for path in paths:
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise InputError(f"cannot read the training label file {path}: {exc}") from None
        screens = doc.get("screens") if isinstance(doc, dict) else None
        if not isinstance(screens, list):
            raise InputError(f"{path}: expected a mapping with a list 'screens'")
        runs |= {s["path"].rsplit("/", 1)[0] for s in screens if isinstance(s, dict) and "path" in s}
    return runs


def measure(labels: list[IconLabel], root: Path, ocr_name: str, misses: bool,
            excluded: set[str] | None = None) -> dict[str, Tally]:
    """Run every query; tallies keyed "split" and "split/app" (and "split_outside" for the queries on
    screens outside the ``excluded`` runs)."""
    engine = _ocr(ocr_name)
    tallies: dict[str, Tally] = {}
    by_screen: dict[str, list[IconLabel]] = {}
    for label in labels:
        by_screen.setdefault(label.screen, []).append(label)
    ocr_seconds: list[float] = []
    warm = False
    for screen, group in by_screen.items():
        image = read_image(root / screen)[:, :, ::-1].copy()  # BGR file -> RGB, as screenshots arrive
        h, w = image.shape[:2]
        lines: list[OcrLine] | None = None
        if engine is not None:
            t0 = time.perf_counter()
            lines = list(engine.recognize(image))
            ocr_seconds.append(time.perf_counter() - t0)
        if not warm:  # the glyph library and caches are built once per process, not per query
            rank_icons(image, "gray gear", ocr_lines=lines)
            warm = True
        for label in group:
            if label.box[2] > w or label.box[3] > h:
                raise InputError(f"{screen}: box {list(label.box)} of {label.query!r} reaches outside the "
                                 f"{w}x{h} screen; fix it in the icon set")
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                res = locate_icon(image, label.query, ocr_lines=lines)
                status, cands = res.status, res.candidates
            except InputError:
                status, cands = "refused", []
            seconds = (time.perf_counter() - t0, time.process_time() - c0)
            hit = status == "found" and label.contains(cands[0].point)
            asked = status == "ambiguous" and any(label.contains(c.point) for c in cands)
            rank = _rank_of(image, label, lines) if status != "refused" else None
            keys = [label.split, f"{label.split}/{label.app}", "all"]
            if excluded is not None and label.screen.rsplit("/", 1)[0] not in excluded:
                keys += [f"{label.split}_outside", "all_outside"]
            for key in keys:
                wrong = status == "found" and not hit
                tallies.setdefault(key, Tally()).add(hit, rank, asked, seconds, wrong, status)
            if misses and not hit and label.split not in MEASURED_ONLY:
                got = f"{cands[0].description} at {cands[0].point}" if cands else ""
                print(f"  miss [{label.split}] {screen}: {label.query!r} -> {status} {got} (rank {rank})")
    if ocr_seconds:
        print(f"icon_real_ocr_seconds_per_screen {statistics.median(ocr_seconds):.3f} ({ocr_name}, median, "
              "not counted per query)")
    return tallies


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ocr", default="rapidocr", help="OCR engine for the text lines (rapidocr, none)")
    ap.add_argument("--split", choices=[*SPLITS, "all"], action="append", default=None,
                    help="split to measure; repeat for several (default: all)")
    ap.add_argument("--root", type=Path, default=None, help="folder holding APP/RUN/STEP.jpg screens")
    ap.add_argument("--misses", action="store_true",
                    help="print every miss with what was chosen (not the holdout's: it is measured only)")
    ap.add_argument("--exclude-runs-of", type=Path, nargs="+", default=None, metavar="FILE",
                    help="training label files: also tally each split without their runs' screens")
    args = ap.parse_args(argv)
    cv2.setNumThreads(2)
    try:
        written, labels = load_labels()
        root = screens_root(written, args.root)
        wanted = set(args.split or ["all"])
        chosen = [lb for lb in labels if "all" in wanted or lb.split in wanted]
        excluded = trained_runs(args.exclude_runs_of) if args.exclude_runs_of else None
        tallies = measure(chosen, root, args.ocr, args.misses, excluded)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    screens = {lb.screen for lb in chosen}
    print(f"icon_real_queries {len(chosen)} on {len(screens)} real screens "
          f"({len({lb.app for lb in chosen})} apps, 540x1170, OCR {args.ocr})")
    for split in SPLITS:
        if split not in tallies:
            continue
        print(f"icon_real_{split} {tallies[split].line()}")
        if f"{split}_outside" in tallies:
            print(f"icon_real_{split}_outside {tallies[split + '_outside'].line()} "
                  f"(runs without training crops)")
        for key in sorted(k for k in tallies if k.startswith(split + "/")):
            print(f"icon_real_{split}_app {key.split('/', 1)[1]!r} {tallies[key].line()}")
    print(f"icon_real_overall {tallies['all'].line()}")
    if "all_outside" in tallies:
        print(f"icon_real_overall_outside {tallies['all_outside'].line()} (runs without training crops)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
