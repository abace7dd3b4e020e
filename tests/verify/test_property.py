"""The lazy search agrees with a brute-force enumeration of every assignment of milestones to events
(tests/support/milestone_brute_force.py, written from the definition alone): the verdict, and also every
event the result reports (reached nodes, enabling events, the witness or best partial path, the reason).

Budgets follow the Hypothesis profile (tests/support/hypothesis_profiles.py): CI replays fixed examples,
``make fuzz`` explores. Every failure found so far is kept below as an ``@example``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.support.hypothesis_profiles import examples
from tests.support.milestone_brute_force import KINDS, Truth, brute_force

from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Verdict, register_condition
from droidpilot.verify.engine import Oracle, prepare_conditions, prepare_options, task_graph, verify
from droidpilot.verify.frame import Frame
from droidpilot.verify.result import VerifyResult
from droidpilot.verify.rule import Condition, Node, Success, Task
from droidpilot.verify.search import describe_event, sweep

CALLS: list[tuple[str, int, str]] = []
Problem = tuple[Task, list[Frame]]
# (id, deps, next, pins or None for no condition)
Shape = tuple[str, list[str], list[str], tuple[str, ...] | None]


@register_condition("t_prop")
class TruthTable(ConditionChecker):
    """Answers from the frame's ``ui["truth"][node][event]``; pins to the events listed in params."""

    def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> Any:
        return None

    def events(self, params: dict[str, Any]) -> frozenset[Any]:
        return frozenset(params["pins"])

    def evaluate(self, frame: Frame, params: dict[str, Any], options: Any, event: Any) -> CheckResult:
        CALLS.append((params["node"], frame.index, event))
        value = frame.ui["truth"][params["node"]][event]
        return CheckResult(Verdict(value), "t_prop", event)


def make_problem(shapes: list[Shape], truth: list[dict[str, dict[str, str]]], success: Success | None,
                 scores: dict[str, int] | None = None) -> Problem:
    """A rule of ``t_prop`` nodes and frames carrying their truth table."""
    nodes = [Node(id=i, deps=deps, next=nexts, score=(scores or {}).get(i, 1),
                  condition=None if pins is None else
                  Condition(type="t_prop", params={"node": i, "pins": list(pins)}))
             for i, deps, nexts, pins in shapes]
    frames = [Frame(index=f, ui={"truth": table}) for f, table in enumerate(truth)]
    return Task(task_id="prop", nodes=nodes, success=success), frames


def all_yes(ids: list[str], n_frames: int) -> list[dict[str, dict[str, str]]]:
    return [{i: dict.fromkeys(KINDS, "yes") for i in ids} for _ in range(n_frames)]


@st.composite
def problems(draw: st.DrawFn) -> Problem:
    n = draw(st.integers(1, 6))
    n_frames = draw(st.integers(0, 3))
    ids = [f"n{i}" for i in range(n)]
    deps: dict[str, list[str]] = {i: [] for i in ids}
    nexts: dict[str, list[str]] = {i: [] for i in ids}
    for i in range(1, n):
        shape = draw(st.sampled_from(["root", "deps", "next", "next", "both"]))
        earlier = ids[:i]
        if shape in ("deps", "both"):
            deps[ids[i]] = draw(st.lists(st.sampled_from(earlier), min_size=1, max_size=3, unique=True))
        if shape in ("next", "both"):
            for parent in draw(st.lists(st.sampled_from(earlier), min_size=1, max_size=3, unique=True)):
                nexts[parent].append(ids[i])
    many_conditionless = draw(st.booleans())  # pass-through chains, where OR-joins wait on parents
    has_cond = {i: draw(st.booleans()) or (not many_conditionless and draw(st.booleans())) for i in ids}
    pins = {i: draw(st.sampled_from([("screen",), ("action",), ("screen", "action")])) for i in ids}
    # mostly-no traces exercise failures; mostly-yes ones the joins where several parents hold
    verdicts = st.sampled_from(draw(st.sampled_from([("yes", "no", "no", "undecided"),
                                                     ("yes", "yes", "yes", "no")])))
    truth = [{i: {k: draw(verdicts) for k in KINDS} for i in ids} for _ in range(n_frames)]
    success_kind = draw(st.sampled_from(["sinks", "any_of", "all_of"]))
    success = None
    if success_kind != "sinks":
        chosen = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
        success = Success(**{success_kind: chosen})
    scores = {i: draw(st.integers(1, 20)) for i in ids}
    shapes = [(i, deps[i], nexts[i], pins[i] if has_cond[i] else None) for i in ids]
    return make_problem(shapes, truth, success, scores)


