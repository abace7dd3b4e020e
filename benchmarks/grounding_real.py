"""Ground GPT-4V's own click actions from real Mobile-Eval runs with droidpilot, scored against hand labels.

Run: .venv/bin/python benchmarks/grounding_real.py [--labels FILE] [--screens DIR] [--cache-dir DIR] [--json]
     [--ocr-lines FILE]  (OCR lines recorded by benchmarks/ocr_vs_bare.py --save-ours, instead of reading)
     [--kind text|icon] [--step GLOB] [--rows]  (a part of the set; every step's outcome, not only misses)

Each labelled step (benchmarks/data/grounded_actions.yaml) is parsed with the agent's own action parser
and grounded by the agent's own Grounder on the real screenshot, OCR by droidpilot's default engine, as
the loop does. Outcomes, text and icon apart:
  right      found, and the tap point lies in a labelled box; or "not found" where the label says the named
             thing is not on the screen (the model is told so and chooses again)
  ambiguous  2-4 candidates: the agent asks the model to choose (counted apart; "offered" says whether a
             labelled box was among them)
  wrong      a tap somewhere else (or a tap where the named thing is not on the screen)
  missed     not found / too many where the thing is on the screen
Accuracy is right / all; "decided" is right / (all - ambiguous). The grounder gets the step's own
thought and observation (APP/RUN/data.json), as the agent has them when it grounds, so a text shown in a
few places can be settled by what the model names beside it (``--no-context`` leaves them out).
Screens: Mobile-Agent v1's Mobile-Eval runs (X-PLUG/MobileAgent results/, MIT licence, copyright mPLUG),
see ../shared/reference/mobile-eval-real.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from PIL import Image

from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.grounding import Grounder, Grounding
from droidpilot.agent.screen import ScreenView
from droidpilot.perception.cache import CachedOcr, OcrCache
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.types import OcrLine

HERE = Path(__file__).resolve().parent
LABELS = HERE / "data" / "grounded_actions.yaml"
SCREENS = HERE.parents[1] / "shared" / "reference" / "mobile-eval-real"
KINDS = {"click_text": "text", "click_icon": "icon"}


class LabelError(ValueError):
    """A label file entry that cannot be used; the message names the file, the entry and the fix."""


@dataclass(frozen=True)
class Label:
    """One labelled step: the action as written, its screen, and the boxes where a tap is right."""

    step: str
    action: str
    screen: str
    targets: tuple[tuple[int, int, int, int], ...] | None  # None: the named thing is not on the screen


def _box(value: Any, where: str) -> tuple[int, int, int, int]:
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise LabelError(f"{where}: a box is four whole numbers [x1, y1, x2, y2]; got {value!r}")
    x1, y1, x2, y2 = value
    if not (0 <= x1 < x2 and 0 <= y1 < y2):
        raise LabelError(f"{where}: box {value} is empty or reversed; write [left, top, right, bottom]")
    return (x1, y1, x2, y2)


def load_labels(path: Path) -> list[Label]:
    """The labels of ``path``; LabelError naming the entry for anything malformed."""
    try:
        data = yaml.safe_load(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise LabelError(f"{path}: cannot be read as YAML ({exc})") from None
    if not isinstance(data, list):
        raise LabelError(f"{path}: expected a list of labelled steps at the top level")
    out = []
    for i, entry in enumerate(data, 1):
        where = f"{path}, entry {i}"
        if not isinstance(entry, dict):
            raise LabelError(f"{where}: expected a mapping with step, action, screen, target")
        where = f"{path}, entry {i} ({entry.get('step', '?')})"
        missing = [k for k in ("step", "action", "screen", "target") if k not in entry]
        if missing:
            raise LabelError(f"{where}: missing {', '.join(missing)}")
        target = entry["target"]
        if target is not None and (not isinstance(target, list) or not target):
            raise LabelError(f"{where}: target is a list of boxes, or null when the named thing is not shown")
        boxes = None if target is None else tuple(_box(b, where) for b in target)
        out.append(Label(str(entry["step"]), str(entry["action"]), str(entry["screen"]), boxes))
    return out


def _action_name(label: Label) -> str | None:
    """The action's name ("click_icon"), or None when it does not parse (run() reports that)."""
    try:
        return parse_action(label.action).name
    except ActionParseError:
        return None


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def judge(label: Label, g: Grounding) -> tuple[str, bool]:
    """(outcome, whether a right box was among the candidates) of grounding ``g`` against ``label``."""
    offered = label.targets is not None and any(
        _inside(tuple(c.point), b) for c in g.candidates for b in label.targets)  # type: ignore[arg-type]
    if g.status == "ambiguous":
        return "ambiguous", offered
    if label.targets is None:
        return ("right" if g.status in ("not_found", "too_many") else "wrong"), False
    if g.status == "found" and g.point is not None:
        return ("right" if any(_inside(g.point, b) for b in label.targets) else "wrong"), offered
    return "missed", offered


