"""Turn a search outcome into a VerifyResult: the witness (or best partial path), scores and the reason.

On failure the reason names the milestones reached, the first milestone that was enabled but never met,
and what its checks said, so a person can see at a glance where the agent went wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from droidpilot.verify.checkers.base import CheckResult, Verdict
from droidpilot.verify.frame import Frame
from droidpilot.verify.result import Match, NodeStatus, VerifyResult
from droidpilot.verify.rule import Task
from droidpilot.verify.search import BEFORE_START, Graph, Outcome, describe_event, event_kind

MemoKey = tuple[str, int, str]
_EXAMPLES = 2  # how many "no" answers the reason quotes


def _weight(task_scores: Mapping[str, float], nodes: Sequence[str] | frozenset[str]) -> float:
    return float(sum(task_scores[n] for n in nodes))


class _Closures:
    """Score and size of each node's closure (the node and, recursively, the parents ``parents_of``
    gives it) without building a set per node: a node with one parent links to it and adds its own
    score; only a node joining several parents materializes the union (shared ancestors count once).
    Linear in the rule for chains and OR-joins, where per-node sets would be quadratic."""

    def __init__(self, scores: Mapping[str, float]) -> None:
        self.scores = scores
        self.weight: dict[str, float] = {}
        self.size: dict[str, int] = {}
        self._link: dict[str, str | None] = {}  # the single parent, or None when _sets holds the closure
        self._sets: dict[str, frozenset[str]] = {}

    def add(self, node: str, parents: Sequence[str]) -> None:
        """Record ``node`` (its parents already added) joining all of ``parents``."""
        if len(parents) == 1:
            (parent,) = parents
            self._link[node] = parent
            self.weight[node] = self.weight[parent] + self.scores[node]
            self.size[node] = self.size[parent] + 1
            return
        members = frozenset({node}).union(*(self.members(p) for p in parents))
        self._link[node], self._sets[node] = None, members
        self.weight[node], self.size[node] = _weight(self.scores, members), len(members)

    def members(self, node: str) -> frozenset[str]:
        """The closure of ``node`` as a set (walks its chain of single-parent links)."""
        chain: list[str] = []
        cur: str | None = node
        while cur is not None and self._link.get(cur) is not None:
            chain.append(cur)
            cur = self._link[cur]
        base = self._sets.get(cur, frozenset()) if cur is not None else frozenset()
        return base.union(chain)


def max_score(graph: Graph, scores: Mapping[str, float]) -> float:
    """The score of the highest-scoring success path (at an OR-join, the best-scoring parent's path)."""
    best = _Closures(scores)
    for node in graph.order:
        parents = graph.parents[node]
        if graph.join[node] == "any":
            best.add(node, [max(parents, key=best.weight.__getitem__)])
        else:  # "all" joins every dep; a root joins nothing
            best.add(node, parents)
    if graph.mode == "all":
        return _weight(scores, frozenset().union(*(best.members(t) for t in graph.targets)))
    return max(best.weight[t] for t in graph.targets)


def _best_partial(graph: Graph, outcome: Outcome, scores: Mapping[str, float]) -> list[str]:
    """On failure: the satisfied chain worth the most points (ties: more milestones, then earlier)."""
    reached = [n for n in graph.order if n in outcome.earliest]
    closures = _Closures(scores)
    for node in reached:  # topological order: whatever justifies a node was added before it
        closures.add(node, outcome.via.get(node, ()))
    reached_targets = [t for t in graph.targets if t in outcome.earliest]
    # A closure's latest event is its own node's: the parents that justify a node come no later.
    keys = {n: (closures.weight[n], closures.size[n], -outcome.earliest[n]) for n in reached}
    best = max(reached, key=keys.__getitem__, default=None)
    if graph.mode == "all" and reached_targets:
        together = outcome.closure(graph, reached_targets)
        key = (_weight(scores, together), len(together), -max(outcome.earliest[n] for n in together))
        if best is None or key > keys[best]:
            return together
    return [] if best is None else outcome.closure(graph, [best])


def _short(result: CheckResult) -> str:
    """``xml_text_match: no (missing 'Cart')`` with the sub-checks of a combinator."""
    text = f"{result.checker}: {result.verdict.value}"
    if result.children:  # a combinator: its parts say more than its summary
        return text + " [" + "; ".join(_short(c) for c in result.children) + "]"
    return text + (f" ({result.reason})" if result.reason else "")


Checks = Mapping[str, list[tuple[int, CheckResult]]]


def index_checks(memo: Mapping[MemoKey, CheckResult]) -> dict[str, list[tuple[int, CheckResult]]]:
    """The answers recorded for each node as (event, result), in time order."""
    found: dict[str, list[tuple[int, CheckResult]]] = {}
    for (name, frame, kind), res in memo.items():
        found.setdefault(name, []).append((frame * 2 + (0 if kind == "screen" else 1), res))
    for items in found.values():
        items.sort(key=lambda item: item[0])
    return found


def _statuses(task: Task, graph: Graph, outcome: Outcome,
              checks: Checks) -> list[NodeStatus]:
    out: list[NodeStatus] = []
    by_id = {n.id: n for n in task.nodes}
    for node_id in graph.order:
        node = by_id[node_id]
        mine = [res for _, res in checks.get(node_id, [])]
        counts = {v: sum(1 for r in mine if r.verdict is v) for v in Verdict}
        after = outcome.enabled.get(node_id)
        if node_id in outcome.earliest:
            state, event = "reached", outcome.earliest[node_id]
        elif outcome.ok or node_id not in outcome.followed:  # it could not change the verdict
            state, event = "not needed", None
        else:  # followed to the end of a failing sweep: its state is known for the whole trace
            state, event = ("never met" if after is not None else "not enabled"), None
        out.append(NodeStatus(node_id, node.name, state, event, after, counts[Verdict.YES],
                              counts[Verdict.NO], counts[Verdict.UNDECIDED]))
    return out


def _first_unmet(graph: Graph, outcome: Outcome, partial: list[str], checks: Checks) -> str | None:
    """The enabled node that never held and still stood between the partial path and an open target
    (optional branches that were bypassed do not count)."""
    on_path = set(partial)
    pending = [n for n in outcome.enabled if n in outcome.followed]
    if not pending:
        return None
    rank = {n: i for i, n in enumerate(graph.order)}
    return min(pending, key=lambda n: (not (set(graph.parents[n]) & on_path) and bool(graph.parents[n]),
                                       outcome.enabled[n], rank[n]))


def _label(task: Task, node_id: str) -> str:
    name = task.node(node_id).name
    return f"{node_id} ({name})" if name and name != node_id else node_id


def _unmet_text(task: Task, node: str, outcome: Outcome, checks: Checks,
                frame_count: int) -> str:
    mine = checks.get(node, [])
    after = outcome.enabled[node]
    since = "from the start" if after == BEFORE_START else f"after {describe_event(after)}"
    text = f"never met: {_label(task, node)}, enabled {since}"
    if not mine:
        return text + f"; no event after that could be checked (the trace has {frame_count} frames)"
    no = [(e, r) for e, r in mine if r.verdict is Verdict.NO]
    undecided = [(e, r) for e, r in mine if r.verdict is Verdict.UNDECIDED]
    span = describe_event(mine[0][0]) if len(mine) == 1 else \
        f"{describe_event(mine[0][0])} to {describe_event(mine[-1][0])}"
    text += (f"; checked at {len(mine)} event{'s' if len(mine) > 1 else ''} ({span}): {len(no)} no, "
             f"{len(undecided)} undecided")
    examples = (no[:_EXAMPLES] + undecided[:1])[:_EXAMPLES + 1]
    if examples:
        text += "; e.g. " + " | ".join(f"{describe_event(e)}: {_short(r)}" for e, r in examples)
    return text


def _reason(task: Task, graph: Graph, outcome: Outcome, optimistic: Outcome | None, path: list[str],
            checks: Checks, frame_count: int) -> str:
    def at(n: str) -> str:
        return f"{n} ({describe_event(outcome.earliest[n])})"

    if outcome.ok:
        reached = [t for t in graph.targets if t in outcome.earliest and t in path]
        return (f"success: reached {', '.join(at(t) for t in reached)}; witness: "
                f"{' -> '.join(at(n) for n in path)}")
    if frame_count == 0:
        return "no satisfying path: the trace has no frames"
    parts = ["no satisfying path"]
    parts.append(f"reached: {' -> '.join(at(n) for n in path)}" if path else "reached: no milestone")
    unmet = _first_unmet(graph, outcome, path, checks)
    if unmet is not None:
        parts.append(_unmet_text(task, unmet, outcome, checks, frame_count))
    else:
        open_targets = [t for t in graph.targets if t not in outcome.earliest]
        parts.append(f"never enabled: {', '.join(open_targets)} (their parents were never met)")
    if optimistic is not None and optimistic.ok:
        parts.append("manual review needed: counting the undecided checks as yes would make it pass")
    elif optimistic is not None:
        parts.append("some checks were undecided, but even counting them as yes it would still fail")
    return "; ".join(parts)


def build_result(task: Task, graph: Graph, frames: Sequence[Frame], outcome: Outcome,
                 optimistic: Outcome | None, memo: Mapping[MemoKey, CheckResult]) -> VerifyResult:
    """Assemble the VerifyResult of ``outcome`` (the pessimistic sweep) and, if run, the optimistic one."""
    checks = index_checks(memo)
    scores = {n.id: float(n.score) for n in task.nodes}
    path = outcome.witness(graph) if outcome.ok else _best_partial(graph, outcome, scores)
    names = {n.id: n.name for n in task.nodes}
    matched = [Match(n, outcome.earliest[n] // 2, event_kind(outcome.earliest[n]), names[n], scores[n])
               for n in path if outcome.earliest[n] >= 0]
    total = _weight(scores, path)
    return VerifyResult(
        ok=outcome.ok,
        matched=matched,
        total_score=total,
        max_score=max(max_score(graph, scores), total),
        reason=_reason(task, graph, outcome, optimistic, path, checks, len(frames)),
        manual_review_needed=bool(optimistic is not None and optimistic.ok and not outcome.ok),
        task_id=task.task_id,
        frame_count=len(frames),
        success_mode=graph.mode,
        success_targets=list(graph.targets),
        nodes=_statuses(task, graph, outcome, checks),
        conditionless_witness=[n for n in path if outcome.earliest[n] < 0],
    )