# Found on a fresh clone: n2 passes through from n0 (frame 0 screen) or n1 (frame 0 action); n0 cannot
# change the verdict, so the search skipped it and placed n2 at n1's event.
SKIPPED_EARLIER_PARENT = make_problem(
    [("n0", [], ["n2"], ("screen",)), ("n1", [], ["n2"], ("action",)), ("n2", [], [], None)],
    all_yes(["n0", "n1", "n2"], 2), Success(any_of=["n1"]))
# The same with a failing verdict: n2 and its child n3 were reported, n3 "never met" after n1's event.
SKIPPED_PARENT_ON_FAILURE = make_problem(
    [("n0", [], ["n2"], ("screen",)), ("n1", [], ["n2"], ("action",)), ("n2", [], ["n3"], None),
     ("n3", [], [], ("screen",)), ("n4", ["n1"], [], ("screen",))],
    [{**t, "n3": {"screen": "no", "action": "no"}, "n4": {"screen": "no", "action": "no"}}
     for t in all_yes(["n0", "n1", "n2"], 2)], Success(any_of=["n4"]))

# Found by the extended comparison: roots n2-n4 cannot change the verdict and were never checked, yet a
# failing verdict called them "never met" (they hold at frame 0 screen).
UNFOLLOWED_ROOTS_ON_FAILURE = make_problem(
    [("n0", [], [], ("screen",)), ("n1", [], [], None), ("n2", [], [], ("screen",)),
     ("n3", [], [], ("screen",)), ("n4", [], [], ("screen",))],
    [{**all_yes(["n1", "n2", "n3", "n4"], 1)[0], "n0": {"screen": "no", "action": "yes"}}],
    Success(any_of=["n0"]))

# Found while reviewing the fix: n3 waits at n1's event (frame 0 screen) for n2 to settle; once n2
# passes through at frame 0 action, n3 was placed there too instead of at n1's earlier event.
DEFERRED_JOIN = make_problem(
    [("n0", [], ["n2", "n4"], ("action",)), ("n1", [], ["n3", "n4"], ("screen",)), ("n2", [], ["n3"], None),
     ("n3", [], [], None), ("n4", [], [], ("screen",))],
    [{**t, "n4": {"screen": "no", "action": "no"}} for t in all_yes(["n0", "n1", "n2", "n3"], 2)],
    Success(any_of=["n4"]))


def _event_of(match: Any) -> int:
    return 2 * match.frame + KINDS.index(match.event)


def check_statuses(task: Task, result: VerifyResult, truth: Truth) -> None:
    """Each node's reported state and events say what the brute force says."""
    assert [s.node for s in result.nodes] and {s.node for s in result.nodes} == {n.id for n in task.nodes}
    for status in result.nodes:
        node, want, enabling = status.node, truth.earliest[status.node], truth.enabling[status.node]
        if status.state == "reached":
            assert status.event == want, f"{node}: search says {status.event}, brute force {want}"
        elif status.state == "never met":
            assert want is None, f"{node}: reported never met, brute force reaches it at {want}"
            assert status.enabled_after == enabling, f"{node}: enabled after {status.enabled_after}"
        elif status.state == "not enabled":
            assert enabling is None, f"{node}: reported not enabled, brute force enables it at {enabling}"
        else:
            assert status.state == "not needed", status.state
            assert status.enabled_after in (None, enabling), f"{node}: enabled after {status.enabled_after}"
        assert status.state != "not needed" or result.ok or node not in result.success_targets, \
            f"failing verdict, but open target {node} was not followed to the end"


def check_path(task: Task, result: VerifyResult, truth: Truth) -> None:
    """The witness (or best partial path) is a valid assignment at the nodes' earliest events, in time
    order, scored as its nodes, and the reason quotes those events."""
    events = {m.node: _event_of(m) for m in result.matched}
    events.update(dict.fromkeys(result.conditionless_witness, -1))
    times = [_event_of(m) for m in result.matched]
    assert times == sorted(times), "the path is not in time order"
    for node_id, event in events.items():
        want = truth.earliest[node_id]
        assert event == want, f"{node_id} at {event}, brute force {want}"
    by_id = {n.id: n for n in task.nodes}
    for node_id, event in events.items():
        node = by_id[node_id]
        strict = node.condition is not None
        if node.deps:
            assert all(d in events for d in node.deps), f"{node_id}: a dep is missing from the path"
            latest = max(events[d] for d in node.deps)
            assert latest < event if strict else latest == event
        elif parents := [p.id for p in task.nodes if node_id in p.next]:
            on_path = [events[p] for p in parents if p in events]
            assert any(t < event if strict else t == event for t in on_path), f"{node_id}: unjustified"
        else:
            assert strict or event == -1
    assert result.total_score == sum(by_id[n].score for n in events)
    if result.ok or result.frame_count:  # a failure without frames says just that
        for node_id in events:
            assert f"{node_id} ({describe_event(events[node_id])})" in result.reason
    mode, targets = task.success_targets()
    if result.ok:
        hit = [t for t in targets if t in events]
        assert hit if mode == "any" else set(hit) == set(targets)
        if mode == "any":
            first = min(e for e in (truth.earliest[t] for t in targets) if e is not None)
            assert min(events[t] for t in hit) == first


