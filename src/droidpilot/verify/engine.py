"""Verify a trace against a rule: prepare the conditions, run the lazy search, explain the outcome.

    result = verify(task, trace, options)   # a Task and a Trace (or a list of Frames / dicts)
    result.ok, result.matched, result.reason, result.manual_review_needed

Each (node, frame, event) is evaluated at most once, even across the second, optimistic search that
decides whether an undecided check could have changed a failing verdict.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from droidpilot.errors import InputError
from droidpilot.verify.checkers._patterns import TIMED_OUT
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Verdict, get_checker
from droidpilot.verify.checkers.icons import preflight_icons
from droidpilot.verify.forbidden import find_breach
from droidpilot.verify.frame import Frame
from droidpilot.verify.logcapture import capture_logs
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.placeholders import fill_placeholders
from droidpilot.verify.reason import build_result
from droidpilot.verify.result import VerifyResult
from droidpilot.verify.rule import Task
from droidpilot.verify.search import Graph, build_graph, describe_event, event_kind, sweep
from droidpilot.verify.trace import Trace, as_trace

log = logging.getLogger("droidpilot.verify.engine")


@dataclasses.dataclass
class Condition:
    """A node's checker with its parameters, placeholders already filled."""

    checker: ConditionChecker
    params: dict[str, Any]


def count_leaf_checks(result: CheckResult) -> int:
    """How many checkers actually ran for ``result``: the leaves of its tree of sub-checks."""
    if not result.children:
        return 1
    return sum(count_leaf_checks(child) for child in result.children)


class Oracle:
    """Answers "does node n hold at event e?" by calling its checker, once per (node, frame, event)."""

    def __init__(self, frames: Sequence[Frame], conditions: dict[str, Condition],
                 options: VerifierOptions, trace_each: bool = False,
                 places: dict[str, str] | None = None) -> None:
        self.frames = frames
        self.places = places or {}  # node -> "rule.yaml:12: node 'n3'", said where a pattern timed out
        self.trace_each = trace_each
        self.conditions = conditions
        self.options = options
        self.memo: dict[tuple[str, int, str], CheckResult] = {}
        self.order: list[tuple[str, int, str]] = []
        self.checker_calls = 0
        self.evaluations = 0

    def __call__(self, node: str, event: int) -> Verdict:
        frame_index, kind = event // 2, event_kind(event)
        key = (node, frame_index, kind)
        cached = self.memo.get(key)
        if cached is not None:
            return cached.verdict
        cond = self.conditions[node]
        frame = self.frames[frame_index]
        try:
            result = cond.checker.evaluate(frame, cond.params, self.options, kind)  # type: ignore[arg-type]
        except InputError:
            raise
        except Exception as exc:  # a crashing checker makes this check undecided, never a crash
            result = CheckResult(Verdict.UNDECIDED, cond.checker.name or "checker", kind,  # type: ignore[arg-type]
                                 reason=f"checker raised {type(exc).__name__}: {exc}")
        if not isinstance(result, CheckResult):
            result = CheckResult(Verdict.from_value(result), cond.checker.name, kind)  # type: ignore[arg-type]
        place_timeouts(result, self.places.get(node, f"node {node!r}"))
        self.memo[key] = result
        self.order.append(key)
        self.evaluations += 1
        self.checker_calls += count_leaf_checks(result)
        if self.trace_each:  # the decisions list has it anyway; log each only when asked to
            log.debug("node %s at %s: %s%s", node, describe_event(event), result.verdict.value,
                      f" ({result.reason})" if result.reason else "")
        return result.verdict

    def decisions(self) -> list[dict[str, Any]]:
        """Every evaluation in the order it ran, with the checker's full answer."""
        out: list[dict[str, Any]] = []
        for node, frame, kind in self.order:
            result = self.memo[(node, frame, kind)]
            out.append({"node": node, "frame": frame, "event": kind, "result": result.verdict.value,
                        "check": result.to_dict()})
        return out


def place_timeouts(result: CheckResult, place: str) -> None:
    """Prefix the reason of every check in ``result`` whose pattern timed out with where it is written."""
    for child in result.children:
        place_timeouts(child, place)
    if TIMED_OUT in result.details and not result.reason.startswith(place):
        result.reason = f"{place}: {result.reason}"
        result.details[TIMED_OUT]["where"] = place


def node_places(task: Task) -> dict[str, str]:
    """Each node's place in the rule file, as errors name it: ``rule.yaml:12: node 'n3'``."""
    where = str(task.source) if task.source else f"rule {task.task_id or '(unnamed)'}"
    return {n.id: f"{where}{f':{n.line}' if n.line else ''}: node {n.id!r}" for n in task.nodes}


