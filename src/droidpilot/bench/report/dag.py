"""The rule's milestone DAG as inline SVG: nodes in layers by depth, reached ones green with their frame."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from droidpilot.verify.rule import Task

BOX_W, BOX_H, GAP_X, GAP_Y = 210, 46, 40, 26
LINE_H, LINE_CHARS = 15, 26


def wrap_label(name: str, width: int = LINE_CHARS) -> list[str]:
    """A milestone's full name in lines of about ``width`` characters (never cut off)."""
    words, lines, line = name.split(), [], ""
    for word in words:
        while len(word) > width:  # a very long word (or CJK text without spaces) is split, not cut
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return lines or [""]


def _edges(task: Task) -> list[tuple[str, str]]:
    edges: list[tuple[str, str]] = []
    for node in task.nodes:
        edges.extend((dep, node.id) for dep in node.deps)
        edges.extend((node.id, nxt) for nxt in node.next)
    return list(dict.fromkeys(edges))


def _layers(task: Task, edges: list[tuple[str, str]]) -> dict[str, int]:
    depth = {n.id: 0 for n in task.nodes}
    for _ in range(len(task.nodes)):
        changed = False
        for a, b in edges:
            if a in depth and b in depth and depth[b] < depth[a] + 1:
                depth[b] = depth[a] + 1
                changed = True
        if not changed:
            break
    return depth


def dag_svg(task: Task, reached: Mapping[str, int], frame_link: Mapping[int, str]) -> str:
    """SVG of ``task``'s DAG; ``reached`` maps node id -> the verifier's frame index; ``frame_link`` maps
    a frame index to the anchor of its screenshot."""
    edges = _edges(task)
    depth = _layers(task, edges)
    columns: dict[int, list[str]] = {}
    for node in task.nodes:
        columns.setdefault(depth[node.id], []).append(node.id)
    names = {n.id: n.name or n.id for n in task.nodes}
    lines = {nid: wrap_label(name) for nid, name in names.items()}
    box_h = {nid: BOX_H + LINE_H * (len(ls) - 1) for nid, ls in lines.items()}
    pos: dict[str, tuple[float, float]] = {}
    for col, ids in columns.items():
        y = 10.0
        for nid in ids:
            pos[nid] = (10 + col * (BOX_W + GAP_X), y)
            y += box_h[nid] + GAP_Y
    width = 20 + (max(columns) + 1) * (BOX_W + GAP_X) if columns else 100
    height = (20 + max(sum(box_h[n] + GAP_Y for n in ids) for ids in columns.values())) if columns else 60
    parts = [f'<svg class="dag" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'xmlns="http://www.w3.org/2000/svg"><defs><marker id="ah" viewBox="0 0 10 10" refX="9" '
             f'refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" '
             f'fill="#666"/></marker></defs>']
    for a, b in edges:
        if a not in pos or b not in pos:
            continue
        (x1, y1), (x2, y2) = pos[a], pos[b]
        parts.append(f'<line x1="{x1 + BOX_W:.0f}" y1="{y1 + box_h[a] / 2:.0f}" x2="{x2:.0f}" '
                     f'y2="{y2 + box_h[b] / 2:.0f}" stroke="#666" stroke-width="1.5" marker-end="url(#ah)"/>')
    for nid, (x, y) in pos.items():
        frame = reached.get(nid)
        cls = "reached" if frame is not None else "unmet"
        sub = f"frame {frame}" if frame is not None else "not reached"
        text = "".join(f'<tspan x="{x + 8:.0f}" dy="{0 if i == 0 else LINE_H}">{escape(line)}</tspan>'
                       for i, line in enumerate(lines[nid]))
        box = (f'<g class="{cls}"><rect x="{x:.0f}" y="{y:.0f}" width="{BOX_W}" height="{box_h[nid]}" '
               f'rx="8"/>'
               f'<text x="{x + 8:.0f}" y="{y + 19:.0f}" class="nt">{text}</text>'
               f'<text x="{x + 8:.0f}" y="{y + box_h[nid] - 9:.0f}" class="ns">{escape(nid)} · {escape(sub)}'
               f'</text><title>{escape(names[nid])} ({escape(nid)}): {escape(sub)}</title></g>')
        if frame is not None and frame in frame_link:
            box = f'<a href="#{escape(frame_link[frame])}">{box}</a>'
        parts.append(box)
    parts.append("</svg>")
    return "".join(parts)


def node_decisions(verify: Mapping[str, Any], node: str, limit: int = 3) -> list[dict[str, Any]]:
    """The checks that decided ``node``: its yes (if any) first, then its latest no / undecided answers."""
    mine = [d for d in verify.get("decisions", []) if d.get("node") == node]
    yes = [d for d in mine if d.get("result") == "yes"]
    other = [d for d in mine if d.get("result") != "yes"]
    return (yes[:1] + other[-(limit - len(yes[:1])):]) if mine else []


def check_text(check: Mapping[str, Any]) -> str:
    """One line for a check and its sub-checks: ``escalate: yes (xml: yes — XML shows [...])``."""
    name = str(check.get("name") or check.get("checker") or "check")
    verdict = str(check.get("verdict") or check.get("result") or "")
    reason = str(check.get("reason") or "")
    children = check.get("children") or []
    text = f"{name}: {verdict}" + (f" — {reason}" if reason else "")
    if children:
        text += " [" + "; ".join(check_text(c) for c in children) + "]"
    return text
