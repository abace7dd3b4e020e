"""Write the training records of many trace folders to one JSONL file, keeping successful episodes only
unless asked, and say what was kept and what was left out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from droidpilot.atomicio import atomic_write_bytes
from droidpilot.errors import InputError
from droidpilot.export.episodes import find_traces, load_episode
from droidpilot.export.formats import FORMATS, records


@dataclass
class ExportSummary:
    episodes: int = 0
    records: int = 0
    skipped: list[str] = field(default_factory=list)  # "folder: why"


def export(paths: list[str | Path], fmt: str, out: str | Path, include_failed: bool = False) -> ExportSummary:
    """Export every episode below ``paths`` as ``fmt`` records into ``out`` (JSONL, replaced whole)."""
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt!r} is not one of: {', '.join(FORMATS)}")
    summary = ExportSummary()
    lines: list[str] = []
    for folder in find_traces(paths):
        episode = load_episode(folder)
        if not episode.steps:
            summary.skipped.append(f"{folder}: no steps")
            continue
        if episode.success is not True and not include_failed:
            why = "failed" if episode.success is False else "no verdict (no oracle.json or verify.json)"
            summary.skipped.append(f"{folder}: {why}; --include-failed keeps it")
            continue
        summary.episodes += 1
        for record in records(episode, fmt):
            lines.append(json.dumps(record, ensure_ascii=False))
            summary.records += 1
    atomic_write_bytes(Path(out), ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8"))
    return summary
