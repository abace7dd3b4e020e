"""Which rule a trace is verified against, chosen per trace and named in the verdict.

In order: the rule (or suite task) file the request names; the trace's own ``rule.yaml`` (a bench run's
trace); the suite task the recording started from (``run.json``'s ``start.task_file``); the shipped suite
task whose instruction is the trace's. Without any of them the request is refused, saying how to give one:
a previous trace's rule is never reused.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.rulefile import load_rule_file
from droidpilot.errors import DroidpilotError
from droidpilot.studio.errors import NotFound, StudioError
from droidpilot.studio.files import file_problem, read_json
from droidpilot.studio.inputs import shown, text_path
from droidpilot.verify.rule import Task


@dataclass(frozen=True)
class RuleChoice:
    """The rule, where it came from (given, trace, start, suite) and the words the verdict names it by."""

    rule: Task
    source: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "name": self.name}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


@functools.lru_cache(maxsize=1)
def _suite_index() -> dict[str, tuple[str, Path]]:
    """Instruction -> (suite/id, task file) over the shipped suites of fixed tasks (not templates)."""
    from droidpilot.bench.suite import SUITES_DIR, available_suites, load_suite
    from droidpilot.bench.world.template import is_template_suite

    index: dict[str, tuple[str, Path]] = {}
    for name in available_suites():
        if is_template_suite(SUITES_DIR / name):
            continue
        try:
            suite = load_suite(name)
        except DroidpilotError:
            continue
        for task in suite.tasks:
            index.setdefault(_norm(task.instruction), (f"{name}/{task.id}", task.path))
    return index


def _load(path: Path, source: str, name: str | None = None) -> RuleChoice:
    try:
        loaded = load_rule_file(path)
    except DroidpilotError as exc:
        raise StudioError(str(exc)) from None
    return RuleChoice(loaded.rule, source, name or loaded.name)


def choose_rule(trace: Path, rule: Any, instruction: str = "") -> RuleChoice:
    """The rule to verify ``trace`` against (``rule``: a path the page gave, or empty)."""
    if rule not in (None, ""):
        path = text_path(rule, "rule", "a rule or suite task file")
        problem = file_problem(path)
        if problem == "missing":
            raise NotFound(f"{shown(str(path))}: no such rule or suite task file")
        if problem is not None:
            raise StudioError(f"{path}: {problem}")
        return _load(path, "given")
    own = trace / "rule.yaml"
    if file_problem(own) is None:
        return _load(own, "trace", f"the trace's own rule.yaml ({own})")
    run = read_json(trace / "run.json")
    start = run.get("start") if isinstance(run, dict) else None
    task_file = start.get("task_file") if isinstance(start, dict) else None
    if isinstance(task_file, str) and task_file:
        return _load(Path(task_file), "start")
    found = _suite_index().get(_norm(instruction)) if instruction.strip() else None
    if found is not None:
        loaded = _load(found[1], "suite")
        return RuleChoice(loaded.rule, "suite", f"the rule of suite task {found[0]} (same instruction)")
    raise NotFound(f"{trace}: no rule for this trace (no rule.yaml, not started from a suite task, and its "
                   "instruction is no shipped suite task's); give a rule file or a suite task file")
