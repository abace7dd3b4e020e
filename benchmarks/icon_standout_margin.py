"""Every standout decision (perception/icons/outcome.py ``standout``) on the tune and report screens of the
real icon set: the top two candidates, the lead, whether a colour was named, and whether the lead is the
true icon. For weighing the colourless lead (STANDOUT_SHAPE_ONLY) against other signals; the holdout is
never looked at (its screens are not opened).

    .venv/bin/python benchmarks/icon_standout_margin.py [--ocr rapidocr]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from droidpilot.perception.icons import outcome
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.icons.rank import locate_icon
from droidpilot.perception.icons.scored import ScoredIcon, suppress

sys.path.insert(0, str(Path(__file__).resolve().parent))
from icon_real import _ocr
from real_icon_set import load_labels, screens_root

DEVELOPMENT = ("tune", "report")


def _size(s: ScoredIcon) -> str:
    x1, y1, x2, y2 = s.region.box
    return f"{x2 - x1}x{y2 - y1}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ocr", default="rapidocr", help="rapidocr | tesseract | none")
    args = parser.parse_args(argv)
    written, labels = load_labels()
    root = screens_root(written)
    engine = _ocr(args.ocr)
    seen: list[tuple[Any, list[ScoredIcon], ScoredIcon | None]] = []
    decide = outcome.standout

    def watched(query: Any, scored: list[ScoredIcon]) -> ScoredIcon | None:
        got = decide(query, scored)
        seen.append((query, suppress(scored)[:2], got))
        return got

    outcome.standout = watched  # icon_outcome looks the rule up in its module at each call
    by_screen: dict[str, list[Any]] = {}
    for label in labels:
        if label.split in DEVELOPMENT:
            by_screen.setdefault(label.screen, []).append(label)
    for screen, group in by_screen.items():
        image = read_image(root / screen)[:, :, ::-1].copy()
        lines = list(engine.recognize(image)) if engine is not None else None
        for label in group:
            seen.clear()
            status = locate_icon(image, label.query, ocr_lines=lines).status
            for query, top, got in seen:
                if not top or not query.glyphs or query.unknown:
                    continue
                best, runner = top[0], (top[1] if len(top) > 1 else None)
                lead = best.score / runner.score if runner is not None and runner.score else float("inf")
                fits = ((best.colour is None or best.colour >= outcome.STANDOUT_FIT)
                        and (best.position is None or best.position >= outcome.STANDOUT_FIT)
                        and best.shape is not None and best.shape >= outcome.STANDOUT_SHAPE)
                print(f"{label.split} {screen} {label.query!r} colour={'named' if query.colour else 'none'} "
                      f"fits={int(fits)} lead={lead:.2f} taken={int(got is not None)} "
                      f"lead_is_true={int(label.contains(best.point))} best_shape={best.shape or 0:.3f} "
                      f"best_size={_size(best)} runner_shape={(runner.shape or 0) if runner else 0:.3f} "
                      f"runner_size={_size(runner) if runner else '-'} status={status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
