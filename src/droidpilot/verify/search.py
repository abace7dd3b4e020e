"""The milestone search: the earliest event at which each node of the DAG can be satisfied.

The timeline of a trace with N frames has 2N events: event ``2i`` is the screen of frame i, event
``2i + 1`` its action. A node is satisfied at event e when its condition holds at e and its enabling
parents are satisfied before e: all of its ``deps`` (AND), or, without deps, at least one ``next``
parent (OR); roots need nothing. A node without a condition passes through at the event its parents
enable it (roots without a condition at event -1, before everything).

Satisfying a node early never hurts a successor, so the earliest event of each node decides the
verdict. The search sweeps the timeline once, in time order, keeping the set of *active* nodes (enabled,
not yet satisfied, still able to matter for an open success target) and asking the oracle about each
active node only at events its condition can pin to. It stops as soon as the verdict is known.

What it reports is exact, not merely enough for the verdict. A node is *followed* while it can still
matter (it is unsatisfied and an open target is reachable from it through unsatisfied nodes); every
unsatisfied parent of a followed node is followed too, and a followed node was followed from the start.
The sweep records a node as satisfied, or as enabled, only when every parent that could have done so
earlier is satisfied or followed, so each recorded event is the node's earliest (a conditionless node
whose other parent was dropped as irrelevant is left out rather than placed late). Nodes followed to the
end of a failing sweep are exactly "never met" or "never enabled"; the others are simply not reported.
"""

from __future__ import annotations

import graphlib
import heapq
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from droidpilot.errors import InputError
from droidpilot.verify.checkers.base import Verdict

EVENT_KINDS: tuple[str, str] = ("screen", "action")
BEFORE_START = -1  # the event of a root without a condition


def event_kind(event: int) -> str:
    """``"screen"`` for even events, ``"action"`` for odd ones."""
    return EVENT_KINDS[event % 2]


def describe_event(event: int) -> str:
    """``frame 3 action`` / ``before the first frame``: an event as people read it. Frames are counted
    from 1 there, as a trace folder's ``N.jpg`` and the studio's review count them (JSON ``frame`` fields
    stay MobiFlow's 0-based ``frame_index``)."""
    if event < 0:
        return "before the first frame"
    return f"frame {event // 2 + 1} {event_kind(event)}"


@dataclass(frozen=True)
class Graph:
    """The DAG as the search needs it: enabling parents, the join of each node, pins and targets.

    ``join`` is ``"all"`` (the node has deps), ``"any"`` (it is reached through ``next`` parents) or
    ``"root"``. ``pins`` holds, for nodes with a condition, the event kinds it can hold at; nodes absent
    from ``pins`` have no condition.
    """

    order: tuple[str, ...]
    parents: Mapping[str, tuple[str, ...]]
    join: Mapping[str, str]
    children: Mapping[str, tuple[str, ...]]
    pins: Mapping[str, frozenset[str]]
    mode: str
    targets: tuple[str, ...]

    def has_condition(self, node: str) -> bool:
        return node in self.pins


def build_graph(node_ids: list[str], deps: Mapping[str, list[str]], nexts: Mapping[str, list[str]],
                pins: Mapping[str, frozenset[str]], mode: str, targets: list[str],
                source: str = "rule") -> Graph:
    """Check references and cycles, then derive enabling parents and a topological order.

    Raises InputError naming the missing node or the nodes on a cycle.
    """
    known = set(node_ids)
    if not node_ids:
        raise InputError(f"{source}: the rule has no nodes")
    if len(known) != len(node_ids):
        dup = sorted({n for n in node_ids if node_ids.count(n) > 1})
        raise InputError(f"{source}: duplicate node ids {dup}; give every node a unique id")
    for node in node_ids:
        for kind, refs in (("deps", deps.get(node, [])), ("next", nexts.get(node, []))):
            for ref in refs:
                if ref not in known:
                    raise InputError(f"{source}: node {node!r} names {ref!r} in {kind}, but no node has "
                                     f"that id; fix the id or add the node")
    for ref in targets:
        if ref not in known:
            raise InputError(f"{source}: success names {ref!r}, but no node has that id")
    or_parents: dict[str, list[str]] = {n: [] for n in node_ids}
    for node in node_ids:
        for succ in nexts.get(node, []):
            if node not in or_parents[succ]:
                or_parents[succ].append(node)
    parents: dict[str, tuple[str, ...]] = {}
    join: dict[str, str] = {}
    for node in node_ids:
        node_deps = list(dict.fromkeys(deps.get(node, [])))
        if node_deps:
            parents[node], join[node] = tuple(node_deps), "all"
        elif or_parents[node]:
            parents[node], join[node] = tuple(or_parents[node]), "any"
        else:
            parents[node], join[node] = (), "root"
    try:
        order = _file_order_topo(node_ids, {n: set(deps.get(n, [])) | set(or_parents[n]) for n in node_ids})
    except graphlib.CycleError as exc:
        cycle = exc.args[1] if len(exc.args) > 1 else []
        raise InputError(f"{source}: the nodes form a cycle: {' -> '.join(map(str, cycle))}; "
                         f"a milestone DAG cannot loop") from None
    if not targets:
        raise InputError(f"{source}: no success target (every node has a successor?); add success.any_of")
    rank = {n: i for i, n in enumerate(order)}
    children: dict[str, list[str]] = {n: [] for n in node_ids}
    for node in node_ids:
        for parent in parents[node]:
            children[parent].append(node)
    return Graph(order=order, parents=parents, join=join,
                 children={n: tuple(sorted(c, key=rank.__getitem__)) for n, c in children.items()},
                 pins=dict(pins), mode=mode, targets=tuple(dict.fromkeys(targets)))


