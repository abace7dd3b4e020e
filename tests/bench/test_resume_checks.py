"""--resume keeps only rows that are complete and came from this run: each row is checked against the
results schema (types, finite numbers, suite, task, trial, seed, step limit, trace folder) and run again
with the reason said when it is not; results of another suite or other settings are refused; a
results.json that cannot be read is a clear error, never a silent restart nor a traceback."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from droidpilot.bench.ledger import open_run
from droidpilot.bench.runner import run_suite
from droidpilot.bench.worker import RunConfig
from droidpilot.errors import InputError

TASKS = ["music-3", "settings-2"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real finished run of TASKS (reference brain, one SimPhone)."""
    out = tmp_path_factory.mktemp("resume") / "run"
    run_suite(RunConfig(suite="mobile-eval", brain="reference", out=out), ["sim"], task_ids=TASKS)
    return out


def _copy(finished: Path, tmp_path: Path, change: Any = None) -> Path:
    out = tmp_path / "run"
    shutil.copytree(finished, out)
    if change is not None:
        doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
        change(doc)
        (out / "results.json").write_text(json.dumps(doc), encoding="utf-8")  # NaN written as NaN
    return out


def _ledger(out: Path, **settings: Any):  # type: ignore[no-untyped-def]
    return open_run(RunConfig(suite="mobile-eval", brain="reference", out=out, **settings), ["sim"], TASKS,
                    True)[1]


def test_every_complete_row_is_kept(finished: Path, tmp_path: Path) -> None:
    ledger = _ledger(_copy(finished, tmp_path))
    assert sorted(ledger.done) == sorted(TASKS) and ledger.rerun == {} and ledger.pending == []


def _row(doc: dict[str, Any], tid: str) -> dict[str, Any]:
    return next(r for r in doc["tasks"] if r["id"] == tid)


@pytest.mark.parametrize(("change", "why"), [
    (lambda row: row.clear() or row.update(id="music-3"), "it has no 'su'"),
    (lambda row: row.update(su=math.nan), "'su' is nan, not a finite number"),
    (lambda row: row.update(cr=math.inf), "'cr' is inf, not a finite number"),
    (lambda row: row.update(su="1"), "'su' is '1', not int"),
    (lambda row: row.update(su=True), "'su' is True, not int"),  # near miss: a bool is not a count
    (lambda row: row.update(su=2), "'su' is 2, outside 0..1"),
    (lambda row: row.update(steps=-1), "'steps' is -1, below 0"),
    (lambda row: row.update(manual_review_needed=0), "'manual_review_needed' is 0, not bool"),
    (lambda row: row.update(suite="mobiflow-zh"),
     "'suite' is 'mobiflow-zh', but this run's is 'mobile-eval'"),
    (lambda row: row.update(level=1), "'level' is 1, but this run's is 3"),
    (lambda row: row.update(seed=7), "'seed' is 7, but this run's is 0"),
    (lambda row: row.update(max_steps=99), "'max_steps' is 99, but this run's is 10"),
    (lambda row: row.update(error="boom"), "it ended in an error"),
    (lambda row: row.update(effective_steps=9), "'effective_steps' 9 is more than 'steps' 2"),
])
def test_an_incomplete_or_foreign_row_runs_again_with_the_reason(finished: Path, tmp_path: Path,
                                                                change: Any, why: str) -> None:
    out = _copy(finished, tmp_path, lambda doc: change(_row(doc, "music-3")))
    ledger = _ledger(out)
    assert ledger.rerun == {"music-3": why}
    assert list(ledger.done) == ["settings-2"] and ledger.pending == ["music-3"]


def test_a_row_whose_trace_is_gone_runs_again(finished: Path, tmp_path: Path) -> None:
    out = _copy(finished, tmp_path)
    shutil.rmtree(out / "traces" / "music-3")
    assert _ledger(out).rerun == {"music-3": "its trace folder traces/music-3 is missing"}


def test_differently_written_right_rows_are_kept(finished: Path, tmp_path: Path) -> None:
    """Whole numbers written as 1.0 in cr/ps, a null re, extra fields: still complete."""
    def change(doc: dict[str, Any]) -> None:
        row = _row(doc, "music-3")
        row.update(cr=1, ps=1, re=None, note="added by hand")
    assert _ledger(_copy(finished, tmp_path, change)).rerun == {}


def _resume(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "droidpilot", "bench", "--brain", "reference", "--tasks", ",".join(TASKS),
           "--no-report", "--resume", "--out", str(out), *extra]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "200"})


