"""Lines bare RapidOCR reads that droidpilot's OCR misses, and the reverse, on the real Mobile-Eval screens.

Run: .venv/bin/python benchmarks/ocr_vs_bare.py [--screens DIR] [--bare-cache FILE] [--limit N] [--show N]
     [--ours-lines FILE] [--save-ours FILE]

Bare: the ``rapidocr`` package's own engine with its default settings (``RapidOCR()``, errors-only log).
Ours: droidpilot's default engine (``RapidOcrEngine()``, the agent's and the verifier's OCR). A line of one
reader counts as read by the other when the other's lines whose boxes overlap it, joined in reading order,
contain its text after droidpilot's normalisation (``match_key``: case, width, spaces, OCR confusions), so
a line one reader splits in two and the other reads whole is not a miss. A line of five characters or
more that the other reader has where it is, with a few characters read otherwise (rapidfuzz partial
ratio >= 80: text in photos and logos both readers guess at), is counted apart as "read differently";
"missed" is the rest (shorter lines must match exactly: "000" is not "0.00").
Single characters are left out. Screens: Mobile-Agent v1's Mobile-Eval runs (X-PLUG/MobileAgent
results/, MIT licence, copyright mPLUG), ../shared/reference/mobile-eval-real.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from rapidfuzz import fuzz

from droidpilot.perception.normalize import match_key
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.types import OcrLine

SCREENS = Path(__file__).resolve().parents[2] / "shared" / "reference" / "mobile-eval-real"


def bare_engine() -> Any:
    from rapidocr import RapidOCR

    return RapidOCR(params={"Global.log_level": "error"})


def read_bare(engine: Any, image: Image.Image) -> list[OcrLine]:
    out = engine(np.ascontiguousarray(np.asarray(image)[:, :, ::-1]))
    if getattr(out, "boxes", None) is None or out.txts is None:
        return []
    lines = []
    for quad, text, score in zip(out.boxes, out.txts, out.scores, strict=False):
        pts = np.asarray(quad, dtype=float)
        box = (int(pts[:, 0].min()), int(pts[:, 1].min()), int(pts[:, 0].max()), int(pts[:, 1].max()))
        lines.append(OcrLine(str(text).strip(), box, float(score)))
    return lines


def _overlap(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """Intersection over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))


def missing(lines: list[OcrLine], other: list[OcrLine]) -> tuple[list[OcrLine], list[OcrLine]]:
    """(missed, read differently): the lines of ``lines`` (two characters or more) whose text ``other``
    does not read where they are, and those it reads there with a few characters otherwise."""
    missed, differently = [], []
    for line in lines:
        key = match_key(line.text)
        if len(key) < 2:
            continue
        near = sorted((o for o in other if _overlap(line.box, o.box) >= 0.3),
                      key=lambda o: (o.box[1], o.box[0]))
        joined = "".join(match_key(o.text) for o in near)
        if key in joined:
            continue
        close = len(key) >= 5 and bool(joined) and fuzz.partial_ratio(key, joined) >= 80  # short: exact only
        (differently if close else missed).append(line)
    return missed, differently


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screens", type=Path, default=SCREENS)
    ap.add_argument("--bare-cache", type=Path, help="JSON file keeping bare RapidOCR's lines between runs")
    ap.add_argument("--limit", type=int, default=0, help="only the first N screens")
    ap.add_argument("--glob", default="*/*/*.jpg", help="which screens, e.g. 'Settings/*/*.jpg'")
    ap.add_argument("--show", type=int, default=40, help="list at most this many lines of each kind")
    ap.add_argument("--ours-lines", type=Path, help="droidpilot's lines recorded earlier (--save-ours) "
                    "instead of reading the screens now, to compare another version's")
    ap.add_argument("--save-ours", type=Path, help="write droidpilot's lines here")
    args = ap.parse_args(argv)
    files = sorted(args.screens.glob(args.glob))
    if not files:
        print(f"error: no screens ({args.glob}) under {args.screens}; pass --screens or --glob",
              file=sys.stderr)
        return 2
    files = files[:args.limit] if args.limit > 0 else files
    cache: dict[str, Any] = {}
    if args.bare_cache and args.bare_cache.is_file():
        cache = json.loads(args.bare_cache.read_text("utf-8"))
    recorded: dict[str, Any] | None = None
    if args.ours_lines:
        recorded = json.loads(args.ours_lines.read_text("utf-8"))
    saved: dict[str, Any] = {}
    bare, ours = None, RapidOcrEngine()
    we_miss: list[tuple[str, OcrLine]] = []
    they_miss: list[tuple[str, OcrLine]] = []
    differ = {"bare": 0, "ours": 0}
    counts = {"bare": 0, "ours": 0}
    ours_s = 0.0
    for number, path in enumerate(files, 1):
        rel = str(path.relative_to(args.screens))
        if rel not in cache:
            bare = bare or bare_engine()
            cache[rel] = [ln.to_dict() for ln in read_bare(bare, Image.open(path).convert("RGB"))]
            if args.bare_cache and number % 16 == 0:  # a long run keeps what it has read
                args.bare_cache.write_text(json.dumps(cache, ensure_ascii=False), "utf-8")
        bare_lines = [OcrLine(d["text"], tuple(d["box"]), d["score"]) for d in cache[rel]]
        if recorded is not None:
            if rel not in recorded:
                print(f"error: {args.ours_lines} has no lines for {rel}", file=sys.stderr)
                return 2
            our_lines = [OcrLine(d["text"], tuple(d["box"]), d["score"]) for d in recorded[rel]]
        else:
            start = time.perf_counter()
            our_lines = ours.recognize(path)
            ours_s += time.perf_counter() - start
        saved[rel] = [ln.to_dict() for ln in our_lines]
        counts["bare"] += len(bare_lines)
        counts["ours"] += len(our_lines)
        missed, otherwise = missing(bare_lines, our_lines)
        we_miss += [(rel, ln) for ln in missed]
        differ["bare"] += len(otherwise)
        missed, otherwise = missing(our_lines, bare_lines)
        they_miss += [(rel, ln) for ln in missed]
        differ["ours"] += len(otherwise)
    if args.bare_cache:
        args.bare_cache.write_text(json.dumps(cache, ensure_ascii=False), "utf-8")
    if args.save_ours:
        args.save_ours.write_text(json.dumps(saved, ensure_ascii=False), "utf-8")
    how = f"recorded in {args.ours_lines}" if recorded is not None else \
        f"{ours_s / len(files):.2f} s per screen, warm, this process"
    print(f"{len(files)} screens: bare RapidOCR read {counts['bare']} lines, droidpilot {counts['ours']} "
          f"({how})")
    print(f"lines bare reads that droidpilot misses: {len(we_miss)} "
          f"(and {differ['bare']} droidpilot reads there with a few characters otherwise)")
    for rel, ln in we_miss[:args.show]:
        print(f"  {rel} {list(ln.box)} {ln.text!r}")
    print(f"lines droidpilot reads that bare misses: {len(they_miss)} "
          f"(and {differ['ours']} bare reads there with a few characters otherwise)")
    for rel, ln in they_miss[:args.show]:
        print(f"  {rel} {list(ln.box)} {ln.text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
