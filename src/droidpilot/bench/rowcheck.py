"""The results schema of one finished row, checked before ``--resume`` keeps it instead of running again.

A row is kept only when it is complete and came from this run: every metric field present with its type
(whole numbers, finite numbers in range, no NaN or infinity), no error, and its suite, task, trial, seed,
step limit and trace folder those this run would give it. Anything else is run again, and the reason is
said (``problem`` returns it), so a hand-edited or truncated results.json never passes as finished work.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.task import BenchTask

# field -> (kinds allowed, low, high); None in kinds: the field may be null. Bounds apply to numbers.
_BIT = ((int,), 0, 1)
FIELDS: dict[str, tuple[tuple[type, ...] | tuple[type | None, ...], float | None, float | None]] = {
    "su": _BIT,
    "su_oracle": ((int, None), 0, 1),
    "rule_ok": _BIT,
    "oracle_ok": ((int, None), 0, 1),
    "cr": ((int, float), 0, 1),
    "re": ((int, float, None), 0, None),
    "ps": ((int, float), 0, 1),
    "steps": ((int,), 0, None),
    "effective_steps": ((int,), 0, None),
    "reference_steps": ((int,), 0, None),
    "seconds": ((int, float), 0, None),
    "model_calls": ((int,), 0, None),
    "prompt_tokens": ((int,), 0, None),
    "completion_tokens": ((int,), 0, None),
    "termination": ((str,), None, None),
    "manual_review_needed": ((bool,), None, None),
    "trace": ((str,), None, None),
    "trial": ((int,), 1, None),
}


@dataclass(frozen=True)
class Expected:
    """What this run would write into the row of one attempt."""

    task: BenchTask
    trial: int
    seed: int
    max_steps: int
    trace: str  # relative to --out, e.g. traces/music-3@2


def _kind_ok(value: Any, kinds: tuple[Any, ...]) -> bool:
    if value is None:
        return None in kinds
    if isinstance(value, bool):
        return bool in kinds
    return any(k is not None and k is not bool and isinstance(value, k) for k in kinds)


def _field_problem(row: dict[str, Any], name: str) -> str | None:
    kinds, low, high = FIELDS[name]
    if name not in row:
        return f"it has no '{name}'"
    value = row[name]
    if isinstance(value, float) and not math.isfinite(value):
        return f"'{name}' is {value}, not a finite number"
    if not _kind_ok(value, kinds):
        wanted = " or ".join("null" if k is None else k.__name__ for k in kinds)
        return f"'{name}' is {value!r}, not {wanted}"
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if numeric and ((low is not None and value < low) or (high is not None and value > high)):
        span = f"outside {low}..{high}" if high is not None else f"below {low}"
        return f"'{name}' is {value}, {span}"
    return None


def problem(row: Any, expected: Expected, out: Path) -> str | None:
    """Why ``row`` cannot be kept as the finished attempt ``expected`` (None: it can)."""
    if not isinstance(row, dict):
        return "it is not a mapping"
    if row.get("error"):
        return "it ended in an error"
    for name in FIELDS:
        found = _field_problem(row, name)
        if found:
            return found
    task = expected.task
    checks = (
        ("suite", row.get("suite"), task.suite),
        ("level", row.get("level"), task.level),
        ("reference_steps", row["reference_steps"], task.reference_steps),
        ("trial", row["trial"], expected.trial),
        ("trace", row["trace"], expected.trace),
    )
    for name, got, want in checks:
        if got != want:
            return f"'{name}' is {got!r}, but this run's is {want!r}"
    for name, want in (("seed", expected.seed), ("max_steps", expected.max_steps)):
        if name in row and row[name] != want:
            return f"'{name}' is {row[name]!r}, but this run's is {want!r}"
    if row["effective_steps"] > row["steps"]:
        return f"'effective_steps' {row['effective_steps']} is more than 'steps' {row['steps']}"
    if not (Path(out) / expected.trace).is_dir():
        return f"its trace folder {expected.trace} is missing"
    return None