def _file_order_topo(node_ids: list[str], preds: Mapping[str, set[str]]) -> tuple[str, ...]:
    """A topological order that otherwise keeps the rule's own node order (so paths read naturally)."""
    sorter = graphlib.TopologicalSorter(preds)
    sorter.prepare()
    position = {n: i for i, n in enumerate(node_ids)}
    ready: list[tuple[int, str]] = []
    order: list[str] = []
    while sorter.is_active():
        for node in sorter.get_ready():
            heapq.heappush(ready, (position[node], node))
        _, node = heapq.heappop(ready)
        order.append(node)
        sorter.done(node)
    return tuple(order)


Oracle = Callable[[str, int], Verdict]


@dataclass
class Outcome:
    """What one sweep found. ``earliest`` and ``via`` (the parents that justify each node) cover the
    satisfied nodes; ``enabled`` gives the event after which each node that was enabled but never held
    became enabled. Every event recorded is exact. ``followed`` holds the unsatisfied nodes the sweep
    still tracked when it stopped: on a failing sweep those never held (or were never enabled) anywhere
    in the trace, while the state of the other unsatisfied nodes was not looked into."""

    ok: bool
    earliest: dict[str, int] = field(default_factory=dict)
    via: dict[str, tuple[str, ...]] = field(default_factory=dict)
    enabled: dict[str, int] = field(default_factory=dict)
    followed: frozenset[str] = frozenset()
    saw_undecided: bool = False
    last_event: int = -1

    def witness(self, graph: Graph) -> list[str]:
        """The satisfied nodes that prove the verdict (targets and what justifies them), in time order."""
        reached = [t for t in graph.targets if t in self.earliest]
        if graph.mode == "any" and reached:
            first = min(self.earliest[t] for t in reached)
            reached = [next(t for t in reached if self.earliest[t] == first)]
        return self.closure(graph, reached)

    def closure(self, graph: Graph, nodes: Iterable[str]) -> list[str]:
        """``nodes`` and, recursively, the parents that justify them, ordered by event then DAG order."""
        seen: set[str] = set()
        stack = [n for n in nodes if n in self.earliest]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(self.via.get(node, ()))
        rank = {n: i for i, n in enumerate(graph.order)}
        return sorted(seen, key=lambda n: (self.earliest[n], rank[n]))


