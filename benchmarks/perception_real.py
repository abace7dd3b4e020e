"""Issue 26's closing figures in one run: perception on the real Mobile-Eval screens, and the speed goals.

Run: .venv/bin/python benchmarks/perception_real.py [--quick] [--bare-cache FILE] [--repeats N]
     [--mobiflow PATH --traces DIR]

One table of:
  icons       the real-screen icon set (benchmarks/icon_real.py): hit, recall@1/4/8, seconds per query;
              hit and recall@8 per split (tune, report, holdout: the blind one)
  grounding   GPT-4V's own click text / click icon actions (benchmarks/grounding_real.py): right, ambiguous
              (the model is asked), wrong and missed, text and icon apart
  OCR lines   droidpilot's lines against a bare RapidOCR's (benchmarks/ocr_vs_bare.py): lines bare reads
              that droidpilot misses, how many of them the reviewed list explains as not text, and the rest
  OCR speed   cold `droidpilot ocr` over a cold bare RapidOCR process per phone size (benchmarks/ocr_speed.py
              --sizes; goal at most 0.5)
  verifier    cold `droidpilot verify` against MobiFlow (benchmarks/verify_vs_mobiflow.py; goal 10x), when a
              MobiFlow checkout and traces are given (MobiFlow is not on PyPI)
Each part calls those scripts' own functions. ``--quick`` samples: every 4th icon query and action, every
8th screen, one phone size (1080x2400), one repeat, two verifier pairs; its figures are not the report's.
Screens: Mobile-Agent v1's Mobile-Eval runs (X-PLUG/MobileAgent results/, MIT licence, copyright mPLUG).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import grounding_real  # noqa: E402  (the benchmarks folder is not a package)
import icon_real  # noqa: E402
import ocr_speed  # noqa: E402
import ocr_vs_bare  # noqa: E402
import real_icon_set  # noqa: E402
from droidpilot.errors import InputError  # noqa: E402
from droidpilot.perception.rapid import RapidOcrEngine  # noqa: E402

Row = tuple[str, str, str]  # (what, figure, goal)


def icons(step: int) -> list[Row]:
    """The icon set: every ``step``-th query; all splits together, then each split's hit and recall@8
    (holdout, labelled blind and never tuned on, is the figure that says how droidpilot does on new icons)."""
    written, labels = real_icon_set.load_labels()
    root = real_icon_set.screens_root(written)
    chosen = labels[::step]
    tallies = icon_real.measure(chosen, root, "rapidocr", misses=False)
    tally = tallies["all"]
    n = max(1, tally.n)
    recall = " ".join(f"@{k} {tally.at[k] / n:.3f}" for k in icon_real.KS)
    seconds = statistics.median(tally.seconds) if tally.seconds else 0.0
    rows = [("icons: hit", f"{tally.hits / n:.3f} of {tally.n} queries", ">= 0.85"),
            ("icons: candidate recall", recall, "@8 >= 0.95"),
            ("icons: seconds per query (warm, median)", f"{seconds:.3f}", "<= 0.5")]
    for split in real_icon_set.SPLITS:
        if split in tallies:
            t = tallies[split]
            rows.append((f"icons, {split} split: hit, recall@8",
                         f"{t.hits / t.n:.3f}, {t.at[8] / t.n:.3f} of {t.n} queries", ">= 0.85, >= 0.95"))
    return rows


def grounding(step: int, recorded: dict[str, Any] | None) -> list[Row]:
    """GPT-4V's actions: every ``step``-th label; OCR lines from ``recorded`` when it holds every screen."""
    labels = grounding_real.load_labels(grounding_real.LABELS)[::step]
    if recorded is not None and any(label.screen not in recorded for label in labels):
        recorded = None
    rows = grounding_real.run(labels, grounding_real.SCREENS, RapidOcrEngine(), recorded)
    out = []
    for kind, goal in (("text", ">= 0.95"), ("icon", ">= 0.80")):
        s = grounding_real.summary(rows, kind)
        out.append((f"grounded GPT-4V actions: {kind}",
                    f"{s['accuracy']} ({s['right']}/{s['n']} right, {s['ambiguous']} ambiguous -> asks the "
                    f"model ({s['ambiguous_offered']} with the right box offered), {s['wrong']} wrong, "
                    f"{s['missed']} missed)", goal))
    return out