def prepare_options(options: VerifierOptions | None, task: Task) -> VerifierOptions:
    """A copy of ``options`` that knows the rule's folder and app (for icon templates)."""
    opts = dataclasses.replace(options) if options is not None else VerifierOptions()
    if opts.rule_dir is None and task.source is not None:
        opts.rule_dir = Path(task.source).parent
    if not opts.app_id:
        opts.app_id = task.app_id
    return opts


def prepare_conditions(task: Task, task_description: str) -> dict[str, Condition]:
    """Resolve every node's checker and fill ``{task_description}`` in its parameters."""
    where = str(task.source) if task.source else f"rule {task.task_id or '(unnamed)'}"
    conditions: dict[str, Condition] = {}
    for node in task.nodes:
        if node.condition is None:
            continue
        try:
            checker = get_checker(node.condition.type)
        except KeyError:
            raise InputError(f"{where}: node {node.id!r} uses unknown checker type "
                             f"{node.condition.type!r}") from None
        params = fill_placeholders(dict(node.condition.params), task_description)
        conditions[node.id] = Condition(checker, params)
    return conditions


def task_graph(task: Task, conditions: dict[str, Condition]) -> Graph:
    """The search graph of ``task``: enabling parents, pins from each checker, success targets."""
    where = str(task.source) if task.source else f"rule {task.task_id or '(unnamed)'}"
    pins: dict[str, frozenset[str]] = {}
    for node_id, cond in conditions.items():
        try:
            pins[node_id] = frozenset(cond.checker.events(cond.params))
        except Exception as exc:
            raise InputError(f"{where}: node {node_id!r}: cannot read its condition's parameters "
                             f"({type(exc).__name__}: {exc})") from None
    if not math.isfinite(sum(float(n.score) for n in task.nodes)):  # a Task built in Python, unchecked
        raise InputError(f"{where}: the node scores add up beyond a float's range; use smaller scores")
    mode, targets = task.success_targets()
    ids = [n.id for n in task.nodes]
    return build_graph(ids, {n.id: list(n.deps) for n in task.nodes},
                       {n.id: list(n.next) for n in task.nodes}, pins, mode, targets, source=where)


def _judge_forbidden(task: Task, graph: Graph, n_frames: int, oracle: Oracle, result: VerifyResult) -> None:
    """Fail ``result`` when a forbidden node (``success.none_of``) was met; a breach seen only through
    undecided checks asks for manual review instead."""
    breach = find_breach(graph, task.forbidden(), 2 * n_frames, oracle)
    if breach is None:
        return
    said = breach.describe(task.node(breach.node).name)
    if breach.doubtful:
        result.manual_review_needed = True
        result.reason += f"; but undecided checks could mean {said}"
        log.debug("a forbidden node may have been met: %s", said)
        return
    result.ok = False
    result.manual_review_needed = False
    result.reason = f"failure: {said}, so the run fails whatever else it reached ({result.reason})"
    log.debug("verdict: fail, %s", said)


def verify(task: Task, trace: Trace | Sequence[Frame | dict[str, Any]],
           options: VerifierOptions | None = None, *, task_description: str | None = None) -> VerifyResult:
    """Judge ``trace`` against ``task``: is there an assignment of milestones to events that succeeds?

    Raises InputError for a rule the search cannot use (unknown checker, missing node, cycle) or frames
    that cannot be read.
    """
    the_trace = as_trace(trace, task_description)
    opts = prepare_options(options, task)
    preflight_icons(task, opts)  # an icon the rule names but no folder holds: a rule error, not a "no"
    conditions = prepare_conditions(task, the_trace.task_description)
    graph = task_graph(task, conditions)
    frames = the_trace.frames
    oracle = Oracle(frames, conditions, opts, trace_each=log.isEnabledFor(logging.DEBUG),
                    places=node_places(task))
    with capture_logs(opts.log_decisions) as lines:
        log.debug("verifying %d frames against %s (%d nodes, success %s of %s)", len(frames),
                  task.task_id or "rule", len(task.nodes), graph.mode, list(graph.targets))
        first = sweep(graph, 2 * len(frames), oracle)
        optimistic = None
        if not first.ok and first.saw_undecided:
            optimistic = sweep(graph, 2 * len(frames), oracle, optimistic=True)
            log.debug("undecided checks seen; counting them as yes the verdict would be %s",
                      "pass" if optimistic.ok else "fail")
        result = build_result(task, graph, frames, first, optimistic, oracle.memo)
        if result.ok or result.manual_review_needed:
            _judge_forbidden(task, graph, len(frames), oracle, result)
        log.debug("verdict: %s after %d checker calls", "pass" if result.ok else "fail",
                  oracle.checker_calls)
    result.checker_calls = oracle.checker_calls
    result.evaluations = oracle.evaluations
    result.decisions = oracle.decisions()
    result.logs = lines
    return result
