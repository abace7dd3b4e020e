"""``avdag.loader``: load and validate a rule file (YAML or JSON) into a Task."""

from __future__ import annotations

from pathlib import Path

from droidpilot.verify.rule import Task
from droidpilot.verify.spec import load_rule


def load_task(path: str | Path) -> Task:
    """Load the rule at ``path``; raises droidpilot's InputError (a RuleError) naming what is wrong."""
    return load_rule(path)


__all__ = ["load_task"]
