"""A rule given as a file: a rule file, or a suite task file whose rule: is meant (``droidpilot verify``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.recorded import VIEW, record

from droidpilot.bench.rulefile import load_rule_file
from droidpilot.bench.suite import load_task, suite_folder
from droidpilot.errors import InputError
from droidpilot.taskfile import is_task_file

NOTES_2 = suite_folder("mobile-eval") / "notes-2.yaml"


def test_a_suite_task_file_gives_its_own_rule(tmp_path: Path) -> None:
    loaded = load_rule_file(NOTES_2)
    assert loaded.task_id == "notes-2"
    assert [n.id for n in loaded.rule.nodes] == ["notes_list", "editor", "saved"]
    assert loaded.name.startswith("the rule of suite task notes-2")
    rule = tmp_path / "rule.yaml"
    rule.write_text(load_task(NOTES_2).rule_text)  # the same rule written as a rule file
    assert not is_task_file(rule)
    assert [n.id for n in load_rule_file(rule).rule.nodes] == ["notes_list", "editor", "saved"]


def test_near_misses_are_read_as_rules_and_refused_by_the_rule_loader(tmp_path: Path) -> None:
    almost = tmp_path / "almost.yaml"
    almost.write_text("instruction: Do it.\nnodes: []\n")  # a task key, but no rule:
    assert not is_task_file(almost)
    with pytest.raises(InputError, match="the rule has no nodes"):
        load_rule_file(almost)
    broken = tmp_path / "broken.yaml"
    broken.write_text("instruction: [\n")
    assert not is_task_file(broken)
    with pytest.raises(InputError, match=r"broken\.yaml"):
        load_rule_file(broken)


@pytest.mark.slow
def test_droidpilot_verify_accepts_a_suite_task_file(tmp_path: Path) -> None:
    record(tmp_path / "demo", "Write a note.", [
        {"op": "open_app", "app": "Notes"}, {"op": "click", "x": 935, "y": 2120, **VIEW},
        {"op": "type", "text": "Hello, this is a note"}, {"op": "click", "x": 984, "y": 188, **VIEW}])
    done = subprocess.run([sys.executable, "-m", "droidpilot", "verify", str(NOTES_2), str(tmp_path / "demo"),
                           "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr + done.stdout
    assert json.loads(done.stdout)["ok"] is True
