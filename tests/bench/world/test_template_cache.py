"""The per-process template cache: a change one caller makes to its templates or tasks reaches no other
caller, an edited file is read afresh even at the same size and time stamp, and a bad suite is never kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from droidpilot.bench.suite import SuiteError, load_suite, suite_folder
from droidpilot.bench.world import template_cache
from droidpilot.bench.world.template import load_templates

ONE = """app: clock
templates:
  - id: clock-one
    kind: data-entry
    params:
      when: {type: choice, of: ["%s", "08:00"]}
    instruction: "Set an alarm at {when}."
    setup: {state: {clock.alarms: [{time: "06:00", label: Early}]}}
    reference: ["open App (Clock)"]
    oracle: {path: clock.alarms, length_at_least: 1}
    checkpoints: [["Alarms"]]
"""


def _suite(folder: Path, when: str = "07:00") -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    (folder / "clock.yaml").write_text(ONE % when, encoding="utf-8")
    return folder


def test_changing_a_loaded_template_changes_no_other_callers_templates() -> None:
    folder = suite_folder("world")
    first = load_templates(folder)
    pristine = load_templates(folder)
    victim = first[0]
    victim.id = "changed"
    victim.apps.append("nowhere")
    victim.checkpoints[0].append("Nowhere")
    victim.params["injected"] = {"type": "const", "value": 1}
    victim.oracle["injected"] = True
    victim.setup.setdefault("state", {})["injected"] = [1]
    victim.reference.clear()
    victim.answer_type = {"type": "count"}
    again = load_templates(folder)
    assert again == pristine and again[0] is not pristine[0]
    assert again[0].id != "changed" and "nowhere" not in again[0].apps and again[0].reference
    # what the cache keeps equals a cold read of the files
    template_cache.clear()
    assert load_templates(folder) == pristine


def test_changing_a_drawn_task_changes_no_later_draw() -> None:
    (task,) = load_suite("world", seed=2, templates="clock-label").tasks
    before = (task.instruction, repr(task.params), repr(task.setup), repr(task.oracle))
    for value in task.params.values():
        if isinstance(value, list):
            value.append("injected")
    task.setup.clear()
    task.oracle.clear()
    task.params["injected"] = 1
    (again,) = load_suite("world", seed=2, templates="clock-label").tasks
    assert (again.instruction, repr(again.params), repr(again.setup), repr(again.oracle)) == before


def test_an_edited_file_is_read_afresh_even_with_the_same_size_and_time(tmp_path: Path) -> None:
    folder = _suite(tmp_path / "s", "07:00")
    path = folder / "clock.yaml"
    stamp = path.stat()
    assert load_templates(folder)[0].params["when"]["of"][0] == "07:00"
    path.write_text(ONE % "09:00", encoding="utf-8")  # same length
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert path.stat().st_size == stamp.st_size and path.stat().st_mtime_ns == stamp.st_mtime_ns
    assert load_templates(folder)[0].params["when"]["of"][0] == "09:00"


def test_a_bad_suite_is_reported_on_every_load_and_a_fixed_one_loads(tmp_path: Path) -> None:
    folder = _suite(tmp_path / "s")
    path = folder / "clock.yaml"
    path.write_text(ONE.replace("kind: data-entry", "kind: chores"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SuiteError, match=r"clock.yaml:3: template 'clock-one' field 'kind'"):
            load_templates(folder)
    path.write_text(ONE % "07:00", encoding="utf-8")
    assert [t.id for t in load_templates(folder)] == ["clock-one"]


def test_progress_reaches_every_file_cold_and_warm(tmp_path: Path) -> None:
    folder = _suite(tmp_path / "s")
    (folder / "more.yaml").write_text(ONE.replace("clock-one", "clock-two"), encoding="utf-8")
    template_cache.clear()
    for _ in range(2):  # parsed, then from the cache
        seen: list[int] = []
        assert [t.id for t in load_templates(folder, on_file=seen.append)] == ["clock-one", "clock-two"]
        assert sum(seen) == 2


def test_copies_share_no_list_or_mapping_at_any_depth() -> None:
    value = {"a": [1, {"b": [2, 3]}], "c": "text", "d": (4, 5)}
    copied = template_cache.copy_plain(value)
    assert copied == value
    assert copied is not value and copied["a"] is not value["a"]
    assert copied["a"][1]["b"] is not value["a"][1]["b"]
    assert copied["d"] is value["d"]  # immutable values are shared


def test_the_cache_keeps_a_bounded_number_of_folders(tmp_path: Path) -> None:
    template_cache.clear()
    for k in range(template_cache.FOLDERS_KEPT + 3):
        load_templates(_suite(tmp_path / f"s{k}"))
    assert len(template_cache._cache) == template_cache.FOLDERS_KEPT
