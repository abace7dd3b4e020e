"""The review's trace browser: recent runs and recordings, bench runs, and any folder, without typing paths.

``recent`` lists the studio's own output (``recordings/`` and ``agent/`` under its output folder, newest
first) and the bench runs (folders holding ``results.json``) found in the output folder, the folder the
studio was started from, and their ``bench-out``/``runs`` sub-folders. ``browse`` lists one folder's
sub-folders, each marked as a trace, a bench run or a plain folder. Symbolic links are not followed and
listings are capped, so a slip such as ``/`` answers quickly.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from droidpilot.studio.files import is_dir, read_json
from droidpilot.studio.review import folder_path

MAX_RECENT = 60
MAX_ENTRIES = 500
BENCH_PLACES = ("", "bench-out", "runs", "bench")


def _kind(folder: Path) -> str:
    if (folder / "actions.json").is_file():
        return "trace"
    if (folder / "results.json").is_file():
        return "bench"
    return "folder"


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _instruction(trace: Path) -> str:
    actions = read_json(trace / "actions.json")
    text = actions.get("task_description", "") if isinstance(actions, dict) else ""
    return text if isinstance(text, str) else ""


def _subfolders(folder: Path, limit: int) -> list[Path]:
    out: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    out.append(Path(entry.path))
                    if len(out) >= limit:
                        break
    except OSError:
        return []
    return out


def recent(out_root: Path, started_in: Path | None = None) -> dict[str, Any]:
    """The studio's recent recordings and agent runs, and the bench runs near it, newest first."""
    traces = []
    for kind in ("recordings", "agent"):
        for folder in _subfolders(out_root / kind, MAX_ENTRIES):
            if (folder / "actions.json").is_file():
                traces.append({"kind": "recording" if kind == "recordings" else "agent run",
                               "path": str(folder), "name": folder.name, "instruction": _instruction(folder),
                               "mtime": _mtime(folder / "actions.json")})
    traces.sort(key=lambda t: -t["mtime"])
    benches: dict[str, dict[str, Any]] = {}
    for root in {out_root, started_in or Path.cwd()}:
        for place in BENCH_PLACES:
            base = root / place if place else root
            for folder in [base, *_subfolders(base, MAX_ENTRIES)]:
                if (folder / "results.json").is_file() and str(folder.resolve()) not in benches:
                    results = read_json(folder / "results.json")
                    suite = results.get("suite") if isinstance(results, dict) else None
                    benches[str(folder.resolve())] = {
                        "kind": "bench run", "path": str(folder.resolve()), "name": folder.name,
                        "suite": suite if isinstance(suite, str) else "",
                        "mtime": _mtime(folder / "results.json")}
    bench_list = sorted(benches.values(), key=lambda b: -b["mtime"])
    return {"out_root": str(out_root.resolve()), "traces": traces[:MAX_RECENT],
            "bench": bench_list[:MAX_RECENT]}


def browse(value: Any) -> dict[str, Any]:
    """One folder's sub-folders (traces, bench runs, folders), for walking to any trace by clicking."""
    path = folder_path(value)
    subs = _subfolders(path, MAX_ENTRIES + 1)
    entries = [{"name": f.name, "path": str(f), "kind": _kind(f)}
               for f in sorted(subs[:MAX_ENTRIES], key=lambda f: f.name.casefold())]
    return {"path": str(path), "parent": str(path.parent) if path.parent != path else None,
            "kind": _kind(path), "entries": entries, "more": len(subs) > MAX_ENTRIES,
            "readable": is_dir(path)}
