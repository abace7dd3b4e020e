"""bench takes run's options and --trials K: settings reach every task and results.json; pass@1, pass@K
and the spread are computed; a task cut off at max_steps is not a success even when its goal was reached;
the provenance needed to reproduce the run is recorded (never a key)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.bench.conftest import TRIAL_TASKS

from droidpilot.bench.metrics import trial_stats
from droidpilot.bench.provenance import endpoint_host, run_metadata, settings_changed, suite_digest
from droidpilot.bench.suite import load_suite
from droidpilot.bench.worker import RunConfig


def test_trial_stats() -> None:
    rows = [{"id": "a", "trial": 1, "su": 1}, {"id": "a", "trial": 2, "su": 0},
            {"id": "b", "trial": 1, "su": 0}, {"id": "b", "trial": 2, "su": 0},
            {"id": "c", "trial": 1, "su": 1}, {"id": "c", "trial": 2, "su": 1, "error": ""}]
    stats = trial_stats(rows)
    assert stats is not None
    assert stats["k"] == 2 and stats["tasks"] == 3
    assert stats["pass@1"] == pytest.approx(0.5) and stats["pass@k"] == pytest.approx(2 / 3, abs=1e-4)
    assert stats["su_per_trial"] == [pytest.approx(2 / 3, abs=1e-4), pytest.approx(1 / 3, abs=1e-4)]
    assert stats["spread"]["min"] < stats["spread"]["max"] and stats["spread"]["std"] > 0
    assert trial_stats([{"id": "a", "su": 1}]) is None


@pytest.mark.slow
def test_bench_with_runs_options_and_trials(trials_run: dict[str, Any]) -> None:
    result, out = trials_run["result"], trials_run["out"]
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert [(r["id"], r["trial"]) for r in doc["tasks"]] == [(t, k) for t in TRIAL_TASKS for k in (1, 2)]
    assert len({r["trace"] for r in doc["tasks"]}) == 4
    s = doc["settings"]
    assert (s["max_steps"], s["seed"], s["lang"], s["temperature"], s["coord_space"], s["trials"]) == (
        3, 0, "en", 0.5, "device", 2)
    for row in doc["tasks"]:
        assert row["max_steps"] == 3 and row["seed"] == 0
        run = json.loads((out / row["trace"] / "run.json").read_text())
        assert run["settings"]["limits"]["max_steps"] == 3
    settings_rows = [r for r in doc["tasks"] if r["id"] == "settings-2"]
    for row in settings_rows:  # 3 actions and a stop do not fit in 3 steps: the goal is reached, not claimed
        assert row["termination"] == "max_steps" and row["rule_ok"] == 1 and row["oracle_ok"] == 1
        assert row["su"] == 0 and row["su_oracle"] == 0 and row["failure"] == "max steps"
        assert "never stopped" in row["failure_reason"]
    trials = doc["summary"]["trials"]["overall"]
    assert (trials["k"], trials["pass@1"], trials["pass@k"]) == (2, 0.5, 0.5)
    assert trials["su_per_trial"] == [0.5, 0.5]
    # provenance
    assert doc["suite_info"]["name"] == "mobile-eval" and len(doc["suite_info"]["sha256"]) == 64
    assert doc["suite_info"]["version"] == "1.0"
    assert doc["seeds"] == {"music-3": 0, "settings-2": 0}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc["date"])
    assert doc["machine"]["cpus"] >= 1 and doc["machine"]["python"]
    rev = doc["droidpilot"]["revision"]
    assert rev is None or re.fullmatch(r"[0-9a-f]{40}", rev)
    # piped output (CliRunner is no terminal): whole tables, provenance line, pass@K table
    assert "pass@2" in result.output and "…" not in result.output
    assert "suite mobile-eval v1.0" in result.output


def test_metadata_never_holds_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret")
    monkeypatch.setenv("DROIDPILOT_LLM_MODEL", "my-model")
    config = RunConfig(suite="mobile-eval", brain="openai",
                       base_url="https://user:hunter2@llm.example.org:8443/v1?api_key=sk-in-url",
                       out=Path("x"))
    suite = load_suite("mobile-eval")
    meta = run_metadata(config, ["sim"], suite, {"music-3": 0})
    text = json.dumps(meta)
    for secret in ("sk-very-secret", "hunter2", "sk-in-url", "user:"):
        assert secret not in text
    assert meta["model"] == "my-model" and meta["endpoint_host"] == "llm.example.org:8443"
    assert endpoint_host(None) is None


def test_suite_digest_changes_with_a_task(tmp_path: Path) -> None:
    import shutil

    src = load_suite("mobile-eval").folder
    copy = tmp_path / "suite"
    shutil.copytree(src, copy)
    before = suite_digest(load_suite(str(copy)))
    assert before == suite_digest(load_suite("mobile-eval"))
    task = copy / "music-3.yaml"
    text = task.read_text(encoding="utf-8")
    task.write_text(text.replace("instruction:", "notes: changed\ninstruction:", 1), encoding="utf-8")
    assert suite_digest(load_suite(str(copy))) != before


def test_resume_refuses_other_settings() -> None:
    changed = settings_changed({"max_steps": 3, "trials": 2}, {"max_steps": 5, "trials": 2})
    assert changed == ["max_steps: 3 -> 5"]
    assert settings_changed({}, {"max_steps": 5}) == []
