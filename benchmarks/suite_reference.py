"""The fixed suites' sanity check in full: the reference brain passes every task of every shipped suite of
task files on the oracle and the rule, grounding and carrying out every reference step (two SimPhones).
tests/bench/test_full_reference.py runs the same check on a sample (one task per scenario, levels rotating;
of Mobile-Eval only three scenarios, and Mobile-Eval-E's sample is tests/bench/test_mobile_eval_e.py's), so
the tasks the tests leave out are checked, and their problems printed, only here.

    .venv/bin/python benchmarks/suite_reference.py [--suites mobile-eval,mobile-eval-e,mobiflow-zh]

Prints one line per suite (tasks, wall seconds, problems) and each problem; exits 1 when any.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from droidpilot.bench.metrics import read_steps
from droidpilot.bench.runner import RunOutcome, run_suite
from droidpilot.bench.suite import BenchTask, available_suites, suite_folder
from droidpilot.bench.worker import RunConfig
from droidpilot.bench.world.template import is_template_suite

REVISITING = {"mobile-eval-e"}  # suites whose references go back to a screen to compare the next item


def fixed_suites() -> list[str]:
    """The shipped suites of task files (the world suite's templates are checked by tests/bench/world)."""
    return [s for s in available_suites() if not is_template_suite(suite_folder(s))]


def sample(tasks: Sequence[BenchTask], scenarios: Sequence[str] | None = None) -> list[str]:
    """One task per scenario (in task file order), the level rotating over the scenarios so that every
    level a suite has is in the sample when it has as many scenarios as levels. ``scenarios`` narrows the
    sample to those (ValueError naming any the tasks do not have)."""
    levels = sorted({t.level for t in tasks})
    have = {t.scenario for t in tasks}
    unknown = sorted(set(scenarios or ()) - have)
    if unknown:
        raise ValueError(f"no task has the scenario(s) {', '.join(map(repr, unknown))}; the tasks' "
                         f"scenarios are {', '.join(map(repr, sorted(have)))}")
    scenarios = sorted(set(scenarios) if scenarios is not None else have)
    chosen = []
    for i, scenario in enumerate(scenarios):
        mine = [t for t in tasks if t.scenario == scenario]
        want = levels[i % len(levels)]
        chosen.append(next((t for t in mine if t.level == want), mine[0]).id)
    return chosen


def run_reference(suite: str, out: Path, task_ids: list[str] | None = None) -> RunOutcome:
    """The reference brain on ``suite`` (or its ``task_ids``) with two SimPhones, written under ``out``."""
    return run_suite(RunConfig(suite=suite, brain="reference", out=out), ["sim", "sim"], task_ids=task_ids)


def problems(suite: str, outcome: RunOutcome, out: Path) -> list[str]:
    """What keeps a reference run from being a clean pass: a task failing rule or oracle, taking other than
    its reference's steps, meeting less than every rubric or left for manual review, a summary figure
    below 1, a reference step not grounded or not carried out (a page-down at a list's end leaves it
    unchanged). PS also counts a return to a screen the run left as undoing progress, which Mobile-Eval-E's
    comparisons (open a place, back, open the next) do by design."""
    found = [f"{r['id']}: su={r['su']} su_oracle={r['su_oracle']} ({r.get('error') or r.get('reason')})"
             for r in outcome.rows if not (r["su"] == 1 and r["su_oracle"] == 1)]
    # per task what the overall figures could average away (tests/bench/test_mobile_eval_e.py's checks)
    found += [f"{r['id']}: {r.get('steps')} steps for a reference of {r.get('reference_steps')}"
              for r in outcome.rows if r.get("re") != 1]
    found += [f"{r['id']}: satisfaction score {r['ss']}, not 1.0" for r in outcome.rows
              if r.get("ss") is not None and r["ss"] != 1]
    found += [f"{r['id']}: left for manual review" for r in outcome.rows if r.get("manual_review_needed")]
    overall = outcome.document["summary"]["overall"]
    for key in ("su", "su_oracle", "cr", "re") + (() if suite in REVISITING else ("ps",)):
        if overall[key] != 1.0:
            found.append(f"overall {key} = {overall[key]}, not 1.0")
    records = [(trace.parent.name, rec) for trace in out.rglob("steps.jsonl")
               for rec in read_steps(trace.parent)
               if (rec.get("action") or {}).get("name") != "stop" and rec.get("phase") != "experience"]
    if not records:
        found.append("no step records")
    found += [f"{task} step {rec.get('step')}: outcome {rec.get('outcome')!r}" for task, rec in records
              if rec.get("outcome") not in ("ok", "unchanged")]
    return found


def main() -> int:
    """Run every task of each requested suite and print its problems."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", default=",".join(fixed_suites()))
    args = parser.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory(prefix="suite-reference-") as tmp:
        for suite in (s for s in args.suites.split(",") if s):
            out = Path(tmp) / suite
            outcome = run_reference(suite, out)
            found = problems(suite, outcome, out)
            bad += len(found)
            print(f"{suite}: {len(outcome.rows)} tasks, {outcome.seconds:.1f} s, {len(found)} problem(s)",
                  flush=True)
            for line in found:
                print(f"  {line}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
