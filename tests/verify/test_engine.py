"""The search's semantics on hand-made DAGs: events, joins, pass-through nodes, laziness, tri-state."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from droidpilot.errors import InputError
from droidpilot.verify.checkers.base import ConditionChecker, register_condition
from droidpilot.verify.engine import verify
from droidpilot.verify.frame import Frame
from droidpilot.verify.rule import Condition, Node, Success, Task

SEEN: list[tuple[str, int, str]] = []


@register_condition("t_screen")
class ScreenIs(ConditionChecker):
    """Holds at the screen event when ``frame.ui["screen"]`` equals ``params["is"]``; ``?`` is undecided."""

    reads = "screen"

    def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> Any:
        SEEN.append((params["is"], frame.index, "screen"))
        value = frame.ui.get("screen")
        return None if value == "?" else value == params["is"]


@register_condition("t_action")
class ActionIs(ConditionChecker):
    """Holds at the action event when the action's type equals ``params["type"]``."""

    reads = "action"

    def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> Any:
        SEEN.append((params["type"], frame.index, "action"))
        return (frame.action or {}).get("type") == params["type"]


@register_condition("t_crash")
class Crash(ConditionChecker):
    def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> Any:
        raise RuntimeError("boom")


def on(name: str) -> Condition:
    return Condition(type="t_screen", params={"is": name})


def act(kind: str) -> Condition:
    return Condition(type="t_action", params={"type": kind})


def trace(*steps: tuple[str, str | None]) -> list[Frame]:
    """Frames from (screen name, action type) pairs."""
    return [Frame(index=i, ui={"screen": s}, action={"type": a} if a else None)
            for i, (s, a) in enumerate(steps)]


def rule(*nodes: Node, any_of: list[str] | None = None, all_of: list[str] | None = None) -> Task:
    success = Success(any_of=any_of, all_of=all_of) if (any_of or all_of) else None
    return Task(task_id="t", nodes=list(nodes), success=success)


@pytest.fixture(autouse=True)
def _clear_seen() -> None:
    SEEN.clear()


def pairs(result: Any) -> list[tuple[str, int]]:
    return [tuple(m) for m in result.matched]


def test_screen_and_action_of_one_step_satisfy_a_two_node_chain() -> None:
    task = rule(Node(id="search_page", next=["typed"], condition=on("search")),
                Node(id="typed", condition=act("input")))
    result = verify(task, trace(("search", "input")))
    assert result.ok
    assert pairs(result) == [("search_page", 0), ("typed", 0)]
    assert [m.event for m in result.matched] == ["screen", "action"]


def test_two_screen_milestones_cannot_share_one_screenshot() -> None:
    task = rule(Node(id="a", next=["b"], condition=on("home")), Node(id="b", condition=on("home")))
    assert not verify(task, trace(("home", None))).ok
    assert pairs(verify(task, trace(("home", None), ("home", None)))) == [("a", 0), ("b", 1)]


def test_a_parent_matching_again_later_does_not_push_its_child_past_a_valid_frame() -> None:
    task = rule(Node(id="a", next=["b"], condition=on("list")), Node(id="b", condition=act("click")))
    result = verify(task, trace(("list", None), ("list", "click"), ("list", None)))
    assert pairs(result) == [("a", 0), ("b", 1)]


def test_or_join_uses_the_earliest_parent() -> None:
    task = rule(Node(id="p1", next=["c"], condition=on("x")), Node(id="p2", next=["c"], condition=on("y")),
                Node(id="c", condition=act("tap")))
    # p2 holds at frame 0, p1 only at frame 2; c holds at frame 1's action
    result = verify(task, trace(("y", None), ("z", "tap"), ("x", None)))
    assert result.ok
    assert pairs(result) == [("p2", 0), ("c", 1)]


def test_and_join_needs_every_dep_and_keeps_them_all_in_the_witness() -> None:
    task = rule(Node(id="a", condition=on("a")), Node(id="b", condition=on("b")),
                Node(id="c", deps=["a", "b"], condition=act("go")))
    assert not verify(task, trace(("a", "go"), ("c", "go"))).ok
    result = verify(task, trace(("a", "go"), ("b", "go")))
    assert pairs(result) == [("a", 0), ("b", 1), ("c", 1)]
    assert result.total_score == 30


def test_conditionless_nodes_pass_through_and_do_not_block() -> None:
    task = rule(Node(id="start", next=["a"]), Node(id="a", next=["join"], condition=on("a")),
                Node(id="join", deps=["a"], next=["b"]), Node(id="b", condition=on("b")))
    result = verify(task, trace(("a", None), ("b", None)))
    assert result.ok
    assert pairs(result) == [("a", 0), ("join", 0), ("b", 1)]
    assert result.conditionless_witness == ["start"]
    assert result.total_score == 40


def test_conditionless_node_does_not_let_its_child_share_the_parents_event() -> None:
    task = rule(Node(id="a", next=["pass"], condition=on("x")), Node(id="pass", next=["b"]),
                Node(id="b", condition=on("x")))
    assert not verify(task, trace(("x", None))).ok
    assert verify(task, trace(("x", None), ("x", None))).ok


def test_all_of_needs_every_target_and_any_of_one() -> None:
    nodes = (Node(id="a", condition=on("a")), Node(id="b", condition=on("b")))
    frames = trace(("a", None), ("c", None))
    assert not verify(rule(*nodes, all_of=["a", "b"]), frames).ok
    assert verify(rule(*nodes, any_of=["a", "b"]), frames).ok
    assert verify(rule(*nodes), frames).ok  # without success: any sink