@settings(max_examples=examples(200))
@given(problems())
@example(SKIPPED_EARLIER_PARENT)
@example(SKIPPED_PARENT_ON_FAILURE)
@example(UNFOLLOWED_ROOTS_ON_FAILURE)
@example(DEFERRED_JOIN)
def test_lazy_search_matches_brute_force(problem: Problem) -> None:
    task, frames = problem
    CALLS.clear()
    result = verify(task, frames)
    truth = brute_force(task, frames)
    assert result.ok == truth.ok
    assert result.manual_review_needed == (not truth.ok and brute_force(task, frames, optimistic=True).ok)
    assert len(CALLS) == len(set(CALLS)), "a (node, frame, event) was evaluated twice"
    assert result.checker_calls == len(CALLS)
    check_statuses(task, result, truth)
    check_path(task, result, truth)


@settings(max_examples=examples(150))
@given(problems())
@example(SKIPPED_EARLIER_PARENT)
@example(SKIPPED_PARENT_ON_FAILURE)
@example(UNFOLLOWED_ROOTS_ON_FAILURE)
@example(DEFERRED_JOIN)
def test_exhaustive_sweep_finds_every_earliest_event(problem: Problem) -> None:
    task, frames = problem
    conditions = prepare_conditions(task, "")
    graph = task_graph(task, conditions)
    oracle = Oracle(frames, conditions, prepare_options(None, task))
    outcome = sweep(graph, 2 * len(frames), oracle, exhaustive=True)
    truth = brute_force(task, frames)
    assert outcome.earliest == {n: e for n, e in truth.earliest.items() if e is not None}
    unmet = {n for n, e in truth.earliest.items() if e is None}
    assert outcome.followed == unmet
    assert outcome.enabled == {n: truth.enabling[n] for n in unmet
                               if truth.enabling[n] is not None and task.node(n).condition is not None}


def test_skipped_parent_leaves_the_pass_through_node_unreported() -> None:
    task, frames = SKIPPED_EARLIER_PARENT
    result = verify(task, frames)
    states = {s.node: (s.state, s.event) for s in result.nodes}
    assert result.ok and states["n1"] == ("reached", 1)
    assert states["n2"] == ("not needed", None), "n2 holds at frame 0 screen (through n0), not at n1's event"
    task, frames = SKIPPED_PARENT_ON_FAILURE
    result = verify(task, frames)
    states = {s.node: (s.state, s.event) for s in result.nodes}
    assert not result.ok and states["n4"] == ("never met", None)
    assert states["n2"][0] == states["n3"][0] == "not needed"
    task, frames = DEFERRED_JOIN
    states = {s.node: (s.state, s.event) for s in verify(task, frames).nodes}
    assert states["n3"] == ("reached", 0) and states["n2"] == ("reached", 1)  # n3 through n1, not n2


def _chain(n_nodes: int, n_frames: int, last_holds: bool) -> Problem:
    """A next-chain; node k holds at frames 3k and 3k+1, on the event kind it pins to."""
    ids = [f"c{i}" for i in range(n_nodes)]

    def value(k: int, f: int) -> str:
        holds = f in (3 * k, 3 * k + 1) and (last_holds or k + 1 < n_nodes)
        return "yes" if holds else "no"

    shapes: list[Shape] = [(i, [], [ids[k + 1]] if k + 1 < n_nodes else [], (KINDS[k % 2],))
                           for k, i in enumerate(ids)]
    truth = [{i: {kind: value(k, f) for kind in KINDS} for k, i in enumerate(ids)} for f in range(n_frames)]
    return make_problem(shapes, truth, None)


def test_chain_checker_calls_stay_within_frames_plus_nodes() -> None:
    task, frames = _chain(12, 40, last_holds=True)
    result = verify(task, frames)
    assert result.ok
    assert [m.frame for m in result.matched] == [3 * k for k in range(12)]
    assert result.checker_calls <= 40 + 12
    task, frames = _chain(12, 40, last_holds=False)
    failing = verify(task, frames)
    assert not failing.ok
    assert "never met: c11" in failing.reason
    assert failing.checker_calls <= 40 + 12
