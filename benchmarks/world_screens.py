"""SimPhone's screens next to real phone screens: OCR lines per screen and distinct layouts.

Real screens: Mobile-Agent's Mobile-Eval runs on a real phone (``../shared/reference/mobile-eval-real``,
256 JPEGs, 540x1170). SimPhone screens: the screenshots of world-suite reference runs (the ``traces`` of
``droidpilot bench --suite world --brain reference --seed 0 --out DIR``, 1080x2400). Byte-identical files
are counted once; ``--sample`` screens are drawn from each side with ``random.Random(seed)`` from the sorted
paths. Each screen is read by the project's OCR (RapidOCR through the persistent cache) at its own size;
its layout signature and the clustering into distinct layouts are defined in
``droidpilot.bench.screens.layout`` (12 x 3 cells of text or picture, Jaccard >= 0.6 is one layout).

    .venv/bin/python benchmarks/world_screens.py --sim-runs RUN_DIR [--sample 60] [--seed 0] [--json OUT]
        [--templates 'mail-*,hard-mail-*']   (one app's screens: before and after a change to it)
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from droidpilot.bench.screens.layout import ROWS, SAME_LAYOUT, Signature, clusters, percentile, signature
from droidpilot.perception.cache import cached
from droidpilot.perception.ocr import make_ocr_engine

REAL = Path(__file__).resolve().parents[2] / "shared" / "reference" / "mobile-eval-real"


def screens(folder: Path, globs: tuple[str, ...] = ()) -> list[Path]:
    """The JPEG/PNG screenshots under ``folder``, sorted, byte-identical copies once; with ``globs``, only
    those whose first folder under ``folder`` (a trace: TEMPLATE-SEED-N) matches one."""
    def kept(path: Path) -> bool:
        if path.suffix.lower() not in (".jpg", ".jpeg", ".png"):
            return False
        top = path.relative_to(folder).parts[0]
        return not globs or any(fnmatch.fnmatch(top, g if g.endswith("*") else g + "-*") for g in globs)

    seen: set[str] = set()
    out = []
    for path in sorted(p for p in folder.rglob("*") if kept(p)):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest not in seen:
            seen.add(digest)
            out.append(path)
    return out


def measure(paths: list[Path], engine: Any, label: str) -> list[Signature]:
    """OCR and sign each screen (progress on stderr: OCR is slow on a loaded machine)."""
    out = []
    for i, path in enumerate(paths, 1):
        lines = engine.recognize(path)
        gray = np.asarray(Image.open(path).convert("L"))
        out.append(signature(lines, gray))
        print(f"\r{label}: {i}/{len(paths)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def summary(sigs: list[Signature]) -> dict[str, Any]:
    """The figures of one side: density, and layout variety."""
    lines = [s.lines for s in sigs]
    groups = clusters(sigs)
    return {
        "screens": len(sigs),
        "ocr_lines_median": statistics.median(lines),
        "ocr_lines_p10": round(percentile(lines, 10), 1),
        "ocr_lines_p90": round(percentile(lines, 90), 1),
        "text_rows_median": statistics.median(s.text_rows for s in sigs),
        "image_cells_median": statistics.median(sum(k == "image" for k, _, _ in s.cells) for s in sigs),
        "distinct_layouts": len(groups),
        "largest_layout_share": round(max(len(g) for g in groups) / len(sigs), 3),
        "singleton_layouts": sum(len(g) == 1 for g in groups),
    }


ROWS_SHOWN = [
    ("screens", "screens"),
    ("OCR lines per screen, median", "ocr_lines_median"),
    ("OCR lines, p10", "ocr_lines_p10"),
    ("OCR lines, p90", "ocr_lines_p90"),
    (f"bands holding text (of {ROWS}), median", "text_rows_median"),
    ("picture cells per screen, median", "image_cells_median"),
    (f"distinct layouts (Jaccard >= {SAME_LAYOUT})", "distinct_layouts"),
    ("share of the largest layout", "largest_layout_share"),
    ("layouts seen once", "singleton_layouts"),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim-runs", type=Path, nargs="+", required=True,
                    help="output folders of world-suite reference runs (their traces/*/N.jpg)")
    ap.add_argument("--real", type=Path, default=REAL, help="real-phone screenshots (default: %(default)s)")
    ap.add_argument("--sample", type=int, default=60, help="screens drawn from each side")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--templates", default="*",
                    help="only SimPhone traces (TEMPLATE-SEED-N) matching one of these comma-separated globs")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    sides: dict[str, list[Path]] = {"real": screens(args.real), "SimPhone": []}
    for run in args.sim_runs:
        if not (run / "traces").is_dir():
            ap.error(f"{run}: no traces/ folder; give the --out folder of a `droidpilot bench` run")
        globs = tuple(g.strip() for g in args.templates.split(",") if g.strip() and g.strip() != "*")
        sides["SimPhone"].extend(screens(run / "traces", globs))
    if not sides["real"]:
        ap.error(f"{args.real}: no screenshots found")
    engine = cached(make_ocr_engine("rapidocr"))
    figures: dict[str, Any] = {"seed": args.seed, "pool": {k: len(v) for k, v in sides.items()}}
    for name, pool in sides.items():
        chosen = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
        figures[name] = summary(measure(chosen, engine, name))
    print(f"{'':44} {'real':>10} {'SimPhone':>10}")
    for label, key in ROWS_SHOWN:
        print(f"{label:44} {figures['real'][key]:>10} {figures['SimPhone'][key]:>10}")
    print(f"(drawn from {figures['pool']['real']} real and {figures['pool']['SimPhone']} SimPhone screens, "
          f"seed {args.seed})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
