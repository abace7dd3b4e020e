"""Forbidden milestones (``success.none_of``): a run that meets one after its parents fails, whatever else it
reached; before its parents, or in a run without it, nothing changes. Their rule errors name line and node."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from droidpilot.verify.engine import verify
from droidpilot.verify.spec import RuleError, load_rule_text

RULE = """\
task_id: delete-alarm
nodes:
  - id: opened
    condition: {type: xml_text_match, params: {all: [Will ring]}}
  - id: deleted
    deps: [opened]
    condition: {type: xml_text_match, params: {all: [Alarm deleted]}}
  - id: second_delete
    name: another alarm deleted
    deps: [deleted]
    score: 0
    condition: {type: action_match, params: {type: click, exact: Delete alarm}}
success: {any_of: [deleted], none_of: [second_delete]}
"""


def frame(*labels: str, tap: str = "") -> dict[str, Any]:
    nodes = "".join(f'<node index="{i}" text="{t}" class="android.widget.TextView" package="p" '
                    f'content-desc="" bounds="[0,{i * 50}][500,{i * 50 + 40}]" />'
                    for i, t in enumerate(labels))
    return {"text": "", "xml": f'<hierarchy rotation="0">{nodes}</hierarchy>',
            "action": {"type": "click", "text": tap}}


RIGHT = [frame("07:30", "Will ring", tap="Delete alarm"), frame("Alarms", "Alarm deleted", tap="Back")]


@pytest.fixture(scope="module")
def rule() -> Any:
    task = load_rule_text(RULE, source="rule.yaml")
    assert task.warnings == []  # a forbidden node leads to no success by design: no dead-end warning
    return task


def test_the_right_run_passes_with_full_score(rule: Any) -> None:
    result = verify(rule, RIGHT)
    assert result.ok and result.total_score == result.max_score == 20


def test_a_second_delete_after_the_first_fails_naming_the_node(rule: Any) -> None:
    more = [*RIGHT, frame("08:45", "Will ring", tap="Delete alarm"), frame("Alarms", "Alarm deleted")]
    result = verify(rule, more)
    assert not result.ok and not result.manual_review_needed
    assert "forbidden milestone met: second_delete (another alarm deleted) at frame 3 action" in result.reason


@pytest.mark.parametrize("tap", ["Delete alarms", "Undo delete alarm", "Delete"])
def test_a_tap_on_another_button_is_no_breach(rule: Any, tap: str) -> None:
    assert verify(rule, [*RIGHT, frame("Alarms", tap=tap)]).ok


def test_the_same_action_before_the_watch_starts_is_no_breach(rule: Any) -> None:
    tried = [frame("07:30", "Will ring", tap="Delete alarm"), frame("07:30", "Will ring", tap="Delete alarm"),
             frame("Alarms", "Alarm deleted")]
    assert verify(rule, tried).ok


def test_a_failing_run_stays_failed_with_its_own_reason(rule: Any) -> None:
    result = verify(rule, [frame("07:30", "Will ring", tap="Delete alarm")])
    assert not result.ok and "never met: deleted" in result.reason


def test_a_root_forbidden_node_is_watched_from_the_start() -> None:
    text = RULE.replace("    deps: [deleted]\n    score: 0", "    score: 0")
    task = load_rule_text(text, source="rule.yaml")
    early = [frame("Alarms", tap="Delete alarm"), *RIGHT]
    assert not verify(task, early).ok
    assert verify(load_rule_text(RULE, source="rule.yaml"), early).ok


def test_an_undecided_forbidden_check_asks_for_review_and_keeps_the_verdict() -> None:
    text = RULE.replace("{type: action_match, params: {type: click, exact: Delete alarm}}",
                        "{type: ocr_match, params: {all: [Alarm deleted]}}")
    later = [*RIGHT, frame("Alarms")]  # no screenshot, no OCR: undecided at frame 2
    result = verify(load_rule_text(text, source="rule.yaml"), later)
    assert result.ok and result.manual_review_needed
    assert "undecided checks could mean forbidden milestone met: second_delete" in result.reason


def problems(text: str) -> list[tuple[int | None, str | None, str]]:
    with pytest.raises(RuleError) as err:
        load_rule_text(textwrap.dedent(text), source="rule.yaml")
    return [(p.line, p.node, p.message) for p in err.value.problems]


def test_none_of_needs_success_targets_and_cannot_forbid_one() -> None:
    assert problems("""\
        nodes:
          - id: a
        success: {none_of: [a]}
        """) == [(3, None, "success gives none_of without any_of or all_of")]
    assert problems("""\
        nodes:
          - id: a
          - id: b
        success:
          any_of: [a]
          none_of: [a, c]
        """) == [(6, None, "success.none_of names 'c', which is not a node"),
                 (6, "a", "node 'a' is both a success target and forbidden (none_of)")]


def test_a_forbidden_sink_is_not_taken_for_success_when_success_is_implicit() -> None:
    text = "nodes:\n  - id: a\n  - id: b\n    deps: [a]\nsuccess: {none_of: [b], any_of: [a]}\n"
    task = load_rule_text(text, source="rule.yaml")
    assert task.sinks() == [] and task.success_targets() == ("any", ["a"])
