"""Forbidden milestones (``success.none_of``): a node that must not be met once its parents are.

A side effect nobody asked for (a second alarm deleted, a favourite removed again, money sent in an
infeasible task) leaves the success path intact, so milestones alone pass it. A forbidden node names it:
its parents say from when on it is watched (``deps`` on the change that was asked for; a root from the
start), its condition what must not happen. The same lazy sweep answers the question, with the forbidden
nodes as its targets: when it reaches one, the run fails, naming the node and the event.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from droidpilot.verify.search import Graph, Oracle, Outcome, describe_event, sweep


@dataclass(frozen=True)
class Breach:
    """A forbidden node met at ``event``; ``doubtful`` when it was met only by counting undecided
    checks as yes (the verdict stands, but a person should look)."""

    node: str
    event: int
    doubtful: bool = False

    def describe(self, name: str) -> str:
        label = f"{self.node} ({name})" if name and name != self.node else self.node
        return f"forbidden milestone met: {label} at {describe_event(self.event)}"


def find_breach(graph: Graph, forbidden: list[str], n_events: int, oracle: Oracle) -> Breach | None:
    """The first forbidden node met in the trace (by the sweep with those nodes as its targets), or a
    doubtful one when only an undecided check stands between it and being met; None when none is."""
    if not forbidden:
        return None
    watch = dataclasses.replace(graph, mode="any", targets=tuple(dict.fromkeys(forbidden)))
    found = sweep(watch, n_events, oracle)
    if found.ok:
        return _first(found, watch)
    if found.saw_undecided:
        maybe = sweep(watch, n_events, oracle, optimistic=True)
        if maybe.ok:
            return dataclasses.replace(_first(maybe, watch), doubtful=True)
    return None


def _first(outcome: Outcome, graph: Graph) -> Breach:
    met = [t for t in graph.targets if t in outcome.earliest]
    node = min(met, key=outcome.earliest.__getitem__)
    return Breach(node, outcome.earliest[node])


__all__ = ["Breach", "find_breach"]
