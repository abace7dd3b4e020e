"""The runner end to end on SimPhones: the reference brain passes oracle and rule, results are written,
a task that cannot run is recorded as an error while the others go on, and bad input is refused."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from tests.bench.conftest import REF_TASKS

from droidpilot.bench.runner import run_suite
from droidpilot.bench.worker import RunConfig
from droidpilot.errors import InputError

pytestmark = pytest.mark.slow

ROW_KEYS = {"id", "level", "su", "su_oracle", "ps", "re", "cr", "steps", "reference_steps", "termination",
            "manual_review_needed", "seconds", "trace"}


def test_reference_passes_oracle_and_rule(reference_run: dict[str, Any]) -> None:
    out: Path = reference_run["out"]
    doc = json.loads((out / "results.json").read_text())
    assert doc["suite"] == "mobile-eval" and doc["brain"] == "reference"
    assert [r["id"] for r in doc["tasks"]] == REF_TASKS
    for row in doc["tasks"]:
        assert set(row) >= ROW_KEYS, row
        assert (row["su"], row["su_oracle"], row["cr"], row["ps"], row["re"]) == (1, 1, 1.0, 1.0, 1.0), row
        assert row["termination"] == "completed" and not row["error"]
        trace = out / row["trace"]
        for name in ("1.jpg", "actions.json", "react.json", "steps.jsonl", "run.json", "verify.json",
                     "oracle.json", "rule.yaml"):
            assert (trace / name).exists(), name
        assert json.loads((trace / "verify.json").read_text())["ok"] is True
    overall = doc["summary"]["overall"]
    assert overall["su"] == 1.0 and overall["su_oracle"] == 1.0 and overall["agreement"] == 1.0
    with open(out / "results.csv", newline="") as fh:
        assert [r["id"] for r in csv.DictReader(fh)] == REF_TASKS


def test_events_show_each_device(reference_run: dict[str, Any]) -> None:
    kinds = [k for k, _ in reference_run["events"]]
    assert kinds[0] == "begin" and kinds[-1] == "end" and kinds.count("done") == 2
    steps = [i for k, i in reference_run["events"] if k == "step"]
    assert steps and all(i["task"] in REF_TASKS and i["step"] >= 1 for i in steps)
    assert {i["wid"] for k, i in reference_run["events"] if k == "start"} <= {0, 1}


def test_existing_results_need_resume(reference_run: dict[str, Any]) -> None:
    config = RunConfig(suite="mobile-eval", brain="reference", out=reference_run["out"])
    with pytest.raises(InputError, match="--resume"):
        run_suite(config, ["sim"], task_ids=REF_TASKS)
    other = RunConfig(suite="mobile-eval", brain="heuristic", out=reference_run["out"])
    with pytest.raises(InputError, match="used --brain reference"):
        run_suite(other, ["sim"], task_ids=REF_TASKS, resume=True)
    finished = run_suite(config, ["sim"], task_ids=REF_TASKS, resume=True)
    assert finished.skipped == REF_TASKS and len(finished.rows) == 2


def test_one_task_failing_does_not_stop_the_others(tmp_path: Path) -> None:
    responses = tmp_path / "responses"
    responses.mkdir()
    (responses / "music-3.json").write_text(json.dumps([
        "Observation: the home screen\nThought: nothing to do\nAction: stop",
        {"text": "Completed: yes\nReason: done", "kind": "complete"}]))
    config = RunConfig(suite="mobile-eval", brain="replay", out=tmp_path / "out", responses=responses)
    outcome = run_suite(config, ["sim"], task_ids=["settings-1", "music-3"])
    by_id = {r["id"]: r for r in outcome.rows}
    assert "responses file not found" in by_id["settings-1"]["error"]
    assert by_id["settings-1"]["termination"] == "error" and by_id["settings-1"]["su"] == 0
    music = by_id["music-3"]
    assert not music["error"] and music["termination"] == "completed"
    assert (music["su"], music["su_oracle"], music["steps"]) == (0, 0, 0)
    assert outcome.document["summary"]["overall"]["errors"] == 1


def test_bad_input(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not one of"):
        run_suite(RunConfig(suite="mobile-eval", brain="gpt", out=tmp_path), ["sim"])
    with pytest.raises(InputError, match=r"no task 'settings-l'.*did you mean"):
        run_suite(RunConfig(suite="mobile-eval", out=tmp_path), ["sim"], task_ids=["settings-l"])
    with pytest.raises(InputError, match="no suite"):
        run_suite(RunConfig(suite="no-such-suite", out=tmp_path), ["sim"])


def test_a_dead_worker_is_replaced_and_its_task_recorded(tmp_path: Path) -> None:
    import multiprocessing
    import os
    import signal

    killed: list[int] = []

    def on_event(kind: str, info: dict[str, Any]) -> None:
        if kind == "step" and info["task"] == "music-3" and not killed:
            for child in multiprocessing.active_children():
                killed.append(child.pid or 0)
                os.kill(child.pid or 0, signal.SIGKILL)

    config = RunConfig(suite="mobile-eval", brain="reference", out=tmp_path)
    outcome = run_suite(config, ["sim"], task_ids=["music-3", "settings-2"], on_event=on_event)
    by_id = {r["id"]: r for r in outcome.rows}
    assert killed
    assert "worker process died" in by_id["music-3"]["error"]
    assert by_id["settings-2"]["su"] == 1 and not by_id["settings-2"]["error"]