def test_resume_reruns_an_id_only_row_and_a_nan_row_and_writes_valid_json(finished: Path,
                                                                          tmp_path: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["tasks"] = [{"id": "music-3"}, {**_row(doc, "settings-2"), "su": math.nan}]
    out = _copy(finished, tmp_path, change)
    assert "NaN" in (out / "results.json").read_text(encoding="utf-8")
    done = _resume(out)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "running again music-3: its earlier row is not complete (it has no 'su')" in text
    assert ("running again settings-2: its earlier row is not complete ('su' is nan, not a finite number)"
            in text)
    raw = (out / "results.json").read_text(encoding="utf-8")
    doc = json.loads(raw, parse_constant=lambda name: pytest.fail(f"{name} written into results.json"))
    assert sorted(r["id"] for r in doc["tasks"]) == sorted(TASKS)
    assert all(r["su"] == 1 and r["steps"] > 0 for r in doc["tasks"])


@pytest.mark.parametrize(("change", "message"), [
    (lambda doc: doc.update(suite="mobiflow-zh"),
     "the earlier results are of suite 'mobiflow-zh', not 'mobile-eval'; resume with --suite mobiflow-zh"),
    (lambda doc: doc["settings"].update(max_steps=3),
     "the earlier run used other settings (max_steps: 3 -> None)"),
    (lambda doc: doc.pop("settings"), "the earlier results record no settings"),
    (lambda doc: doc["suite_info"].update(sha256="0" * 64),
     "the suite's task files changed since the earlier run"),
    (lambda doc: doc.update(brain="heuristic"), "the earlier run used --brain heuristic, not reference"),
])
def test_results_of_another_suite_or_settings_are_refused(finished: Path, tmp_path: Path, change: Any,
                                                          message: str) -> None:
    out = _copy(finished, tmp_path, change)
    with pytest.raises(InputError) as caught:
        _ledger(out)
    assert message in str(caught.value)


def _unreadable(kind: str, path: Path) -> None:
    path.unlink()
    if kind == "symlink loop":
        path.symlink_to(path.name)
    elif kind == "dangling symlink":
        path.symlink_to("nowhere.json")
    elif kind == "folder":
        path.mkdir()
    elif kind == "deep":
        path.write_text("{\"tasks\": " + "[" * 5000 + "]" * 5000 + "}", encoding="utf-8")
    elif kind == "huge int":
        path.write_text("{\"tasks\": [{\"id\": \"music-3\", \"su\": " + "9" * 5000 + "}]}", encoding="utf-8")
    elif kind == "not json":
        path.write_text("{\"tasks\": [", encoding="utf-8")
    elif kind == "no tasks":
        path.write_text("[1, 2]", encoding="utf-8")


@pytest.mark.parametrize(("kind", "message"), [
    ("symlink loop", "Too many levels of symbolic links"),
    ("dangling symlink", "No such file or directory"),
    ("folder", "not a regular file"),
    ("deep", "too large: line 1: nested more than 100 levels deep"),
    ("huge int", "a number with 5,000 digits"),
    ("not json", "Expecting value"),
    ("no tasks", "not a droidpilot results file (no 'tasks' list)"),
])
def test_an_unreadable_results_file_is_a_clear_error_not_a_restart(finished: Path, tmp_path: Path, kind: str,
                                                                   message: str) -> None:
    out = _copy(finished, tmp_path)
    path = out / "results.json"
    _unreadable(kind, path)
    before = _state(path)
    done = _resume(out)
    assert done.returncode == 2, done.stdout + done.stderr
    text = " ".join(done.stderr.split())
    assert "results.json: cannot read the earlier results" in text or "not a droidpilot results file" in text
    assert message in text and "Traceback" not in done.stderr
    assert "remove it or choose another --out folder" in text
    assert _state(path) == before  # left as it was: no restart over it


def _state(path: Path) -> object:
    if path.is_symlink():
        return ("link", os.readlink(path))
    return ("folder",) if path.is_dir() else ("file", path.read_bytes())


def test_a_row_without_a_task_id_is_dropped_and_said(finished: Path, tmp_path: Path) -> None:
    out = _copy(finished, tmp_path, lambda doc: doc["tasks"].append({"su": 1}))
    ledger = _ledger(out)
    assert ledger.rerun == {"row 3": "it has no task id"} and sorted(ledger.done) == sorted(TASKS)
