"""Every shipped task file is valid; bad task files fail with the file, line and field named."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.agent.actions import parse_action
from droidpilot.bench.suite import SuiteError, available_suites, load_suite, load_task
from droidpilot.device.sim.phone import SimDevice

SCREEN_SUBS = {"ocr", "ocr_match", "icons", "icons_match", "xml", "xml_text_match", "ui", "ui_flag"}
SCREEN_TYPES = {"ocr_match", "icons_match", "xml_text_match", "ui_flag"}


@pytest.fixture(scope="module")
def sim_apps() -> dict[str, str]:
    return {app.name: app.label for app in SimDevice().apps()}


def test_shipped_suites() -> None:
    assert {"mobile-eval", "mobiflow-zh"} <= set(available_suites())
    suite = load_suite("mobile-eval")
    assert len(suite.tasks) == 33
    scenarios = {t.scenario for t in suite.tasks}
    assert len(scenarios) == 11
    for scenario in scenarios:
        assert sorted(t.level for t in suite.tasks if t.scenario == scenario) == [1, 2, 3], scenario
    assert any(len(t.apps) > 1 for t in suite.tasks)
    assert len(load_suite("mobiflow-zh").tasks) >= 3


@pytest.mark.parametrize("suite_name", ["mobile-eval", "mobiflow-zh"])
def test_every_task_is_usable(suite_name: str, sim_apps: dict[str, str]) -> None:
    for task in load_suite(suite_name).tasks:
        where = f"{task.path.name}"
        assert set(task.apps) <= set(sim_apps), where
        labels = {sim_apps[a].lower() for a in task.apps}
        for op in task.reference:
            action = parse_action(op.action)
            if action.name == "open_app":
                assert (action.text or "").lower() in labels, f"{where}: {op.action} opens an app not in apps"
        assert task.rule.task_id == task.id and not task.rule.warnings, where
        for node in task.rule.nodes:
            cond = node.condition
            if cond is None:  # a join: passes through once all its deps hold
                assert len(node.deps) >= 2, f"{where}: node {node.id} has no condition"
                continue
            if cond.type in ("escalate", "juxtaposition"):
                subs = {k for k in cond.params if k != "escalation_order"}
                assert subs and subs <= SCREEN_SUBS, f"{where}: node {node.id} reads {subs - SCREEN_SUBS}"
            else:
                assert cond.type in SCREEN_TYPES, f"{where}: node {node.id} uses {cond.type}"


GOOD = """id: demo-1
scenario: settings
level: 1
apps: [settings]
instruction: Turn on the dark mode.
reference:
  - open App (Settings)
  - {action: click text (Dark mode), choose: 1}
oracle:
  all:
    - {path: settings.dark_mode, equals: true}
rule:
  task_id: demo-1
  nodes:
    - id: shown
      condition:
        type: escalate
        params:
          ocr: {all: [Dark mode]}
"""


def _write(tmp_path: Path, text: str, name: str = "demo-1.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_loads(tmp_path: Path) -> None:
    task = load_task(_write(tmp_path, GOOD))
    assert task.reference[1].choose == 1 and task.reference[1].action == "click text (Dark mode)"
    assert task.step_limit() >= 10 and task.app == "settings"


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("level: 1", "level: 4", "demo-1.yaml:3: field 'level': 4 is not 1, 2 or 3"),
    ("apps: [settings]", "apps: [settings]\ninstrction: x",
     "field 'instrction': unknown field — did you mean "
                                                           "'instruction'?"),
    ("instruction: Turn on the dark mode.\n", "", "missing field 'instruction'"),
    ("  - open App (Settings)", "  - fly (to the moon)", "demo-1.yaml:7: field 'reference[0]'"),
    ("  - open App (Settings)", "  - stop", "'stop' is implied"),
    ("{path: settings.dark_mode, equals: true}", "{path: settings.dark_mode, equal: true}",
     "field 'oracle': oracle.all[0]: unknown operator 'equal'"),
    ("ocr: {all: [Dark mode]}", "ocrr: {all: [Dark mode]}",
     "demo-1.yaml:19: node 'shown': rule: escalate has an unknown sub-checker 'ocrr'"),
    ("id: demo-1\n", "id: other\n", "differs from the file name"),
    ("level: 1", "level: [1", "not valid YAML"),
])
def test_bad_files_name_file_line_and_field(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(SuiteError) as info:
        load_task(path)
    assert expected in str(info.value)


def test_suite_errors(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="no suite 'nope'"):
        load_suite("nope")
    with pytest.raises(SuiteError, match="no task files"):
        load_suite(str(tmp_path))
    _write(tmp_path, GOOD)
    suite = load_suite(str(tmp_path))
    with pytest.raises(SuiteError, match="did you mean 'demo-1'"):
        suite.select(["demo-2"])


@pytest.mark.parametrize(("queries", "ok"),
                         [(["caps"], True), (["Cap"], True), (["capsule"], False), ([], False)])
def test_the_caps_search_takes_the_word_searched_whole(queries: list[str], ok: bool) -> None:
    # `contains` holds whole words, so the task asking for "caps" names the words it accepts
    from droidpilot.bench.oracle import evaluate

    task = next(t for t in load_suite("mobile-eval").tasks if t.id == "shop-1")
    assert evaluate(task.oracle, {"shop": {"queries": queries}}).ok is ok