def ocr_lines(step: int, bare_cache: Path | None, save_ours: Path) -> list[Row]:
    """The line comparison on every ``step``-th screen; droidpilot's lines are written to ``save_ours``."""
    files = sorted(ocr_vs_bare.SCREENS.glob("*/*/*.jpg"))[::step]
    result = ocr_vs_bare.compare(files, ocr_vs_bare.SCREENS, bare_cache, save_ours=save_ours)
    reviewed = ocr_vs_bare.load_reviewed(ocr_vs_bare.REVIEWED)
    unexplained = result.unreviewed(reviewed)
    missed = len(result.we_miss)
    real = sum(r is not None and r.kind in ocr_vs_bare.OPEN_KINDS
               for r in (ocr_vs_bare.review_of(rel, ln, reviewed) for rel, ln, _ in result.we_miss))
    return [("OCR lines: screens, lines bare / droidpilot",
             f"{result.screens}, {result.counts['bare']} / {result.counts['ours']}", ""),
            ("OCR lines bare reads, droidpilot misses",
             f"{missed}: {missed - len(unexplained) - real} reviewed as not text, {real} real text left open "
             f"(rotated), {len(unexplained)} unexplained (+{result.differ['bare']} read with a few "
             "characters otherwise)", "real + unexplained 0"),
            ("OCR lines droidpilot reads, bare misses", str(len(result.they_miss)), "")]


def speed(repeats: int, sizes: tuple[tuple[int, int], ...]) -> list[Row]:
    """Cold ratio per phone size."""
    rows = ocr_speed.measure_sizes(repeats, sizes, progress=False)
    head = ocr_speed.SIZE_HEAD
    at = {name: head.index(name) for name in ("size", "cold ratio", "cpu ratio", "recall bare",
                                              "recall ours")}
    return [(f"cold ocr / bare RapidOCR at {r[at['size']]}",
             f"{r[at['cold ratio']]} (cpu {r[at['cpu ratio']]}; labels read {r[at['recall ours']]}, bare "
             f"{r[at['recall bare']]})", "<= 0.5") for r in rows]


def verifier(mobiflow: Path | None, traces: list[Path], limit: int) -> list[Row]:
    """droidpilot verify over MobiFlow, or a row saying why it was not measured."""
    import verify_vs_mobiflow as vvm

    found = vvm.mobiflow_dir(mobiflow) if mobiflow else None
    if found is None or not traces:
        why = "no MobiFlow checkout given (--mobiflow PATH)" if found is None else "no --traces given"
        return [("verify: MobiFlow time / droidpilot time", f"not measured: {why}", ">= 10x")]
    pairs = vvm.measure(found, traces, [], limit=limit, progress=False)
    return [("verify: MobiFlow time / droidpilot time",
             f"{vvm.speedup(pairs):.1f}x over {len(pairs)} pairs (median wall times)", ">= 10x")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a sample of everything (not the report's figures)")
    ap.add_argument("--bare-cache", type=Path, help="keep bare RapidOCR's lines here between runs")
    ap.add_argument("--repeats", type=int, default=3, help="cold runs per screen and size (speed)")
    ap.add_argument("--mobiflow", type=Path, help="a MobiFlow checkout, for the verifier's speed")
    ap.add_argument("--traces", type=Path, action="append", default=[],
                    help="folders of traces with their rule.yaml, for the verifier's speed (repeatable)")
    args = ap.parse_args(argv)
    if not ocr_vs_bare.SCREENS.is_dir():
        print(f"error: the Mobile-Eval screens are not at {ocr_vs_bare.SCREENS}", file=sys.stderr)
        return 2
    step = 4 if args.quick else 1
    rows: list[Row] = []
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="perception-real-") as tmp:
            saved = Path(tmp) / "ours.json"
            rows += ocr_lines(8 if args.quick else 1, args.bare_cache, saved)
            rows += grounding(step, json.loads(saved.read_text("utf-8")))
        rows += icons(step)
        sizes = ((1080, 2400),) if args.quick else ocr_speed.SIZES
        rows += speed(1 if args.quick else args.repeats, sizes)
        rows += verifier(args.mobiflow, args.traces, 2 if args.quick else 0)
    except (InputError, grounding_real.LabelError, ocr_vs_bare.ReviewError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    width = max(len(r[0]) for r in rows)
    print(f"perception on real screens{' (--quick sample)' if args.quick else ''}, "
          f"{time.perf_counter() - started:.0f} s")
    print(f"{'measure':<{width}}  {'goal':<14}  figure")
    for what, figure, goal in rows:
        print(f"{what:<{width}}  {goal:<14}  {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
