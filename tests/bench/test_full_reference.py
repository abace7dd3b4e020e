"""The suites' own sanity check on a sample: the reference brain passes one task per scenario of every
shipped suite of task files (levels rotating) on both the oracle and the rule, every step grounded and
carried out (two SimPhones). benchmarks/suite_reference.py runs the same check on every task and prints
each task's problems.

Mobile-Eval-E is left to tests/bench/test_mobile_eval_e.py, which plays a reference sample of its own
(two scenarios, both levels, every step carried out, with the Satisfaction Score): its tasks are the
longest of the fixed suites, and a second sample here doubled what a fresh machine reads by OCR.

Mobile-Eval is sampled narrower, three of its eleven scenarios (one per level): a task per scenario was 58
steps, about 150 s of OCR on a fresh machine (its screens are read nowhere else), the slowest test of a
cold `make test`. The three give multi-1 (two apps; test_cli_loops plays it too, so most of its screens
are read once), music-2 and settings-3. The other scenarios' tasks are played by
benchmarks/suite_reference.py (`--suites mobile-eval`), which prints each one's problems."""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType

import pytest
from tests.support.benchmarks import load_benchmark

from droidpilot.bench.suite import BenchTask, load_suite


def _check() -> ModuleType:
    """benchmarks/suite_reference.py (not a package), which holds the sample and the check."""
    return load_benchmark("suite_reference")


CHECK = _check()


# suite -> the scenarios its sample here is narrowed to (see the module docstring); others: every scenario
NARROWED = {"mobile-eval": ["multi-app", "music", "settings"]}


@functools.cache
def _tasks(suite: str) -> tuple[BenchTask, ...]:
    return tuple(load_suite(suite).tasks)


def _sample(suite: str) -> list[str]:
    return CHECK.sample(_tasks(suite), NARROWED.get(suite))


def test_the_sample_has_every_level_and_every_scenario_unless_narrowed() -> None:
    for suite in CHECK.fixed_suites():
        tasks, ids = _tasks(suite), set(_sample(suite))
        chosen = [t for t in tasks if t.id in ids]
        assert {t.level for t in chosen} == {t.level for t in tasks}, suite
        want = set(NARROWED.get(suite) or {t.scenario for t in tasks})
        assert {t.scenario for t in chosen} == want and len(chosen) == len(want), suite
    ids = set(_sample("mobile-eval"))
    multi = [t for t in _tasks("mobile-eval") if t.id in ids and len(t.apps) > 1]
    assert len(multi) == 1, "the narrowed Mobile-Eval sample keeps a task that goes between two apps"


def test_a_narrowing_to_a_scenario_no_task_has_is_refused() -> None:
    """A misspelt scenario would silently shrink the sample: it is an error naming the scenarios there are."""
    tasks = _tasks("mobile-eval")
    with pytest.raises(ValueError, match=r"'multi app'.*'multi-app'"):
        CHECK.sample(tasks, ["mail", "multi app"])
    assert CHECK.sample(tasks, ["settings", "mail"]) == CHECK.sample(tasks, ["mail", "settings"])


# world: tests/bench/world; mobile-eval-e: tests/bench/test_mobile_eval_e.py (see the module docstring)
PLAYED_HERE = [s for s in CHECK.fixed_suites() if s != "mobile-eval-e"]
assert len(PLAYED_HERE) == len(CHECK.fixed_suites()) - 1, "mobile-eval-e is no longer a fixed suite"


@pytest.mark.slow
@pytest.mark.parametrize("suite", PLAYED_HERE)
def test_reference_passes_a_sample_of_every_suite(suite: str, tmp_path: Path) -> None:
    ids = _sample(suite)
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
    assert "settings-2: 1 steps for a reference of 3" in found, found
    assert any(line.startswith("overall su = ") for line in found), found
