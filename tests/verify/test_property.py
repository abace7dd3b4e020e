"""The lazy search agrees with a brute-force enumeration of every assignment of milestones to events.

The brute force is written here from the definition alone: event 2i is frame i's screen, 2i+1 its action;
a node with a condition may sit at an event where its condition holds, after all its deps (or, without
deps, after at least one next-parent); a node without a condition sits exactly at the event its parents
enable it (the latest dep, or the event of one next-parent; roots at -1). The verdict holds when one
assignment places the success targets.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Verdict, register_condition
from droidpilot.verify.engine import Oracle, prepare_conditions, prepare_options, task_graph, verify
from droidpilot.verify.frame import Frame
from droidpilot.verify.rule import Condition, Node, Success, Task
from droidpilot.verify.search import sweep

KINDS = ("screen", "action")
CALLS: list[tuple[str, int, str]] = []


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


@st.composite
def problems(draw: st.DrawFn) -> tuple[Task, list[Frame]]:
    n = draw(st.integers(1, 5))
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
    has_cond = {i: draw(st.booleans()) or draw(st.booleans()) for i in ids}
    pins = {i: draw(st.sampled_from([("screen",), ("action",), ("screen", "action")])) for i in ids}
    verdicts = st.sampled_from(["yes", "no", "no", "undecided"])
    truth = [{i: {k: draw(verdicts) for k in KINDS} for i in ids} for _ in range(n_frames)]
    success_kind = draw(st.sampled_from(["sinks", "any_of", "all_of"]))
    success = None
    if success_kind != "sinks":
        chosen = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
        success = Success(**{success_kind: chosen})
    nodes = [Node(id=i, deps=deps[i], next=nexts[i], score=draw(st.integers(1, 20)),
                  condition=Condition(type="t_prop", params={"node": i, "pins": list(pins[i])})
                  if has_cond[i] else None) for i in ids]
    task = Task(task_id="prop", nodes=nodes, success=success)
    frames = [Frame(index=f, ui={"truth": truth[f]}) for f in range(n_frames)]
    return task, frames


def brute_force(task: Task, frames: list[Frame], optimistic: bool) -> tuple[bool, dict[str, int | None]]:
    """Enumerate every valid assignment (nodes are listed in an order where parents come first)."""
    ids = [n.id for n in task.nodes]
    nodes = {n.id: n for n in task.nodes}
    or_parents = {i: [p.id for p in task.nodes if i in p.next] for i in ids}
    n_events = 2 * len(frames)

    def holds(node: str, event: int) -> bool:
        cond = nodes[node].condition
        if event < 0 or (event % 2 == 0 and "screen" not in cond.params["pins"]):
            return False
        if event % 2 == 1 and "action" not in cond.params["pins"]:
            return False
        value = frames[event // 2].ui["truth"][node][KINDS[event % 2]]
        return value == "yes" or (optimistic and value == "undecided")

    def allowed(node: str, event: int, at: dict[str, int | None]) -> bool:
        has_cond = nodes[node].condition is not None
        if has_cond and not holds(node, event):
            return False
        parents = nodes[node].deps
        if parents:
            if any(at[p] is None for p in parents):
                return False
            latest = max(at[p] for p in parents)  # type: ignore[type-var]
            return latest < event if has_cond else event == latest
        if or_parents[node]:
            times = [at[p] for p in or_parents[node] if at[p] is not None]
            return any(t < event for t in times) if has_cond else event in times
        return True if has_cond else event == -1

    valid: list[dict[str, int | None]] = []

    def assign(k: int, at: dict[str, int | None]) -> None:
        if k == len(ids):
            valid.append(dict(at))
            return
        node = ids[k]
        for event in [None, *range(-1, n_events)]:
            if event is None or allowed(node, event, at):
                at[node] = event
                assign(k + 1, at)
        del at[node]

    assign(0, {})
    mode, targets = task.success_targets()

    def succeeds(at: dict[str, int | None]) -> bool:
        hit = [at[t] is not None for t in targets]
        return any(hit) if mode == "any" else all(hit)

    ok = any(succeeds(a) for a in valid)
    earliest = {i: min((a[i] for a in valid if a[i] is not None), default=None) for i in ids}
    return ok, earliest


def _events(result: Any) -> dict[str, int]:
    return {s.node: s.event for s in result.nodes if s.state == "reached"}


@settings(max_examples=200, deadline=None)
@given(problems())
def test_lazy_search_matches_brute_force(problem: tuple[Task, list[Frame]]) -> None:
    task, frames = problem
    CALLS.clear()
    result = verify(task, frames)
    ok, earliest = brute_force(task, frames, optimistic=False)
    optimistic_ok, _ = brute_force(task, frames, optimistic=True)
    assert result.ok == ok
    assert result.manual_review_needed == (not ok and optimistic_ok)
    assert len(CALLS) == len(set(CALLS)), "a (node, frame, event) was evaluated twice"
    assert result.checker_calls == len(CALLS)
    reached = _events(result)
    for node, event in reached.items():
        assert earliest[node] == event, f"{node}: search says {event}, brute force {earliest[node]}"
    mode, targets = task.success_targets()
    if ok:
        hit = [t for t in targets if t in reached]
        assert hit if mode == "any" else set(hit) == set(targets)
        if mode == "any":
            witness_target = next(m.node for m in reversed(result.matched) if m.node in targets) \
                if result.matched else hit[0]
            first = min(e for e in (earliest[t] for t in targets) if e is not None)
            assert reached[witness_target] == first
    else:
        for node, event in earliest.items():  # a failing search ran to the end of the trace
            if node in reached:
                assert event == reached[node]


@settings(max_examples=150, deadline=None)
@given(problems())
def test_exhaustive_sweep_finds_every_earliest_event(problem: tuple[Task, list[Frame]]) -> None:
    task, frames = problem
    conditions = prepare_conditions(task, "")
    graph = task_graph(task, conditions)
    oracle = Oracle(frames, conditions, prepare_options(None, task))
    outcome = sweep(graph, 2 * len(frames), oracle, exhaustive=True)
    _, earliest = brute_force(task, frames, optimistic=False)
    assert outcome.earliest == {n: e for n, e in earliest.items() if e is not None}


@settings(max_examples=100, deadline=None)
@given(problems())
def test_witness_is_a_valid_assignment(problem: tuple[Task, list[Frame]]) -> None:
    task, frames = problem
    result = verify(task, frames)
    if not result.ok:
        return
    events = {m.node: 2 * m.frame + (0 if m.event == "screen" else 1) for m in result.matched}
    events.update({n: -1 for n in result.conditionless_witness})
    times = [events[m.node] for m in result.matched]
    assert times == sorted(times), "the witness is not in time order"
    nodes = {n.id: n for n in task.nodes}
    for node_id, event in events.items():
        node = nodes[node_id]
        if node.condition is not None:
            kind = "screen" if event % 2 == 0 else "action"
            assert frames[event // 2].ui["truth"][node_id][kind] == "yes"
        if node.deps:
            assert all(d in events and events[d] <= event for d in node.deps)
            if node.condition is not None:
                assert all(events[d] < event for d in node.deps)
        else:
            parents = [p for p in task.nodes if node_id in p.next]
            if parents:
                assert any(p.id in events and events[p.id] <= event for p in parents)


def _chain(n_nodes: int, n_frames: int, last_holds: bool) -> tuple[Task, list[Frame]]:
    """A next-chain; node k holds at frames 3k and 3k+1, on the event kind it pins to."""
    ids = [f"c{i}" for i in range(n_nodes)]
    nodes = [Node(id=i, next=[ids[k + 1]] if k + 1 < n_nodes else [],
                  condition=Condition(type="t_prop", params={"node": i, "pins": [KINDS[k % 2]]}))
             for k, i in enumerate(ids)]

    def value(k: int, f: int) -> str:
        holds = f in (3 * k, 3 * k + 1) and (last_holds or k + 1 < n_nodes)
        return "yes" if holds else "no"

    frames = [Frame(index=f, ui={"truth": {i: {kind: value(k, f) for kind in KINDS}
                                           for k, i in enumerate(ids)}}) for f in range(n_frames)]
    return Task(nodes=nodes), frames


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
