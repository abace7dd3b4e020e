"""Lines bare RapidOCR reads that droidpilot's OCR misses, and the reverse, on the real Mobile-Eval screens.

Run: .venv/bin/python benchmarks/ocr_vs_bare.py [--screens DIR] [--bare-cache FILE] [--limit N] [--show N]
     [--glob 'APP/*/*.jpg'] [--ours-lines FILE] [--save-ours FILE [--resume]] [--reviewed FILE]

A long run can be split (``--glob`` per app) or interrupted: with ``--bare-cache`` and ``--save-ours`` both
readers' lines are written every few screens, and ``--resume`` reads only the screens not saved yet (the
saved lines must come from the same droidpilot version).

Bare: the ``rapidocr`` package's own engine with its default settings (``RapidOCR()``, errors-only log).
Ours: droidpilot's default engine (``RapidOcrEngine()``, the agent's and the verifier's OCR). A line of one
reader counts as read by the other when the other's lines whose boxes overlap it, joined in reading order,
contain its text after droidpilot's normalisation (``match_key``: case, width, spaces, OCR confusions), so
a line one reader splits in two and the other reads whole is not a miss. A line of five characters or
more that the other reader has where it is, with a few characters read otherwise (rapidfuzz partial
ratio >= 80: text in photos and logos both readers guess at), is counted apart as "read differently";
"missed" is the rest (shorter lines must match exactly: "000" is not "0.00").
Single characters are left out.
Each line bare reads and droidpilot misses is looked up in the reviewed list (``--reviewed``, by default
benchmarks/data/ocr_bare_only.yaml: screen, box, text and why it is not text, e.g. an icon read as a
letter); the run prints every miss with its reason, and "unreviewed" for any the list does not explain,
which is a real miss to fix (or to review). Screens: Mobile-Agent v1's Mobile-Eval runs (X-PLUG/MobileAgent
results/, MIT licence, copyright mPLUG), ../shared/reference/mobile-eval-real.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from PIL import Image
from rapidfuzz import fuzz

from droidpilot.perception.normalize import match_key
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.types import OcrLine

SCREENS = Path(__file__).resolve().parents[2] / "shared" / "reference" / "mobile-eval-real"
REVIEWED = Path(__file__).resolve().parent / "data" / "ocr_bare_only.yaml"


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


def read_there(line: OcrLine, other: list[OcrLine]) -> str:
    """What ``other`` reads where ``line`` is: its overlapping lines in reading order, joined."""
    near = sorted((o for o in other if _overlap(line.box, o.box) >= 0.3), key=lambda o: (o.box[1], o.box[0]))
    return " ".join(o.text for o in near)


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


class ReviewError(ValueError):
    """A reviewed-list entry that cannot be used; the message names the file, the entry and the fix."""


@dataclass(frozen=True)
class Reviewed:
    """A line bare RapidOCR reads and droidpilot does not, looked at on the screen: why it is not text."""

    screen: str
    box: tuple[int, int, int, int]
    text: str
    kind: str  # one of KINDS
    why: str


KINDS = {
    "icon": "an icon or glyph read as characters",
    "misread": "real text bare reads wrongly and droidpilot reads right (shown as 'droidpilot there')",
    "photo": "text-like shapes in a photo, product image or illustration",
    "logo": "a logo or stylised lettering that is a picture, not a label",
    "cut": "text cut off by the screen's edge or covered, whose visible part droidpilot reads otherwise",
    "noise": "texture, lines or dots read as characters",
    # Real text droidpilot does not read, kept apart (not "not text"): a known gap, counted as open.
    "rotated": "real text drawn at an angle or vertically (map street names) droidpilot still misreads",
}
OPEN_KINDS = frozenset({"rotated"})


def load_reviewed(path: Path) -> list[Reviewed]:
    """The reviewed misses of ``path`` (an empty list if it does not exist); ReviewError for bad entries."""
    if not path.is_file():
        return []
    try:
        data = yaml.safe_load(path.read_text("utf-8")) or []
    except yaml.YAMLError as exc:
        raise ReviewError(f"{path}: not valid YAML ({exc})") from None
    if not isinstance(data, list):
        raise ReviewError(f"{path}: expected a list of reviewed lines at the top level")
    out = []
    for i, entry in enumerate(data, 1):
        where = f"{path}, entry {i}"
        if not isinstance(entry, dict) or any(k not in entry for k in ("screen", "box", "text", "kind",
                                                                        "why")):
            raise ReviewError(f"{where}: each entry needs screen, box, text, kind and why")
        box = entry["box"]
        if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, int) for v in box)):
            raise ReviewError(f"{where}: box is four whole numbers [x1, y1, x2, y2]; got {box!r}")
        if entry["kind"] not in KINDS:
            raise ReviewError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
        if not str(entry["why"]).strip():
            raise ReviewError(f"{where}: say why the line is not text (why: ...)")
        out.append(Reviewed(str(entry["screen"]), (box[0], box[1], box[2], box[3]), str(entry["text"]),
                            entry["kind"], str(entry["why"])))
    return out


def review_of(rel: str, line: OcrLine, reviewed: list[Reviewed]) -> Reviewed | None:
    """The reviewed entry for this miss: same screen and text, boxes overlapping by half."""
    for r in reviewed:
        if r.screen == rel and r.text == line.text and _overlap(r.box, line.box) >= 0.5:
            return r
    return None


def _lines(data: list[dict[str, Any]]) -> list[OcrLine]:
    return [OcrLine(d["text"], tuple(d["box"]), d["score"]) for d in data]


@dataclass
class Comparison:
    """Both readers' lines over a set of screens and what each misses of the other's."""

    screens: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {"bare": 0, "ours": 0})
    differ: dict[str, int] = field(default_factory=lambda: {"bare": 0, "ours": 0})
    we_miss: list[tuple[str, OcrLine, str]] = field(default_factory=list)  # with what droidpilot reads there
    they_miss: list[tuple[str, OcrLine]] = field(default_factory=list)
    ours_s: float = 0.0
    read_now: int = 0

    def add(self, rel: str, bare_lines: list[OcrLine], our_lines: list[OcrLine]) -> None:
        self.screens += 1
        self.counts["bare"] += len(bare_lines)
        self.counts["ours"] += len(our_lines)
        missed, otherwise = missing(bare_lines, our_lines)
        self.we_miss += [(rel, ln, read_there(ln, our_lines)) for ln in missed]
        self.differ["bare"] += len(otherwise)
        missed, otherwise = missing(our_lines, bare_lines)
        self.they_miss += [(rel, ln) for ln in missed]
        self.differ["ours"] += len(otherwise)

    def unreviewed(self, reviewed: list[Reviewed]) -> list[tuple[str, OcrLine, str]]:
        return [miss for miss in self.we_miss if review_of(miss[0], miss[1], reviewed) is None]


def _save(path: Path | None, data: dict[str, Any]) -> None:
    if path:
        tmp = path.with_name(path.name + ".tmp")  # written whole, then renamed: an interrupt loses nothing
        tmp.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        tmp.replace(path)


def compare(files: list[Path], screens: Path, bare_cache: Path | None = None,
            recorded: dict[str, Any] | None = None, save_ours: Path | None = None,
            resume: bool = False) -> Comparison:
    """Read ``files`` with both readers (bare's lines from ``bare_cache`` where it has them, ours from
    ``recorded`` if given) and compare them. Both files are rewritten every 8 screens and at the end."""
    cache: dict[str, Any] = json.loads(bare_cache.read_text("utf-8")) if bare_cache and bare_cache.is_file() \
        else {}
    saved: dict[str, Any] = {}
    if resume and save_ours and save_ours.is_file():
        saved = json.loads(save_ours.read_text("utf-8"))
    bare, ours = None, RapidOcrEngine()
    result = Comparison()
    for path in files:
        rel = str(path.relative_to(screens))
        if rel not in cache:
            bare = bare or bare_engine()
            cache[rel] = [ln.to_dict() for ln in read_bare(bare, Image.open(path).convert("RGB"))]
        if recorded is not None:
            if rel not in recorded:
                raise ReviewError(f"the recorded lines have no screen {rel}; record them with --save-ours")
            saved[rel] = recorded[rel]
        elif rel not in saved:
            start = time.perf_counter()
            saved[rel] = [ln.to_dict() for ln in ours.recognize(path)]
            result.ours_s += time.perf_counter() - start
            result.read_now += 1
        result.add(rel, _lines(cache[rel]), _lines(saved[rel]))
        if result.screens % 8 == 0:  # a long run keeps what it has read
            _save(bare_cache, cache)
            _save(save_ours, saved)
    _save(bare_cache, cache)
    _save(save_ours, saved)
    return result


def report(result: Comparison, reviewed: list[Reviewed], show: int, how: str) -> list[str]:
    """The printed comparison: counts, every miss of ours with its review, and bare's misses."""
    out = [f"{result.screens} screens: bare RapidOCR read {result.counts['bare']} lines, droidpilot "
           f"{result.counts['ours']} ({how})"]
    open_misses = result.unreviewed(reviewed)
    by_kind: dict[str, int] = {}
    open_real = 0
    for rel, ln, _ in result.we_miss:
        r = review_of(rel, ln, reviewed)
        if r is not None and r.kind in OPEN_KINDS:
            open_real += 1
        elif r is not None:
            by_kind[r.kind] = by_kind.get(r.kind, 0) + 1
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(by_kind.items(), key=lambda kv: -kv[1]))
    out.append(f"lines bare reads that droidpilot misses: {len(result.we_miss)} (and {result.differ['bare']} "
               f"droidpilot reads there with a few characters otherwise); reviewed as not text "
               f"{len(result.we_miss) - len(open_misses) - open_real} ({kinds or 'none'}); real text not "
               f"read, open (rotated) {open_real}; unreviewed {len(open_misses)}")
    for rel, ln, there in result.we_miss[:show]:
        r = review_of(rel, ln, reviewed)
        why = f"{r.kind}: {r.why}" if r else "UNREVIEWED (a real miss, or review it in the list)"
        out.append(f"  {rel} {list(ln.box)} {ln.text!r} (droidpilot there: {there!r}) -- {why}")
    out.append(f"lines droidpilot reads that bare misses: {len(result.they_miss)} "
               f"(and {result.differ['ours']} bare reads there with a few characters otherwise)")
    out += [f"  {rel} {list(ln.box)} {ln.text!r}" for rel, ln in result.they_miss[:show]]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screens", type=Path, default=SCREENS)
    ap.add_argument("--bare-cache", type=Path, help="JSON file keeping bare RapidOCR's lines between runs")
    ap.add_argument("--limit", type=int, default=0, help="only the first N screens")
    ap.add_argument("--glob", default="*/*/*.jpg", help="which screens, e.g. 'Settings/*/*.jpg'")
    ap.add_argument("--show", type=int, default=40, help="list at most this many lines of each kind")
    ap.add_argument("--ours-lines", type=Path, help="droidpilot's lines recorded earlier (--save-ours) "
                    "instead of reading the screens now, to compare another version's")
    ap.add_argument("--save-ours", type=Path, help="write droidpilot's lines here (every 8 screens)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the lines --save-ours holds (same droidpilot version), read the rest")
    ap.add_argument("--reviewed", type=Path, default=REVIEWED,
                    help="the reviewed list of bare-only lines that are not text")
    args = ap.parse_args(argv)
    files = sorted(args.screens.glob(args.glob))
    if not files:
        print(f"error: no screens ({args.glob}) under {args.screens}; pass --screens or --glob",
              file=sys.stderr)
        return 2
    files = files[:args.limit] if args.limit > 0 else files
    try:
        reviewed = load_reviewed(args.reviewed)
        recorded = json.loads(args.ours_lines.read_text("utf-8")) if args.ours_lines else None
        result = compare(files, args.screens, args.bare_cache, recorded, args.save_ours, args.resume)
    except (ReviewError, OSError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    how = f"recorded in {args.ours_lines}" if recorded is not None else \
        f"{result.ours_s / max(1, result.read_now):.2f} s per screen read now ({result.read_now}), warm"
    print("\n".join(report(result, reviewed, args.show, how)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
