"""Telling a suite task file from a rule file without loading either (droidpilot verify's cold path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.bench.suite import suite_folder
from droidpilot.taskfile import is_task_file


def test_a_shipped_task_file_is_one() -> None:
    assert is_task_file(suite_folder("mobile-eval") / "notes-2.yaml")


@pytest.mark.parametrize(("name", "text"), [
    ("rule.yaml", "task_id: t\nnodes: []\n"),  # a rule
    ("half.yaml", "rule: {task_id: t, nodes: []}\n"),  # rule: but no instruction
    ("list.yaml", "- instruction: x\n  rule: {}\n"),  # the keys, in a list
    ("task.json", '{"instruction": "x", "rule": {}}'),  # JSON: rules only
    ("bad.yaml", "instruction: [\n"),  # unreadable: the rule loader reports it
])
def test_near_misses_are_not_task_files(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert not is_task_file(path)
    assert not is_task_file(tmp_path / "missing.yaml")
