"""Line up one task's steps from two runs, so a reader sees where they part: equal steps side by side, an
inserted or dropped step against a gap, and the first step where the two runs diverge.

Steps are compared by their action words, normalised (case, spaces, and the numbers of a ``tap (x, y)``
rounded to a 5% grid of the screen), so the same action written with a pixel's difference still lines up.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.metrics import read_steps

GRID = 54  # pixels of a 1080-wide screen in 5%: taps this close are the same tap
_NUMBERS = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass(frozen=True)
class Step:
    """One step of a run: its number (from 1), the frame it was taken on (N.jpg), and its action words."""

    number: int
    frame: int | None
    action: str
    outcome: str = ""


@dataclass(frozen=True)
class Row:
    """A row of the side-by-side view: A's step, B's step (either may be a gap), and whether they agree."""

    a: Step | None
    b: Step | None
    same: bool


def action_key(text: str) -> str:
    """The words of an action as compared: lower case, single spaces, coordinates on the 5% grid."""
    text = " ".join(text.split()).casefold()
    if text.startswith(("tap", "long press", "swipe")):
        text = _NUMBERS.sub(lambda m: str(round(float(m.group()) / GRID)), text)
    return text


def trace_steps(folder: Path) -> list[Step]:
    """The steps of a trace folder (steps.jsonl), those that were not a run's bookkeeping."""
    out: list[Step] = []
    for rec in read_steps(folder):
        if rec.get("phase") == "experience":
            continue
        action = rec.get("action") if isinstance(rec.get("action"), dict) else {}
        frame = rec.get("frame")
        words = str(action.get("text") or "-")
        out.append(Step(len(out) + 1, frame if isinstance(frame, int) else None, words,
                        str(rec.get("outcome") or rec.get("termination") or "")))
    return out


def align(a: Sequence[Step], b: Sequence[Step]) -> list[Row]:
    """A's and B's steps lined up by their action words (longest common subsequence)."""
    keys_a, keys_b = [action_key(s.action) for s in a], [action_key(s.action) for s in b]
    rows: list[Row] = []
    matcher = difflib.SequenceMatcher(a=keys_a, b=keys_b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            rows.extend(Row(a[i1 + k], b[j1 + k], True) for k in range(i2 - i1))
            continue
        left, right = list(a[i1:i2]), list(b[j1:j2])
        for k in range(max(len(left), len(right))):
            rows.append(Row(left[k] if k < len(left) else None, right[k] if k < len(right) else None, False))
    return rows


def first_divergence(rows: Sequence[Row]) -> int | None:
    """The index of the first row where the runs differ (None when they took the same steps)."""
    return next((i for i, row in enumerate(rows) if not row.same), None)


def summary(rows: Sequence[Row]) -> dict[str, Any]:
    """Counts for a heading: steps in A and B, rows that agree, the first divergent row (from 1)."""
    first = first_divergence(rows)
    return {"a_steps": sum(1 for r in rows if r.a), "b_steps": sum(1 for r in rows if r.b),
            "same": sum(1 for r in rows if r.same), "first_divergence": None if first is None else first + 1}
