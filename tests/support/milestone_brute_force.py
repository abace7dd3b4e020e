"""The verifier's search written again from its definition alone, by enumerating every assignment of
milestones to events, for the property tests to compare against.

Event 2i is frame i's screen, 2i+1 its action. A node with a condition may sit at an event where its
condition holds, after all its deps (or, without deps, after at least one next-parent); a node without a
condition sits exactly at the event its parents enable it (the latest dep, or the event of one
next-parent; roots at -1). The verdict holds when one assignment places the success targets. Conditions
come from a truth table: ``frames[i].ui["truth"][node][kind]`` is "yes", "no" or "undecided", and the
condition's ``params["pins"]`` lists the event kinds it can hold at.
"""

from __future__ import annotations

from dataclasses import dataclass

from droidpilot.verify.frame import Frame
from droidpilot.verify.rule import Task

KINDS = ("screen", "action")


@dataclass(frozen=True)
class Truth:
    """What the definition says: the verdict, each node's earliest event and the event after which it
    is enabled (None: never)."""

    ok: bool
    earliest: dict[str, int | None]
    enabling: dict[str, int | None]


def brute_force(task: Task, frames: list[Frame], optimistic: bool = False) -> Truth:
    """Enumerate every valid assignment (the rule lists parents before their children)."""
    ids = [n.id for n in task.nodes]
    nodes = {n.id: n for n in task.nodes}
    or_parents = {i: [p.id for p in task.nodes if i in p.next] for i in ids}
    n_events = 2 * len(frames)

    def holds(node: str, event: int) -> bool:
        cond = nodes[node].condition
        assert cond is not None
        if event < 0 or KINDS[event % 2] not in cond.params["pins"]:
            return False
        value = frames[event // 2].ui["truth"][node][KINDS[event % 2]]
        return value == "yes" or (optimistic and value == "undecided")

    def allowed(node: str, event: int, at: dict[str, int | None]) -> bool:
        has_cond = nodes[node].condition is not None
        if has_cond and not holds(node, event):
            return False
        parents = nodes[node].deps
        if parents:
            times = [at[p] for p in parents]
            if any(t is None for t in times):
                return False
            latest = max(t for t in times if t is not None)
            return latest < event if has_cond else event == latest
        if or_parents[node]:
            reached = [t for t in (at[p] for p in or_parents[node]) if t is not None]
            return any(t < event for t in reached) if has_cond else event in reached
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

    earliest = {i: min((a[i] for a in valid if a[i] is not None), default=None) for i in ids}
    return Truth(any(succeeds(a) for a in valid), earliest, _enabling(task, earliest, or_parents))


def _enabling(task: Task, earliest: dict[str, int | None],
              or_parents: dict[str, list[str]]) -> dict[str, int | None]:
    """Satisfying a node early never hurts a successor, so enabling follows from the earliest events."""
    out: dict[str, int | None] = {}
    for node in task.nodes:
        if node.deps:
            times = [earliest[d] for d in node.deps]
            out[node.id] = None if None in times else max(t for t in times if t is not None)
        elif or_parents[node.id]:
            out[node.id] = min((t for t in (earliest[p] for p in or_parents[node.id]) if t is not None),
                               default=None)
        else:
            out[node.id] = -1
    return out
