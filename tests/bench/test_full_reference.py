"""The suites' own sanity check on a sample: the reference brain passes one task per scenario of every
shipped suite of task files (levels rotating) on both the oracle and the rule, every step grounded and
carried out (two SimPhones). benchmarks/suite_reference.py runs the same check on every task.

Mobile-Eval-E is left to tests/bench/test_mobile_eval_e.py, which plays a reference sample of its own
(three scenarios, both levels, every step carried out, with the Satisfaction Score): its tasks are the
longest of the fixed suites, and a second sample here doubled what a fresh machine reads by OCR."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from tests.support.benchmarks import load_benchmark

from droidpilot.bench.suite import load_suite


def _check() -> ModuleType:
    """benchmarks/suite_reference.py (not a package), which holds the sample and the check."""
    return load_benchmark("suite_reference")


CHECK = _check()


def test_the_sample_has_every_scenario_and_level() -> None:
    for suite in CHECK.fixed_suites():
        tasks = load_suite(suite).tasks
        chosen = [t for t in tasks if t.id in set(CHECK.sample(tasks))]
        assert {t.scenario for t in chosen} == {t.scenario for t in tasks}, suite
        assert {t.level for t in chosen} == {t.level for t in tasks}, suite


# world: tests/bench/world; mobile-eval-e: tests/bench/test_mobile_eval_e.py (see the module docstring)
PLAYED_HERE = [s for s in CHECK.fixed_suites() if s != "mobile-eval-e"]
assert len(PLAYED_HERE) == len(CHECK.fixed_suites()) - 1, "mobile-eval-e is no longer a fixed suite"


@pytest.mark.slow
@pytest.mark.parametrize("suite", PLAYED_HERE)
def test_reference_passes_a_sample_of_every_suite(suite: str, tmp_path: Path) -> None:
    ids = CHECK.sample(load_suite(suite).tasks)
    outcome = CHECK.run_reference(suite, tmp_path, ids)
    assert sorted(r["id"] for r in outcome.rows) == sorted(ids)
    found = CHECK.problems(suite, outcome, tmp_path)
    assert not found, found


def test_a_run_cut_short_is_a_problem(tmp_path: Path) -> None:
    """The check itself, on a run it must reject: the reference brain cut short (a step limit of 1)."""
    from droidpilot.bench.runner import run_suite
    from droidpilot.bench.worker import RunConfig

    outcome = run_suite(RunConfig(suite="mobile-eval", brain="reference", out=tmp_path, max_steps=1), ["sim"],
                        task_ids=["settings-2"])
    found = CHECK.problems("mobile-eval", outcome, tmp_path)
    assert any(line.startswith("settings-2: su=0") for line in found), found
    assert any(line.startswith("overall su = ") for line in found), found