def test_any_of_stops_at_the_first_target_and_checks_nothing_after() -> None:
    task = rule(Node(id="a", condition=on("a")), Node(id="b", condition=on("b")), any_of=["a", "b"])
    result = verify(task, trace(("x", None), ("a", None), ("b", None), ("a", None)))
    assert pairs(result) == [("a", 1)]
    assert max(frame for _, frame, _ in SEEN) == 1


def test_nodes_that_cannot_matter_are_never_checked() -> None:
    task = rule(Node(id="a", next=["goal"], condition=on("a")), Node(id="goal", condition=on("g")),
                Node(id="side", condition=on("never")), any_of=["goal"])
    verify(task, trace(("a", None), ("g", None), ("x", None)))
    assert not [s for s in SEEN if s[0] == "never"]


def test_each_node_frame_event_is_checked_at_most_once() -> None:
    task = rule(Node(id="a", next=["b"], condition=on("a")), Node(id="b", condition=on("?never")),
                Node(id="c", next=["b"], condition=on("?")))
    result = verify(task, trace(("a", None), ("?", None), ("z", None)))
    assert len(SEEN) == len(set(SEEN))
    assert result.checker_calls == len(SEEN)


def test_undecided_that_could_flip_the_verdict_needs_manual_review() -> None:
    task = rule(Node(id="a", next=["b"], condition=on("a")), Node(id="b", condition=on("b")))
    result = verify(task, trace(("a", None), ("?", None)))
    assert not result.ok
    assert result.manual_review_needed
    assert "manual review needed" in result.reason


def test_undecided_that_cannot_flip_the_verdict_needs_no_review() -> None:
    task = rule(Node(id="a", next=["b"], condition=on("a")), Node(id="b", next=["c"], condition=on("b")),
                Node(id="c", condition=on("c")))
    result = verify(task, trace(("?", None), ("b", None)))
    assert not result.ok
    assert not result.manual_review_needed


def test_a_crashing_checker_is_undecided_not_a_crash() -> None:
    task = rule(Node(id="a", condition=Condition(type="t_crash")))
    result = verify(task, trace(("x", None)))
    assert not result.ok and result.manual_review_needed
    assert "boom" in result.decisions[0]["check"]["reason"]


def test_failure_reason_names_reached_milestones_first_unmet_and_its_checks() -> None:
    task = rule(Node(id="home", name="Home", next=["cart"], condition=on("home")),
                Node(id="cart", name="Open cart", next=["pay"], condition=act("open_cart")),
                Node(id="pay", condition=on("pay")))
    result = verify(task, trace(("home", "open_cart"), ("cart", "back"), ("home", None)))
    assert not result.ok
    assert result.reason.startswith("no satisfying path")
    assert "reached: home (frame 1 screen) -> cart (frame 1 action)" in result.reason  # counted from 1
    assert "never met: pay" in result.reason and "2 no" in result.reason
    assert result.total_score == 20 and result.max_score == 30
    assert pairs(result) == [("home", 0), ("cart", 0)]


def test_partial_path_is_the_best_scoring_one() -> None:
    task = rule(Node(id="a", next=["b"], condition=on("a"), score=1),
                Node(id="x", next=["y"], condition=on("x"), score=5),
                Node(id="b", condition=on("never")), Node(id="y", condition=on("never")))
    result = verify(task, trace(("a", None), ("x", None)))
    assert not result.ok
    assert pairs(result) == [("x", 1)] and result.total_score == 5


def test_empty_trace_fails_with_a_reason() -> None:
    result = verify(rule(Node(id="a", condition=on("a"))), [])
    assert not result.ok and "no frames" in result.reason


def test_task_description_placeholder_is_filled_before_checking() -> None:
    task = rule(Node(id="a", condition=Condition(type="t_screen", params={"is": "{task_description}"})))
    frames = [Frame(index=0, ui={"screen": "buy milk"}, task_description="buy milk")]
    assert verify(task, frames).ok
    assert verify(task, [Frame(index=0, ui={"screen": "x"})], task_description="x").ok


@pytest.mark.parametrize(("nodes", "needle"), [
    ((Node(id="a", next=["ghost"], condition=Condition(type="t_screen", params={"is": "a"})),), "ghost"),
    ((Node(id="a", deps=["b"]), Node(id="b", deps=["a"])), "cycle"),
    ((Node(id="a", condition=Condition(type="no_such_checker")),), "no_such_checker"),
    ((), "no nodes"),
])
def test_rules_the_search_cannot_use_raise_input_errors(nodes: tuple[Node, ...], needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        verify(Task(nodes=list(nodes)), trace(("a", None)))


def test_debug_lines_are_kept_in_the_result_and_not_printed(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    task = rule(Node(id="a", condition=on("a")))
    result = verify(task, trace(("b", None), ("a", None)))
    assert any("verifying 2 frames" in line for line in result.logs)
    assert any("verdict: pass" in line for line in result.logs)
    assert not [r for r in caplog.records if r.levelno < logging.WARNING]


def test_each_evaluation_is_logged_when_debug_is_on(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="droidpilot.verify")
    result = verify(rule(Node(id="a", condition=on("a"))), trace(("b", None), ("a", None)))
    assert any("node a at frame 2 screen: yes" in line for line in result.logs)  # 2.jpg, the second frame
    assert any("node a at frame 2 screen: yes" in r.getMessage() for r in caplog.records)


def test_decisions_record_each_evaluation_with_the_checkers_answer() -> None:
    result = verify(rule(Node(id="a", condition=on("a"))), trace(("b", None), ("a", None)))
    assert [(d["node"], d["frame"], d["event"], d["result"]) for d in result.decisions] == [
        ("a", 0, "screen", "no"), ("a", 1, "screen", "yes")]
    assert result.decisions[1]["check"]["checker"] == "t_screen"
