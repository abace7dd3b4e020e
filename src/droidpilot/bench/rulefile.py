"""A rule given as a file: a MobiFlow rule file, or a suite task file whose ``rule:`` is the one meant.

``droidpilot verify notes-2.yaml TRACE`` and the studio's review accept either; a suite task file is told
apart by its task keys (``instruction`` and ``rule``), and its rule is judged exactly as the benchmark
judges it (``load_task``), so the two can never disagree about which rule a task has.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from droidpilot.taskfile import is_task_file
from droidpilot.verify.rule import Task


@dataclass(frozen=True)
class RuleFile:
    """The rule loaded from a file, and how a verdict names it."""

    rule: Task
    name: str
    task_id: str | None = None


def load_rule_file(path: str | Path) -> RuleFile:
    """The rule in ``path`` (InputError from the loader naming the file, line and fix)."""
    path = Path(path)
    if is_task_file(path):
        from droidpilot.bench.suite import load_task

        task = load_task(path)
        return RuleFile(task.rule, f"the rule of suite task {task.id} ({path})", task.id)
    from droidpilot.verify.spec import load_rule

    return RuleFile(load_rule(path), f"rule file {path}")