def step_context(screens: Path, label: Label) -> str:
    """The model's own thought and observation at ``label``'s step (from its run's data.json), or ""."""
    run_dir, _, number = label.step.rpartition("#")
    path = screens / run_dir / "data.json"
    try:
        step = json.loads(path.read_text("utf-8")).get(number) or {}
    except (OSError, ValueError, AttributeError) as exc:
        raise LabelError(f"{label.step}: {path} cannot be read as the run's steps ({exc})") from None
    return f"{step.get('Thought', '')}\n{step.get('Observation', '')}".strip()


def run(labels: list[Label], screens: Path, engine: Any,
        recorded: dict[str, Any] | None = None, context: bool = True) -> list[dict[str, Any]]:
    grounder = Grounder()
    rows = []
    for label in labels:
        path = screens / label.screen
        try:
            image = Image.open(path).convert("RGB")
        except OSError as exc:
            raise LabelError(f"{label.step}: screen {path} cannot be read ({exc})") from None
        try:
            action = parse_action(label.action)
        except ActionParseError as exc:
            raise LabelError(f"{label.step}: action {label.action!r} does not parse: {exc}") from None
        kind = KINDS.get(action.name)
        if kind is None:
            raise LabelError(f"{label.step}: {label.action!r} is not a click text / click icon action")
        lines = None
        if recorded is not None:
            if label.screen not in recorded:
                raise LabelError(f"{label.step}: the recorded OCR lines have no screen {label.screen}")
            lines = [OcrLine(d["text"], tuple(d["box"]), d["score"]) for d in recorded[label.screen]]
        view = ScreenView(image, engine, lines=lines)
        words = step_context(screens, label) if context else ""
        g = grounder.ground(action, view, CoordFrame("device", image.size), context=words)
        outcome, offered = judge(label, g)
        rows.append({"step": label.step, "kind": kind, "action": label.action, "status": g.status,
                     "point": list(g.point) if g.point else None, "outcome": outcome, "offered": offered,
                     "absent": label.targets is None, "seconds": round(view.perception_s, 3),
                     "candidates": [list(c.point) for c in g.candidates][:5], "note": g.choice_note})
    return rows


def summary(rows: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    mine = [r for r in rows if r["kind"] == kind]
    count = {k: sum(r["outcome"] == k for r in mine) for k in ("right", "ambiguous", "wrong", "missed")}
    n = len(mine)
    decided = n - count["ambiguous"]
    offered = sum(r["outcome"] == "ambiguous" and r["offered"] for r in mine)
    return {"n": n, **count, "ambiguous_offered": offered,
            "absent": sum(r["absent"] for r in mine),
            "accuracy": round(count["right"] / n, 3) if n else None,
            "decided_accuracy": round(count["right"] / decided, 3) if decided else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--screens", type=Path, default=SCREENS)
    ap.add_argument("--cache-dir", type=Path, help="keep OCR results here between runs (keyed by settings)")
    ap.add_argument("--json", action="store_true", help="print every row and the summary as JSON")
    ap.add_argument("--ocr-lines", type=Path,
                    help="OCR lines recorded earlier ({screen: [{text, box, score}]})")
    ap.add_argument("--no-context", action="store_true",
                    help="ground without the step's thought and observation")
    ap.add_argument("--kind", choices=sorted(set(KINDS.values())), help="only the text or the icon steps")
    ap.add_argument("--step", default="*", help="only steps matching this glob ('TikTok/*')")
    ap.add_argument("--rows", action="store_true", help="list every step's outcome, not only those not right")
    args = ap.parse_args(argv)
    if not args.screens.is_dir():
        print(f"error: the Mobile-Eval screens are not at {args.screens}; pass --screens", file=sys.stderr)
        return 2
    try:
        labels = [lb for lb in load_labels(args.labels) if fnmatch.fnmatchcase(lb.step, args.step)
                  and (args.kind is None or KINDS.get(_action_name(lb)) == args.kind)]
        engine: Any = RapidOcrEngine()
        if args.cache_dir:
            engine = CachedOcr(engine, OcrCache(args.cache_dir))
        recorded = json.loads(args.ocr_lines.read_text("utf-8")) if args.ocr_lines else None
        rows = run(labels, args.screens, engine, recorded, context=not args.no_context)
    except LabelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sums = {kind: summary(rows, kind) for kind in ("text", "icon") if args.kind in (None, kind)}
    if args.json:
        print(json.dumps({"rows": rows, "summary": sums}, indent=1, ensure_ascii=False))
        return 0
    for kind, s in sums.items():
        print(f"{kind}: {s['n']} steps ({s['absent']} naming something not on screen): accuracy "
              f"{s['accuracy']} (right {s['right']}), ambiguous -> asks the model {s['ambiguous']} "
              f"(right one offered {s['ambiguous_offered']}), wrong tap {s['wrong']}, missed {s['missed']}; "
              f"accuracy where it decided {s['decided_accuracy']}")
    for r in rows:
        if args.rows or r["outcome"] != "right":
            offered = " (right one offered)" if r["outcome"] == "ambiguous" and r["offered"] else ""
            print(f"  {r['outcome']:9s} {r['kind']:4s} {r['step']}: {r['action']} -> {r['status']}{offered} "
                  f"{r['point'] or ''} {'candidates ' + str(r['candidates']) if r['candidates'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