def sweep(graph: Graph, n_events: int, oracle: Oracle, *, optimistic: bool = False,
          exhaustive: bool = False) -> Outcome:
    """Find the earliest satisfying event of every node that matters, asking ``oracle`` lazily.

    ``optimistic`` counts an undecided answer as yes (to learn whether manual review could flip the
    verdict). ``exhaustive`` turns off early stopping and relevance pruning, so every node's earliest
    event is computed (used to explain and to test). The oracle is asked about a (node, event) at most
    once per sweep.
    """
    out = Outcome(ok=False)
    rank = {n: i for i, n in enumerate(graph.order)}
    enabled_via: dict[str, tuple[str, ...]] = {}
    active: set[str] = set()
    needs = None if exhaustive else _Relevance(graph, out.earliest)
    # Only shrinks, so a node in it has been followed since the start.
    matters: set[str] | frozenset[str] = frozenset(graph.order) if needs is None else needs.needed

    fresh: list[str] = []  # nodes the latest satisfy() call satisfied

    def settled(parents: tuple[str, ...]) -> bool:
        """Each of ``parents`` is satisfied (at its earliest event) or followed (so it cannot hold
        before now): the first of them to be satisfied is then the earliest."""
        return all(p in out.earliest or p in matters for p in parents)

    def satisfy(node: str, event: int, parents: tuple[str, ...]) -> None:
        work = [(node, event, parents)]
        while work:
            cur, at, used = work.pop()
            out.earliest[cur], out.via[cur] = at, used
            fresh.append(cur)
            out.enabled.pop(cur, None)
            active.discard(cur)
            for child in graph.children[cur]:
                if child in out.earliest or child in out.enabled:
                    continue
                if graph.join[child] == "all":
                    deps = graph.parents[child]
                    if not all(d in out.earliest for d in deps):
                        continue
                    bound, why = max(out.earliest[d] for d in deps), deps
                elif at == BEFORE_START or settled(graph.parents[child]):
                    # the earliest satisfied parent: usually ``cur`` (the sweep runs in time order), but
                    # an earlier one when the child waited for a parent to settle
                    first = min((p for p in graph.parents[child] if p in out.earliest),
                                key=out.earliest.__getitem__)
                    bound, why = out.earliest[first], (first,)
                else:  # a parent dropped as irrelevant might have enabled it earlier: leave it unreported
                    continue
                if graph.has_condition(child):
                    out.enabled[child], enabled_via[child] = bound, why
                    active.add(child)
                else:
                    work.append((child, bound, why))

    for node in graph.order:
        if graph.join[node] == "root" and node not in out.earliest:
            if graph.has_condition(node):
                out.enabled[node], enabled_via[node] = BEFORE_START, ()
                active.add(node)
            else:
                satisfy(node, BEFORE_START, ())
    if needs is not None:
        needs.satisfied(fresh)

    def finished() -> bool:
        hit = [t in out.earliest for t in graph.targets]
        return any(hit) if graph.mode == "any" else all(hit)

    for event in range(n_events):
        if not exhaustive and finished():
            break
        live = [n for n in active if n in matters]
        if not live:
            break
        kind = event_kind(event)
        out.last_event = event
        for node in sorted(live, key=rank.__getitem__):
            if node not in matters or out.enabled.get(node, event) >= event:
                continue
            if kind not in graph.pins[node]:
                continue
            verdict = oracle(node, event)
            if verdict is Verdict.UNDECIDED:
                out.saw_undecided = True
            if verdict is Verdict.YES or (optimistic and verdict is Verdict.UNDECIDED):
                fresh.clear()
                satisfy(node, event, enabled_via[node])
                if not exhaustive and finished():
                    break
                if needs is not None:
                    needs.satisfied(fresh)
    out.ok = finished()
    out.followed = frozenset(n for n in matters if n not in out.earliest)
    return out


def still_needed(graph: Graph, earliest: Mapping[str, int]) -> set[str]:
    """Unsatisfied nodes from which an open target is reachable through unsatisfied nodes only."""
    keep: set[str] = set()
    stack = [t for t in graph.targets if t not in earliest]
    while stack:
        node = stack.pop()
        if node in keep or node in earliest:
            continue
        keep.add(node)
        stack.extend(graph.parents[node])
    return keep


class _Relevance:
    """``still_needed`` kept up to date as nodes are satisfied, in time linear in the rule overall.

    A node is needed while it is unsatisfied and is an open target or an enabling parent of a needed
    node; ``pull`` counts each node's needed children, so satisfying a node only walks the parents that
    lose their last reason to matter (each node leaves ``needed`` once).
    """

    def __init__(self, graph: Graph, earliest: Mapping[str, int]) -> None:
        self.graph = graph
        self.targets = set(graph.targets)
        self.needed = still_needed(graph, earliest)
        self.pull = {n: 0 for n in graph.order}
        for node in self.needed:
            for parent in set(graph.parents[node]):
                self.pull[parent] += 1

    def satisfied(self, nodes: Iterable[str]) -> None:
        """Drop newly satisfied ``nodes`` and every parent left with no needed child."""
        stack = [n for n in nodes if n in self.needed]
        while stack:
            node = stack.pop()
            if node not in self.needed:
                continue
            self.needed.discard(node)
            for parent in set(self.graph.parents[node]):
                self.pull[parent] -= 1
                if self.pull[parent] == 0 and parent not in self.targets and parent in self.needed:
                    stack.append(parent)
