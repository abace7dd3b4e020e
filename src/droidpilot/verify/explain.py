"""The human-readable verdict: every possible success path of the DAG, the witness, then each node's
decisions. All text that comes from rules, traces or checkers is escaped before Rich renders it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from droidpilot.verify.result import VerifyResult
from droidpilot.verify.rule import Task
from droidpilot.verify.search import Graph, build_graph, event_kind

PATH_LIMIT = 50  # paths listed before "... and more"
_CAP = 500  # closures kept per node while enumerating, so a wide DAG cannot blow up


def rule_graph(task: Task) -> Graph:
    """The DAG's structure alone (conditions do not matter for listing paths)."""
    mode, targets = task.success_targets()
    return build_graph([n.id for n in task.nodes], {n.id: list(n.deps) for n in task.nodes},
                       {n.id: list(n.next) for n in task.nodes}, {}, mode, targets)


def _dedupe(sets: Iterable[frozenset[str]]) -> list[frozenset[str]]:
    return list(dict.fromkeys(sets))[:_CAP]


def success_paths(task: Task) -> tuple[list[list[str]], bool]:
    """Every set of milestones that completes the task (deps all taken, one ``next`` parent per OR-join),
    each in DAG order; the flag says the list was cut short."""
    graph = rule_graph(task)
    closures: dict[str, list[frozenset[str]]] = {}
    truncated = False
    for node in graph.order:
        parents = graph.parents[node]
        if graph.join[node] == "all":
            combos = itertools.islice(itertools.product(*(closures[p] for p in parents)), _CAP + 1)
            found = [frozenset({node}).union(*combo) for combo in combos]
        elif graph.join[node] == "any":
            found = [c | {node} for p in parents for c in closures[p]]
        else:
            found = [frozenset({node})]
        truncated = truncated or len(found) > _CAP
        closures[node] = _dedupe(found)
    if graph.mode == "all":
        combos = itertools.islice(itertools.product(*(closures[t] for t in graph.targets)), _CAP + 1)
        finals = [frozenset().union(*combo) for combo in combos]
    else:
        finals = [c for t in graph.targets for c in closures[t]]
    finals = sorted(_dedupe(finals), key=len)
    truncated = truncated or len(finals) > PATH_LIMIT
    rank = {n: i for i, n in enumerate(graph.order)}
    return [sorted(f, key=rank.__getitem__) for f in finals[:PATH_LIMIT]], truncated


def check_summary(check: Mapping[str, Any]) -> str:
    """``escalate: yes [text_match: no; xml_text_match: yes (found 'Cart')]`` from a CheckResult dict."""
    text = f"{check.get('checker', '?')}: {check.get('result', '?')}"
    children = check.get("children") or []
    if children:  # a combinator: its parts say more than its summary
        return text + " [" + "; ".join(check_summary(c) for c in children) + "]"
    return text + (f" ({check['reason']})" if check.get("reason") else "")


def _verdict_line(result: VerifyResult) -> str:
    if result.ok:
        head = "[bold green]PASS[/]"
    elif result.manual_review_needed:
        head = "[bold red]FAIL[/] [bold yellow](manual review needed)[/]"
    else:
        head = "[bold red]FAIL[/]"
    score = f"{result.total_score:g}/{result.max_score:g}"
    task = f" {escape(result.task_id)}" if result.task_id else ""
    return (f"{head}{task}: score {score}, {result.frame_count} frames, "
            f"{result.checker_calls} checker calls")


def _paths_section(console: Console, task: Task, result: VerifyResult) -> None:
    paths, truncated = success_paths(task)
    witness = {m.node for m in result.matched} | set(result.conditionless_witness)
    mode = "all of" if result.success_mode == "all" else "any of"
    console.print(f"\n[bold]Success paths[/] ({len(paths)}{'+' if truncated else ''}; success = {mode} "
                  f"{escape(', '.join(result.success_targets))})")
    for i, path in enumerate(paths, 1):
        mark = "[green]*[/]" if result.ok and set(path) == witness else " "
        console.print(f" {mark} {i:>2}. " + escape(" -> ".join(path)), highlight=False)
    if truncated:
        console.print(f"     ... more paths not listed (first {PATH_LIMIT} shown)")


def _witness_section(console: Console, result: VerifyResult) -> None:
    title = "Witness" if result.ok else "Best partial path"
    if not result.matched and not result.conditionless_witness:
        console.print(f"\n[bold]{title}[/]: no milestone reached")
        return
    table = Table(title=title, title_justify="left", show_lines=False)
    for col in ("#", "node", "name", "frame", "event", "score"):
        table.add_column(col)
    for n in result.conditionless_witness:
        table.add_row("-", Text(n), Text("(no condition)"), "-", "start", "")
    for i, m in enumerate(result.matched, 1):
        table.add_row(str(i), Text(m.node), Text(m.name), str(m.frame), m.event, f"{m.score:g}")
    console.print()
    console.print(table)


def _decisions_by_node(result: VerifyResult) -> dict[str, list[dict[str, Any]]]:
    by_node: dict[str, list[dict[str, Any]]] = {}
    for d in result.decisions:
        by_node.setdefault(d["node"], []).append(d)
    return by_node


def _node_detail(status: Any, decisions: list[dict[str, Any]], verbose: bool) -> str:
    if status.state == "reached":
        yes = next((d for d in decisions if d["result"] == "yes"), None)
        return check_summary(yes["check"]) if yes else "no condition: passes through with its parents"
    shown = [d for d in decisions if d["result"] != "yes"]
    if not shown:
        return "never checked"
    picked = shown if verbose else shown[:2]
    lines = [f"frame {d['frame']} {d['event']}: {check_summary(d['check'])}" for d in picked]
    if len(shown) > len(picked):
        lines.append(f"... {len(shown) - len(picked)} more")
    return "\n".join(lines)


def _decisions_section(console: Console, result: VerifyResult, verbose: bool) -> None:
    table = Table(title="Per-node decisions", title_justify="left", show_lines=True,
                  caption="y/n/u: how many checks said yes / no / undecided", caption_justify="left")
    table.add_column("node", overflow="fold", ratio=2)
    table.add_column("state", no_wrap=True)
    table.add_column("at", no_wrap=True)
    table.add_column("y/n/u", no_wrap=True)
    table.add_column("decisive checks", overflow="fold", ratio=5)
    by_node = _decisions_by_node(result)
    for status in result.nodes:
        at = ""
        if status.event is not None:
            at = "start" if status.event < 0 else f"f{status.event // 2} {event_kind(status.event)}"
        elif status.enabled_after is not None and status.state == "never met":
            after = status.enabled_after
            at = "from start" if after < 0 else f"after f{after // 2} {event_kind(after)}"
        style = {"reached": "green", "never met": "red", "not enabled": "yellow"}.get(status.state, "dim")
        label = status.node + (f"\n{status.name}" if status.name and status.name != status.node else "")
        table.add_row(Text(label), Text(status.state, style=style), at,
                      f"{status.yes}/{status.no}/{status.undecided}",
                      Text(_node_detail(status, by_node.get(status.node, []), verbose)))
    console.print()
    console.print(table)


def render(result: VerifyResult, task: Task, console: Console | None = None, *,
           verbose: bool = False) -> None:
    """Print the verdict, the success paths, the witness (or best partial path) and per-node decisions."""
    console = console or Console()
    console.print(_verdict_line(result), highlight=False)
    _paths_section(console, task, result)
    _witness_section(console, result)
    _decisions_section(console, result, verbose)
    console.print(f"\n[bold]Reason[/]: {escape(result.reason)}", highlight=False)
