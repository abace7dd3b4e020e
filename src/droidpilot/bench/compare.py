"""Compare two benchmark runs (two results folders): Su per level side by side and per-task differences.

A task's score in a run is its Su (the mean over its trials when the run had several); a task is
``fixed`` when B passes what A failed, ``broken`` the other way round, ``cause changed`` when it fails in
both with a different failure cause (a "same" score that hides a new failure), ``same`` otherwise, and
``only in A`` / ``only in B`` when one run did not have it. ``settings_diff`` lists the settings and
provenance (brain, model, droidpilot revision, suite version, ...) that differ between the runs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.bench.failures import failure_cause, failure_reason
from droidpilot.bench.results import load_results
from droidpilot.errors import InputError

CHANGES = ("fixed", "broken", "cause changed", "only in A", "only in B", "same")
UNCHANGED = ("same",)
META_KEYS = ("suite", "brain", "model", "endpoint_host", "date", "settings", "droidpilot", "suite_info")
NOT_COMPARED = ("date",)  # differs between any two runs: shown, never counted as a difference


@dataclass
class TaskDiff:
    """One task in both runs: its score, steps, termination and failure reason in each, and the change."""

    id: str
    level: str
    app: str
    instruction: str
    a: dict[str, Any] | None
    b: dict[str, Any] | None
    change: str


@dataclass
class Comparison:
    """Two runs side by side."""

    a_path: Path
    b_path: Path
    a_meta: dict[str, Any]
    b_meta: dict[str, Any]
    levels: list[dict[str, Any]] = field(default_factory=list)
    tasks: list[TaskDiff] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many tasks had each kind of change."""
        return {c: sum(1 for t in self.tasks if t.change == c) for c in CHANGES}

    def changed(self) -> list[TaskDiff]:
        """The tasks whose result or failure cause changed, in the order of CHANGES, then by id."""
        order = {c: i for i, c in enumerate(CHANGES)}
        changed = [t for t in self.tasks if t.change not in UNCHANGED]
        return sorted(changed, key=lambda t: (order[t.change], t.id))

    def unchanged(self) -> list[TaskDiff]:
        return sorted((t for t in self.tasks if t.change in UNCHANGED), key=lambda t: t.id)

    def settings_diff(self) -> list[dict[str, Any]]:
        """``{key, a, b}`` for every setting or provenance field (dotted key) that differs between A and B."""
        a, b = _flatten(self.a_meta), _flatten(self.b_meta)
        return [{"key": k, "a": a.get(k), "b": b.get(k)} for k in sorted(set(a) | set(b))
                if a.get(k) != b.get(k) and k.split(".")[0] not in NOT_COMPARED]


def _flatten(value: Any, prefix: str = "", depth: int = 0) -> dict[str, Any]:
    """Nested mappings as dotted keys (lists and deeper values kept whole)."""
    if not isinstance(value, Mapping) or depth > 4:
        return {prefix: value} if prefix else {}
    out: dict[str, Any] = {}
    for key, inner in value.items():
        out.update(_flatten(inner, f"{prefix}.{key}" if prefix else str(key), depth + 1))
    return out


def _load(folder: Path, name: str) -> dict[str, Any]:
    doc = load_results(folder)
    if doc is None:
        raise InputError(f"{name} {folder}: no results.json there; give a folder written by droidpilot bench "
                         f"--out")
    for index, row in enumerate(doc["tasks"]):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            raise InputError(f"{name} {folder}/results.json: task row {index + 1} is not a result row "
                             f"(no 'id')")
        bad = next((k for k, v in row.items() if isinstance(v, float) and not math.isfinite(v)), None)
        if bad is not None:
            raise InputError(f"{name} {folder}/results.json: task {row['id']!r} has {bad} = {row[bad]}, not "
                             f"a finite number; run it again (bench --resume reruns such rows)")
    return doc


def _by_task(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(str(row.get("id")), []).append(row)
    out: dict[str, dict[str, Any]] = {}
    for tid, group in grouped.items():
        first = group[0]
        su = sum(0 if r.get("error") else int(r.get("su") or 0) for r in group) / len(group)
        oracle = [r.get("su_oracle") for r in group if r.get("su_oracle") is not None]
        out[tid] = {"su": su, "su_oracle": sum(oracle) / len(oracle) if oracle else None,
                    "steps": first.get("steps"), "termination": first.get("termination"),
                    "trials": len(group), "level": str(first.get("level")), "app": str(first.get("app")),
                    "instruction": str(first.get("instruction") or ""),
                    "reason": str(first.get("failure_reason") or failure_reason(first, [])),
                    "cause": str(first.get("failure") if first.get("failure") is not None
                                 else failure_cause(first, [])),
                    "trace": str(first.get("trace") or "")}
    return out


def _change(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> str:
    if a is None:
        return "only in B"
    if b is None:
        return "only in A"
    if b["su"] > a["su"]:
        return "fixed"
    if b["su"] < a["su"]:
        return "broken"
    if a["su"] < 1 and a.get("cause", "") != b.get("cause", ""):
        return "cause changed"
    return "same"


def compare_runs(run_a: str | Path, run_b: str | Path) -> Comparison:
    """Load both results folders and line them up (InputError when either has no results)."""
    a_path, b_path = Path(run_a), Path(run_b)
    a_doc, b_doc = _load(a_path, "RUN_A"), _load(b_path, "RUN_B")
    a_tasks, b_tasks = _by_task(a_doc["tasks"]), _by_task(b_doc["tasks"])
    comparison = Comparison(a_path, b_path, {k: a_doc.get(k) for k in META_KEYS},
                            {k: b_doc.get(k) for k in META_KEYS})
    for tid in [*a_tasks, *(t for t in b_tasks if t not in a_tasks)]:
        a, b = a_tasks.get(tid), b_tasks.get(tid)
        ref = a or b or {}
        comparison.tasks.append(TaskDiff(tid, ref.get("level", ""), ref.get("app", ""),
                                         ref.get("instruction", ""), a, b, _change(a, b)))
    a_levels = (a_doc.get("summary") or {}).get("by_level") or {}
    b_levels = (b_doc.get("summary") or {}).get("by_level") or {}
    for level in sorted(set(a_levels) | set(b_levels)):
        comparison.levels.append(_level_row(f"level {level}", a_levels.get(level), b_levels.get(level)))
    comparison.levels.append(_level_row("overall", (a_doc.get("summary") or {}).get("overall"),
                                        (b_doc.get("summary") or {}).get("overall")))
    return comparison


def _level_row(name: str, a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> dict[str, Any]:
    def get(agg: Mapping[str, Any] | None, key: str) -> Any:
        return None if agg is None else agg.get(key)

    su_a, su_b = get(a, "su"), get(b, "su")
    delta = None if su_a is None or su_b is None else round(float(su_b) - float(su_a), 4)
    return {"group": name, "tasks_a": get(a, "tasks"), "tasks_b": get(b, "tasks"), "su_a": su_a, "su_b": su_b,
            "delta": delta, "su_oracle_a": get(a, "su_oracle"), "su_oracle_b": get(b, "su_oracle")}
