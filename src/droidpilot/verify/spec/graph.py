"""Structural checks of a rule's DAG: references to missing nodes and cycles (errors), and the
deps-plus-next pattern and dead-end nodes (warnings).

Edges run from a ``deps`` entry to its node and from a node to each of its ``next`` entries. A node
with ``deps`` waits for all of them; a node without ``deps`` waits for one of its ``next`` parents.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from droidpilot.verify.rule import Task


def _key_line(mapping: Any, key: str) -> int | None:
    lines = getattr(mapping, "key_lines", None)
    if lines is None:
        return None
    return lines.get(key, getattr(mapping, "line", None))


def graph_problems(v: Any, nodes: list[dict[str, Any]], ids: list[str]) -> None:
    """Report references to missing nodes and every cycle over deps + next edges to validator ``v``."""
    known = set(ids)
    edges: dict[str, list[tuple[str, str]]] = {i: [] for i in ids}  # src -> [(dst, via)]
    line_of: dict[str, int | None] = {}
    for node in nodes:
        node_id = node.get("id")
        if not isinstance(node_id, str) or node_id not in known:
            continue
        line_of.setdefault(node_id, _key_line(node, "id"))
        for key in ("deps", "next"):
            refs = node.get(key)
            if not isinstance(refs, list):
                continue
            for ref in refs:
                if not isinstance(ref, str):
                    continue
                if ref not in known:
                    v.missing_reference(_key_line(node, key), node_id, key, ref, ids)
                elif key == "deps":
                    edges[ref].append((node_id, "deps"))
                else:
                    edges[node_id].append((ref, "next"))
    for cycle in find_cycles(ids, edges):
        start = cycle[0][0]
        path = start + "".join(f" -({via})-> {dst}" for _, dst, via in cycle)
        v.problem(line_of.get(start), start, f"cycle: {path}",
                  "remove one of these deps/next links; a milestone cannot come after itself")


def find_cycles(ids: list[str], edges: dict[str, list[tuple[str, str]]]) -> list[list[tuple[str, str, str]]]:
    """One cycle (as (src, dst, via) steps) per strongly connected component that has one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in ids:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            succ = edges.get(node, [])
            if i < len(succ):
                work.append((node, i + 1))
                nxt = succ[i][0]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                components.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    order = {node_id: i for i, node_id in enumerate(ids)}
    cycles = []
    for comp in sorted(components, key=lambda c: min(order[n] for n in c)):
        members = set(comp)
        start = min(comp, key=order.__getitem__)
        if len(comp) == 1 and not any(dst == start for dst, _ in edges.get(start, [])):
            continue
        cycles.append(_cycle_through(start, members, edges))
    return cycles


def _cycle_through(start: str, members: set[str], edges: dict[str, list[tuple[str, str]]]
                   ) -> list[tuple[str, str, str]]:
    # Shortest path from start back to start inside its component (breadth-first).
    came: dict[str, tuple[str, str]] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for dst, via in edges.get(node, []):
            if dst not in members:
                continue
            if dst == start:
                steps = [(node, start, via)]
                while node != start:
                    prev, prev_via = came[node]
                    steps.append((prev, node, prev_via))
                    node = prev
                return steps[::-1]
            if dst not in came:
                came[dst] = (node, via)
                queue.append(dst)
    return []


def graph_warnings(v: Any, task: Task) -> None:
    """Warn about nodes with deps that are also named in next, and nodes that lead to no success."""
    next_parents: dict[str, list[str]] = {n.id: [] for n in task.nodes}  # built once: linear, not n^2
    for node in task.nodes:
        for succ in node.next:
            if succ in next_parents and node.id not in next_parents[succ]:
                next_parents[succ].append(node.id)
    for node in task.nodes:
        parents = next_parents[node.id]
        if node.deps and parents:
            v.warn(node.line, node.id,
                   f"has deps {node.deps} and is also named in next of {parents}; only deps count "
                   "(all of them must come first), the next link does not",
                   "keep deps for AND or remove them and rely on next for OR")
    mode, targets = task.success_targets()
    children: dict[str, list[str]] = {n.id: [] for n in task.nodes}
    for node in task.nodes:
        for parent in (node.deps or next_parents[node.id]):
            if parent in children:
                children[parent].append(node.id)
    parents_of: dict[str, list[str]] = {n.id: [] for n in task.nodes}
    for parent, kids in children.items():
        for kid in kids:
            parents_of[kid].append(parent)
    useful = set(task.forbidden())  # forbidden nodes lead to no success by design
    queue = deque(t for t in targets if t in parents_of)
    while queue:
        node_id = queue.popleft()
        if node_id in useful:
            continue
        useful.add(node_id)
        queue.extend(parents_of[node_id])
    for node in task.nodes:
        if node.id not in useful:
            v.warn(node.line, node.id,
                   f"no success node ({mode}_of {targets}) can be reached from here, so it never "
                   "counts towards success", "link it to the success path with next/deps, or remove it")
