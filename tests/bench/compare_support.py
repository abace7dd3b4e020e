"""Two small benchmark runs for the compare tests, written by the real results writer, with SimPhone
traces recorded as the studio records them (so the side-by-side pages have real screenshots)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.support.recorded import NOTE_OPS, record

from droidpilot.bench.results import write_results

DETOUR_OPS = [NOTE_OPS[0], {"op": "key", "key": "recents"}, {"op": "key", "key": "back"}, *NOTE_OPS[1:]]


def row(tid: str, su: int, termination: str, failure: str = "", reason: str = "") -> dict[str, Any]:
    return {"id": tid, "suite": "mini", "level": 1, "app": "notes", "scenario": "notes",
            "instruction": f"Task {tid}.", "su": su, "su_oracle": su, "steps": 4, "termination": termination,
            "failure": failure, "failure_reason": reason, "trace": f"traces/{tid}"}


def make_runs(root: Path, extra_tasks: int = 0, traces: Path | None = None) -> tuple[Path, Path]:
    """Run A and run B: t-fixed, t-broken, t-cause (fails in both, another cause), t-same (passes in both,
    B took a detour: the side-by-side page shows it), t-only-a, and ``extra_tasks`` unchanged ones."""
    a_rows = [row("t-fixed", 0, "max_steps", "max steps", "stopped: max steps"),
              row("t-broken", 1, "completed"),
              row("t-cause", 0, "max_steps", "max steps", "ran out of steps"),
              row("t-same", 1, "completed"), row("t-only-a", 1, "completed")]
    b_rows = [row("t-fixed", 1, "completed"),
              row("t-broken", 0, "completed", "wrong stop", "stopped before the task was done"),
              row("t-cause", 0, "max_steps", "could not ground", "could not ground click text (Save)"),
              row("t-same", 1, "completed")]
    for i in range(extra_tasks):
        a_rows.append(row(f"x-{i:03d}", 1, "completed"))
        b_rows.append(row(f"x-{i:03d}", 1, "completed"))
    runs = []
    for name, rows, model in (("run-a", a_rows, "model-1"), ("run-b", b_rows, "model-2")):
        out = root / name
        for r in rows:
            folder = out / r["trace"]
            if traces is not None:  # shared recordings, linked: many tasks cost no extra screenshots
                src = traces / ("detour" if name == "run-b" and r["id"] == "t-same" else "plain")
                shutil.copytree(src, folder, copy_function=_link)
            elif r["id"] == "t-same":
                record(folder, "Write a note.", DETOUR_OPS if name == "run-b" else NOTE_OPS)
        first = name == "run-a"
        write_results(out, {"suite": "mini", "brain": "replay", "model": model,
                            "date": f"2026-11-2{len(runs)}",
                            "settings": {"max_steps": 20 if first else 30, "loop": "v1"},
                            "droidpilot": {"version": "0.9", "revision": "abc" if first else "def"}}, rows)
        runs.append(out)
    return runs[0], runs[1]


def _link(src: str, dst: str) -> None:
    import os

    os.link(src, dst)
