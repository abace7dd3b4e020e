"""Dump, per icon query of the training halves or the tune/report splits, what the outcome step saw: the
status locate_icon answered and the evidence on the first candidates (score, colour/shape/place fits, the
classifier's probabilities), each marked right or wrong. icon_decide_fit.py fits the tap-or-ask rule on it.

Run: .venv/bin/python benchmarks/icon_decide_data.py --set train_a|train_b|tune|report --out FILE.jsonl
Select the classifier with DROIDPILOT_ICON_CLASSIFIER (cross-fitted weights for the halves: w-b for
train_a, w-a for train_b). The holdout is refused: it is measured only, never looked into.

The steps are locate_icon's own (rank.py), kept apart so the scored candidates can be written out; the
status written is the one decide() answers on them before the settle rule (settle=False): the answers
the rule is fitted to settle.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from droidpilot.errors import InputError
from droidpilot.perception.icons.candidates import find_regions
from droidpilot.perception.icons.imageio import read_image, to_bgr
from droidpilot.perception.icons.outcome import decide
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.icons.rank import in_status_bar, score_regions
from droidpilot.perception.icons.scene import only_names, read_scene
from droidpilot.perception.icons.scored import ScoredIcon, suppress

sys.path.insert(0, str(Path(__file__).resolve().parent))
from icon_real import _ocr
from icon_train_screens import half_labels
from real_icon_set import IconLabel, load_labels, screens_root

KEEP = 8  # candidates written per query (the ones a model could be shown, and a few more)


def _cand(s: ScoredIcon, label: IconLabel) -> dict[str, object]:
    v = s.verdict
    return {"box": list(s.region.box), "point": list(s.point), "score": s.score, "colour": s.colour,
            "shape": s.shape, "position": s.position, "glyph": s.glyph, "reading": s.reading,
            "source": s.region.source, "p": v.asked if v else None, "p_other": v.other if v else None,
            "matches": s.matches, "right": label.contains(s.point)}


def query_record(image, label: IconLabel, lines) -> dict[str, object]:
    """What the outcome step saw for one query, and what it answered."""
    query = parse_icon_query(label.query, None, names_ok=True)
    bgr = to_bgr(image)
    query, scene = read_scene(bgr, query, lines or ())
    rec: dict[str, object] = {"screen": label.screen, "app": label.app, "query": label.query,
                              "colour": query.colour, "glyphs": list(query.glyphs), "shape": query.shape,
                              "place": query.position.given, "anchor": query.anchor,
                              "texts": list(query.texts), "unknown": list(query.unknown)}
    if only_names(query) and not scene.labels:
        return {**rec, "status": "not_found", "answer": [], "kept": []}
    regions = [r for r in find_regions(bgr, lines)
               if query.status_bar or not in_status_bar(r.box, bgr.shape[0])]
    scored = score_regions(bgr, regions, query, None, lines or (), scene)
    result = decide(bgr, query, scene, scored, lines or (), settle=False)
    kept = suppress(scored)[:KEEP]
    answer = [[*c.box] for c in result.candidates]
    return {**rec, "status": result.status, "answer": answer,
            "answer_right": [label.contains(c.point) for c in result.candidates],
            "kept": [_cand(s, label) for s in kept]}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", required=True, choices=["train_a", "train_b", "tune", "report"])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--ocr", default="rapidocr")
    args = ap.parse_args(argv)
    cv2.setNumThreads(2)
    try:
        if args.set.startswith("train_"):
            root, labels = half_labels(args.set[-1])
        else:
            written, all_labels = load_labels()
            root = screens_root(written, None)
            labels = [lb for lb in all_labels if lb.split == args.set]
        engine = _ocr(args.ocr)
        by_screen: dict[str, list[IconLabel]] = {}
        for lb in labels:
            by_screen.setdefault(lb.screen, []).append(lb)
        with args.out.open("w", encoding="utf-8") as out:
            for screen, group in by_screen.items():
                image = read_image(root / screen)[:, :, ::-1].copy()
                lines = list(engine.recognize(image)) if engine is not None else None
                for lb in group:
                    try:
                        rec = query_record(image, lb, lines)
                    except InputError as exc:
                        rec = {"screen": screen, "app": lb.app, "query": lb.query, "status": "refused",
                               "error": str(exc), "kept": [], "answer": []}
                    out.write(json.dumps({"set": args.set, **rec}) + "\n")
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
