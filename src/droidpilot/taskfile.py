"""Tell a suite task file from a rule file without loading either: a task file is a YAML mapping holding
``instruction`` and ``rule`` (the rule nested in it). Cheap on purpose: ``droidpilot verify`` asks it on its
cold path, and imports the benchmark's loader only for a task file."""

from __future__ import annotations

from pathlib import Path

import yaml

from droidpilot.datalimits import DataLimitError, check_yaml
from droidpilot.pathcheck import file_problem

TASK_KEYS = ("instruction", "rule")


def is_task_file(path: Path) -> bool:
    """Does ``path`` hold a suite task (a mapping with ``instruction`` and ``rule``) rather than a rule?"""
    if path.suffix.lower() not in (".yaml", ".yml") or file_problem(path) is not None:
        return False
    try:
        text = path.read_text(encoding="utf-8-sig")
        check_yaml(text)
        data = yaml.safe_load(text)
    except (OSError, UnicodeDecodeError, DataLimitError, yaml.YAMLError):
        return False  # not readable as a task: the rule loader says what is wrong with it
    return isinstance(data, dict) and all(key in data for key in TASK_KEYS)
