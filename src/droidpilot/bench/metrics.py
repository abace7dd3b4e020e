"""The benchmark's metrics: automatic versions of Mobile-Eval's Su, CR, RE and PS, plus Su-oracle.

Per task (``task_metrics``), from the trace's ``steps.jsonl``, the verifier's result and the oracle:

- **Su**: the agent ended the run itself (termination ``completed``: it said ``stop`` and the completion
  check agreed) *and* the verifier found a satisfying path of the rule (1/0). **Su-oracle**: the same
  termination *and* SimPhone's final ``state()`` satisfies the task's oracle (1/0; None on a phone without
  state). A run cut off by a limit (``max_steps``, ``max_model_calls``, ``time_budget``, repeated
  failures) or an error is never a success, even when the milestones happen to be on screen: the
  verdicts alone are kept as ``rule_ok`` / ``oracle_ok`` (and CR still credits the progress).
- **steps**: the agent's steps, every step it decided except ``stop`` (failed groundings and unparseable
  answers count: they cost a model call). **RE** = steps / reference steps (reported with the pair).
- **PS**: effective steps / steps. A step is effective when its action was grounded and executed, the
  screen changed (no reflection failure), and it did not undo progress: its screen afterwards is not one
  the run had already left (returning to an earlier screen undoes the steps in between), unless the step
  is ``exit`` / ``home``, which is how an agent switches to another app.
- **CR**: of the reference path (the rule's success path with the highest score), the score of the
  milestones the trace reached over the path's total; 1 when Su holds, as in the paper.

- **SS** (Satisfaction Score, Mobile-Eval-E): the share of the rule's milestones (a task's rubrics) the
  trace reached; an errored run met none.

``summarize`` averages them per level, per app, per agent loop, for feasible and infeasible tasks apart,
and overall, with model calls, tokens and seconds per step and how many runs ended early, and how.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from droidpilot.verify.explain import success_paths
from droidpilot.verify.rule import Task

METRIC_KEYS = ("su", "su_oracle", "cr", "re", "ps")
SWITCH_ACTIONS = ("exit", "home")  # going home to open another app is how agents switch apps, not an undo


def read_steps(trace: Path) -> list[dict[str, Any]]:
    """The step records of a trace (a torn last line, from a killed run, is skipped)."""
    path = Path(trace) / "steps.jsonl"
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def _action_name(record: Mapping[str, Any]) -> str:
    return str((record.get("action") or {}).get("name") or "")


def step_stats(records: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """``steps`` (all but ``stop``) and ``effective`` steps, as the module docstring defines them."""
    steps = effective = 0
    left: set[str] = set()
    for rec in records:
        if _action_name(rec) == "stop" or rec.get("by") == "person":  # a person's step is not the agent's
            continue
        if rec.get("phase") == "experience":  # the E loop's learning after the task is not a step
            continue
        steps += 1
        before, after = rec.get("screen_before"), rec.get("screen_after")
        reflection = rec.get("reflection") or {}
        executed = rec.get("outcome") == "ok" and not reflection.get("failed", False)
        undid = bool(after) and after in left and _action_name(rec) not in SWITCH_ACTIONS
        if executed and not undid:
            effective += 1
        if before and before != after:
            left.add(str(before))
    return {"steps": steps, "effective": effective}


def reference_path(task: Task) -> list[str]:
    """The success path with the highest total score (the first such path in the rule's order)."""
    scores = {n.id: float(n.score) for n in task.nodes}
    paths, _ = success_paths(task)
    if not paths:
        return [n.id for n in task.nodes]
    return max(paths, key=lambda p: sum(scores.get(n, 0.0) for n in p))


def completion_rate(task: Task, reached: Iterable[str], ok: bool) -> float:
    """CR: the score of reached reference-path milestones over the path's total (1.0 when ``ok``)."""
    if ok:
        return 1.0
    scores = {n.id: float(n.score) for n in task.nodes}
    path = reference_path(task)
    total = sum(scores.get(n, 0.0) for n in path)
    got = sum(scores.get(n, 0.0) for n in path if n in set(reached))
    return round(got / total, 4) if total else 0.0


SUCCESS_TERMINATION = "completed"


def task_metrics(task: Task, reference_steps: int, records: Sequence[Mapping[str, Any]],
                 verified_ok: bool, reached: Iterable[str], oracle_ok: bool | None,
                 termination: str = SUCCESS_TERMINATION) -> dict[str, Any]:
    """The metric fields of one task's result row (Su needs both the verdict and a ``completed`` end)."""
    stats = step_stats(records)
    steps = stats["steps"]
    finished = termination == SUCCESS_TERMINATION
    return {
        "su": int(verified_ok and finished),
        "su_oracle": None if oracle_ok is None else int(oracle_ok and finished),
        "rule_ok": int(verified_ok),
        "oracle_ok": None if oracle_ok is None else int(oracle_ok),
        "cr": completion_rate(task, reached, verified_ok),
        "re": round(steps / reference_steps, 4) if reference_steps else None,
        "ps": round(stats["effective"] / steps, 4) if steps else 0.0,
        "steps": steps,
        "effective_steps": stats["effective"],
        "reference_steps": reference_steps,
    }


def _mean(values: Iterable[Any]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return round(sum(vals) / len(vals), 4) if vals else None


def aggregate(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Means of the metrics over ``rows`` (errored tasks count as failures with no steps)."""
    done = [r for r in rows if not r.get("error")]
    steps = sum(int(r.get("steps") or 0) for r in done)
    calls = sum(int(r.get("model_calls") or 0) for r in rows)
    tokens = sum(int(r.get("prompt_tokens") or 0) + int(r.get("completion_tokens") or 0) for r in rows)
    seconds = sum(float(r.get("seconds") or 0.0) for r in rows)
    out: dict[str, Any] = {"tasks": len(rows), "errors": len(rows) - len(done)}
    for key in ("su", "su_oracle", "cr", "ps"):
        out[key] = _mean(0 if r.get("error") and key != "su_oracle" else r.get(key) for r in rows)
    # Satisfaction Score (share of rubric milestones met); an errored task met none
    out["ss"] = _mean(0 if r.get("error") else r.get("ss") for r in rows)
    out["re"] = _mean(r.get("re") for r in done)
    out["terminations"] = terminations(rows)
    out["agent_steps"] = _mean(r.get("steps") for r in done)
    out["reference_steps"] = _mean(r.get("reference_steps") for r in done)
    pairs = [(r.get("su"), r.get("su_oracle")) for r in done if r.get("su_oracle") is not None]
    out["agreement"] = _mean(int(a == b) for a, b in pairs) if pairs else None
    out["model_calls"] = calls
    out["tokens"] = tokens
    out["seconds"] = round(seconds, 2)
    out["model_calls_per_step"] = round(calls / steps, 3) if steps else None
    out["tokens_per_step"] = round(tokens / steps, 1) if steps else None
    out["seconds_per_step"] = round(seconds / steps, 3) if steps else None
    return out


def terminations(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many runs ended otherwise than ``completed``, per way they ended (``max_steps``,
    ``brain_error``, ...; an errored row without a termination counts as ``error``)."""
    counts: dict[str, int] = {}
    for r in rows:
        how = str(r.get("termination") or ("error" if r.get("error") else SUCCESS_TERMINATION))
        if how != SUCCESS_TERMINATION:
            counts[how] = counts.get(how, 0) + 1
    return dict(sorted(counts.items()))


def trial_stats(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """With K > 1 trials per task: pass@1 (the mean success rate per task), pass@K (the share of tasks
    solved in at least one trial), Su of each trial, and its spread (min, max, standard deviation)."""
    trials = max((int(r.get("trial") or 1) for r in rows), default=1)
    if trials <= 1:
        return None
    per_task: dict[str, list[int]] = {}
    per_trial: dict[int, list[int]] = {}
    for r in rows:
        su = 0 if r.get("error") else int(r.get("su") or 0)
        per_task.setdefault(str(r.get("id")), []).append(su)
        per_trial.setdefault(int(r.get("trial") or 1), []).append(su)
    su_trial = [round(sum(v) / len(v), 4) for _, v in sorted(per_trial.items())]
    mean = sum(su_trial) / len(su_trial)
    std = (sum((x - mean) ** 2 for x in su_trial) / (len(su_trial) - 1)) ** 0.5 if len(su_trial) > 1 else 0.0
    return {"k": trials, "tasks": len(per_task),
            "pass@1": round(sum(sum(v) / len(v) for v in per_task.values()) / len(per_task), 4),
            "pass@k": round(sum(1 for v in per_task.values() if any(v)) / len(per_task), 4),
            "su_per_trial": su_trial,
            "spread": {"min": min(su_trial), "max": max(su_trial), "std": round(std, 4)}}


def feasibility(row: Mapping[str, Any]) -> str:
    """``infeasible`` for a task that cannot be done (its success is saying so), else ``feasible``."""
    return "infeasible" if "infeasible" in (row.get("kind"), row.get("scenario")) else "feasible"


def summarize(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"overall", "by_level", "by_app", "by_feasibility", "by_loop"}``: the aggregate of all rows and of
    each level, app, agent loop (v1 | v2 | e; rows written before loops existed are v1), and of the
    feasible and the infeasible tasks apart (a run that answers "infeasible" to everything scores on the
    second only); with several trials per task also ``"trials"`` (``trial_stats`` overall and per level)."""
    by_level: dict[str, list[Mapping[str, Any]]] = {}
    by_app: dict[str, list[Mapping[str, Any]]] = {}
    by_feasibility: dict[str, list[Mapping[str, Any]]] = {}
    by_loop: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_loop.setdefault(str(row.get("loop") or "v1"), []).append(row)
        by_level.setdefault(str(row.get("level")), []).append(row)
        by_app.setdefault(str(row.get("app")), []).append(row)
        by_feasibility.setdefault(feasibility(row), []).append(row)
    out: dict[str, Any] = {
        "overall": aggregate(rows),
        "by_level": {k: aggregate(v) for k, v in sorted(by_level.items())},
        "by_app": {k: aggregate(v) for k, v in sorted(by_app.items())},
        "by_feasibility": {k: aggregate(by_feasibility[k]) for k in ("feasible", "infeasible")
                           if k in by_feasibility},
        "by_loop": {k: aggregate(v) for k, v in sorted(by_loop.items())},
    }
    overall = trial_stats(rows)
    if overall is not None:
        out["trials"] = {"overall": overall,
                         "by_level": {k: trial_stats(v) for k, v in sorted(by_level.items())}}
    return out
