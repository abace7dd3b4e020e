"""``results.json`` and ``results.csv`` of a benchmark run, rewritten atomically after every task.

``results.json``: ``{"suite", "brain", "device", "tasks": [row, ...], "summary": {...}}`` where each row
has at least ``id, level, su, su_oracle, ps, re, cr, steps, reference_steps, termination,
manual_review_needed, seconds, trace``; the summary is ``metrics.summarize`` of the rows.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from droidpilot.atomicio import atomic_write_bytes as atomic_write
from droidpilot.bench.metrics import summarize
from droidpilot.datalimits import DataLimitError, check_json
from droidpilot.errors import InputError

CSV_COLUMNS = ("id", "suite", "level", "app", "scenario", "su", "su_oracle", "cr", "re", "ps", "ss", "steps",
               "effective_steps", "reference_steps", "termination", "manual_review_needed", "seconds",
               "model_calls", "prompt_tokens", "completion_tokens", "loop", "memory_version", "device",
               "error", "trace")


def results_path(out: Path) -> Path:
    """Where a run in ``out`` keeps its results."""
    return Path(out) / "results.json"


def load_results(out: Path) -> dict[str, Any] | None:
    """The results of an earlier run in ``out`` (None when there is no such file); InputError when there
    is one that cannot be read: a dangling or looping symlink, not a file, not JSON, nested past the data
    limits. NaN and infinite numbers are read as floats, for the row checks to find (``rowcheck``)."""
    path = results_path(out)
    if not os.path.lexists(path):
        return None
    fix = "remove it or choose another --out folder"
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # OSError for a dangling or looping symlink
            raise InputError(f"{path}: cannot read the earlier results (not a regular file); {fix}")
        text = path.read_text(encoding="utf-8")
        check_json(text)
        data = json.loads(text)
    except DataLimitError as exc:
        raise InputError(f"{path}: cannot read the earlier results (too large: {exc}); {fix}") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InputError(f"{path}: cannot read the earlier results ({reason}); {fix}") from None
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
        raise InputError(f"{path}: not a droidpilot results file (no 'tasks' list); {fix}")
    return data


def write_results(out: Path, meta: dict[str, Any], rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Write ``results.json`` and ``results.csv`` (each atomically); returns the JSON document."""
    doc = {**meta, "tasks": list(rows), "summary": summarize(rows)}
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False)  # never NaN: that is not JSON
    atomic_write(results_path(out), text.encode("utf-8"))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in CSV_COLUMNS})
    atomic_write(out / "results.csv", buffer.getvalue().encode("utf-8"))
    return doc
