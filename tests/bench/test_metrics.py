"""Metrics on hand-made step logs and rules: PS, RE, CR, Su/Su-oracle, and the per-level summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from droidpilot.bench.metrics import (
    completion_rate,
    read_steps,
    reference_path,
    step_stats,
    summarize,
    task_metrics,
)
from droidpilot.verify.spec import load_rule_text

RULE = load_rule_text("""
task_id: t
nodes:
  - {id: a, score: 10, condition: {type: ocr_match, params: {any: [A]}}}
  - {id: b, deps: [a], score: 30, condition: {type: ocr_match, params: {any: [B]}}}
  - {id: c, deps: [b], score: 60, condition: {type: ocr_match, params: {any: [C]}}}
  - {id: side, deps: [a], score: 5, condition: {type: ocr_match, params: {any: [S]}}}
success: {any_of: [c, side]}
""")


def step(n: int, name: str, before: str, after: str, outcome: str = "ok",
         failed: bool = False) -> dict[str, Any]:
    return {"step": n, "action": {"name": name, "text": name}, "screen_before": before, "screen_after": after,
            "outcome": outcome, "reflection": {"failed": failed}}


STEPS = [
    step(1, "open_app", "home", "s1"),                               # effective
    step(2, "click_text", "s1", "s1", "unchanged", failed=True),      # screen did not change
    step(3, "click_text", "s1", "s1", "grounding_not_found"),        # not grounded
    step(4, "click_text", "s1", "s2"),                               # effective
    step(5, "back", "s2", "s1"),                                     # undoes step 4: back to a left screen
    step(6, "click_text", "s1", "s3"),                               # effective
    step(7, "stop", "s3", "s3", "completed"),                        # not a step
]


def test_step_stats() -> None:
    assert step_stats(STEPS) == {"steps": 6, "effective": 3}
    assert step_stats([]) == {"steps": 0, "effective": 0}


def test_going_home_to_switch_apps_is_not_an_undo() -> None:
    steps = [step(1, "open_app", "home", "cal"), step(2, "exit", "cal", "home"),
             step(3, "open_app", "home", "notes"), step(4, "back", "notes", "home")]
    assert step_stats(steps) == {"steps": 4, "effective": 3}


def test_reference_path_and_cr() -> None:
    assert reference_path(RULE) == ["a", "b", "c"]
    assert completion_rate(RULE, ["a", "b"], ok=False) == pytest.approx(0.4)
    assert completion_rate(RULE, ["a", "side"], ok=False) == pytest.approx(0.1)
    assert completion_rate(RULE, ["a", "side"], ok=True) == 1.0


def test_task_metrics() -> None:
    m = task_metrics(RULE, 4, STEPS, verified_ok=False, reached=["a"], oracle_ok=True)
    assert m == {"su": 0, "su_oracle": 1, "rule_ok": 0, "oracle_ok": 1, "cr": 0.1, "re": 1.5, "ps": 0.5,
                 "steps": 6, "effective_steps": 3, "reference_steps": 4}
    assert task_metrics(RULE, 4, [], True, [], None)["su_oracle"] is None


@pytest.mark.parametrize("termination", ["max_steps", "max_model_calls", "time_budget", "device_error",
                                         "repeated_failures"])
def test_a_run_cut_off_is_never_a_success(termination: str) -> None:
    """music-2 reached its milestones but ran out of steps: the verdicts are kept, Su is 0."""
    m = task_metrics(RULE, 4, STEPS, verified_ok=True, reached=["a", "b", "c"], oracle_ok=True,
                     termination=termination)
    assert (m["su"], m["su_oracle"], m["rule_ok"], m["oracle_ok"], m["cr"]) == (0, 0, 1, 1, 1.0)
    done = task_metrics(RULE, 4, STEPS, True, ["a", "b", "c"], True, termination="completed")
    assert (done["su"], done["su_oracle"]) == (1, 1)


def test_read_steps_skips_a_torn_last_line(tmp_path: Path) -> None:
    (tmp_path / "steps.jsonl").write_text(json.dumps(STEPS[0]) + "\n" + '{"step": 2, "acti', encoding="utf-8")
    assert read_steps(tmp_path) == [STEPS[0]]
    assert read_steps(tmp_path / "missing") == []


def row(tid: str, level: int, app: str, su: int, so: int, steps: int, ref: int,
        **extra: Any) -> dict[str, Any]:
    return {"id": tid, "level": level, "app": app, "su": su, "su_oracle": so, "cr": 1.0 if su else 0.5,
            "re": steps / ref, "ps": 1.0 if su else 0.5, "steps": steps, "reference_steps": ref,
            "model_calls": steps, "prompt_tokens": 100 * steps, "completion_tokens": 10 * steps,
            "seconds": 2.0 * steps, **extra}


def test_summary_per_level_app_and_overall() -> None:
    rows = [row("a", 1, "notes", 1, 1, 4, 4), row("b", 1, "mail", 0, 1, 8, 4),
            row("c", 2, "notes", 0, 0, 6, 3), {**row("d", 2, "mail", 0, 0, 0, 5), "error": "crashed",
                                              "re": None}]
    s = summarize(rows)
    assert set(s) == {"overall", "by_level", "by_app", "by_feasibility", "by_loop"}
    assert list(s["by_feasibility"]) == ["feasible"] and s["by_feasibility"]["feasible"]["tasks"] == 4
    l1 = s["by_level"]["1"]
    assert l1["su"] == 0.5 and l1["su_oracle"] == 1.0 and l1["agreement"] == 0.5
    assert l1["re"] == pytest.approx(1.5) and l1["agent_steps"] == 6 and l1["reference_steps"] == 4
    assert l1["model_calls_per_step"] == 1.0 and l1["tokens_per_step"] == 110
    assert l1["seconds_per_step"] == 2.0
    l2 = s["by_level"]["2"]
    assert l2["tasks"] == 2 and l2["errors"] == 1 and l2["su"] == 0 and l2["cr"] == 0.25
    assert s["by_app"]["notes"]["su"] == 0.5 and s["overall"]["tasks"] == 4
    assert s["overall"]["agreement"] == pytest.approx(2 / 3, abs=1e-3)


def test_su_is_reported_for_feasible_and_infeasible_tasks_apart() -> None:
    # an agent that answers "infeasible" to everything: right on the infeasible task, wrong on the others
    rows = [row("a", 1, "clock", 0, 0, 1, 3, kind="data-entry"),
            row("b", 1, "clock", 0, 0, 1, 2, kind="edit"),
            row("c", 1, "clock", 1, 1, 1, 2, kind="infeasible"),
            row("d", 2, "notes", 1, 1, 1, 2, scenario="infeasible")]
    s = summarize(rows)["by_feasibility"]
    assert list(s) == ["feasible", "infeasible"]
    assert (s["feasible"]["tasks"], s["feasible"]["su"], s["feasible"]["su_oracle"]) == (2, 0.0, 0.0)
    assert (s["infeasible"]["tasks"], s["infeasible"]["su"], s["infeasible"]["su_oracle"]) == (2, 1.0, 1.0)


def test_summary_per_loop_with_satisfaction_score_and_early_ends() -> None:
    rows = [{**row("a", 1, "maps", 1, 1, 4, 4), "loop": "v1", "ss": 1.0, "termination": "completed"},
            {**row("b", 1, "maps", 0, 0, 9, 4), "loop": "v1", "ss": 0.5, "termination": "max_steps"},
            {**row("a", 1, "maps", 0, 0, 2, 4), "loop": "e", "ss": 0.25, "termination": "brain_error",
             "error": "model down"},
            {**row("b", 1, "maps", 1, 1, 4, 4), "loop": "e", "ss": 1.0, "termination": "completed"},
            {**row("c", 1, "maps", 1, 1, 4, 4), "ss": 1.0, "termination": "completed"}]  # before loops: v1
    s = summarize(rows)
    assert list(s["by_loop"]) == ["e", "v1"]
    v1, e = s["by_loop"]["v1"], s["by_loop"]["e"]
    assert (v1["tasks"], v1["ss"], v1["su"], v1["terminations"]) == (3, pytest.approx(2.5 / 3, abs=1e-3),
                                                                     pytest.approx(2 / 3, abs=1e-3),
                                                                     {"max_steps": 1})
    # an errored run met no rubric, whatever its row says
    assert (e["tasks"], e["ss"], e["su"], e["terminations"]) == (2, 0.5, 0.5, {"brain_error": 1})
    assert s["overall"]["terminations"] == {"brain_error": 1, "max_steps": 1}
