"""The human-readable verdict: the success paths of the DAG (a bounded number, and how many exist), the
witness, then each node's decisions. All text that comes from rules, traces or checkers is escaped
(Rich markup and terminal control characters) before Rich renders it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from droidpilot.textsafe import printable
from droidpilot.verify.result import VerifyResult
from droidpilot.verify.rule import Task
from droidpilot.verify.search import Graph, build_graph, event_kind

PATH_LIMIT = 50  # paths listed before "... and more"
_WALK_BUDGET = 4 * PATH_LIMIT + 200  # choice combinations tried while looking for distinct paths
ROW_LIMIT = 200  # rows of the witness and per-node tables before "... N more" (use --json for all)


def _safe(text: str) -> str:
    """Text from a rule or trace, ready for Rich markup: terminal controls stripped, markup escaped."""
    return escape(printable(text))


def rule_graph(task: Task) -> Graph:
    """The DAG's structure alone (conditions do not matter for listing paths)."""
    mode, targets = task.success_targets()
    return build_graph([n.id for n in task.nodes], {n.id: list(n.deps) for n in task.nodes},
                       {n.id: list(n.next) for n in task.nodes}, {}, mode, targets)


def count_success_paths(task: Task) -> int:
    """How many ways there are to complete the task (one ``next`` parent per OR-join, every dep), counted
    without listing them; an upper bound on the distinct milestone sets, exact when no two AND-joined
    branches share a milestone. A 10k-node rule can have more than 10**2000."""
    return _count_of(rule_graph(task))


def _count_of(graph: Graph) -> int:
    ways: dict[str, int] = {}
    for node in graph.order:
        parents = graph.parents[node]
        if graph.join[node] == "all":
            ways[node] = math.prod(ways[p] for p in parents)
        elif graph.join[node] == "any":
            ways[node] = sum(ways[p] for p in parents)
        else:
            ways[node] = 1
    if graph.mode == "all":
        return math.prod(ways[t] for t in graph.targets)
    return sum(ways[t] for t in graph.targets)


def _walk(graph: Graph, forced: list[int]) -> tuple[frozenset[str], list[int]]:
    """One success path, taking choice ``forced[i]`` at the i-th OR choice met walking back from the
    targets (0 past the end); returns it and the number of options at every choice met."""
    radices: list[int] = []

    def choose(options: tuple[str, ...]) -> str:
        i = len(radices)
        radices.append(len(options))
        return options[forced[i] if i < len(forced) else 0]

    needed = set(graph.targets) if graph.mode == "all" else {choose(graph.targets)}
    for node in reversed(graph.order):
        if node not in needed:
            continue
        if graph.join[node] == "all":
            needed.update(graph.parents[node])
        elif graph.join[node] == "any":
            needed.add(choose(graph.parents[node]))
    return frozenset(needed), radices


def success_paths(task: Task) -> tuple[list[list[str]], bool]:
    """Up to PATH_LIMIT distinct sets of milestones that complete the task (deps all taken, one ``next``
    parent per OR-join), shortest first, each in DAG order; the flag says there are more.

    Choice combinations are walked like an odometer (each walk costs one pass over the rule), so a rule
    with astronomically many paths costs at most a few hundred passes, never their enumeration."""
    return _paths_of(rule_graph(task))


def _paths_of(graph: Graph) -> tuple[list[list[str]], bool]:
    found: dict[frozenset[str], None] = {}
    forced: list[int] = []
    exhausted = False
    for _ in range(_WALK_BUDGET):
        path, radices = _walk(graph, forced)
        found.setdefault(path)
        if len(found) > PATH_LIMIT:
            break
        choices = forced + [0] * (len(radices) - len(forced))
        while choices and choices[-1] + 1 >= radices[len(choices) - 1]:
            choices.pop()
        if not choices:
            exhausted = True
            break
        choices[-1] += 1
        forced = choices
    finals = sorted(found, key=len)
    truncated = not exhausted or len(finals) > PATH_LIMIT
    rank = {n: i for i, n in enumerate(graph.order)}
    return [sorted(f, key=rank.__getitem__) for f in finals[:PATH_LIMIT]], truncated


def _how_many(count: int) -> str:
    return f"{count:,}" if count < 10**12 else f"about 10^{len(str(count)) - 1}"


def _path_text(path: list[str], keep: int = 6) -> str:
    """``a -> b -> c``; a long path shows its first and last ``keep`` milestones around the count left out."""
    if len(path) <= 2 * keep + 1:
        return " -> ".join(path)
    return (" -> ".join(path[:keep]) + f" -> ... {len(path) - 2 * keep} more ... -> " +
            " -> ".join(path[-keep:]) + f"  ({len(path)} milestones)")


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
    task = f" {_safe(result.task_id)}" if result.task_id else ""
    return (f"{head}{task}: score {score}, {result.frame_count} frames, "
            f"{result.checker_calls} checker calls")


def _paths_section(console: Console, task: Task, result: VerifyResult) -> None:
    graph = rule_graph(task)
    paths, truncated = _paths_of(graph)
    witness = {m.node for m in result.matched} | set(result.conditionless_witness)
    mode = "all of" if result.success_mode == "all" else "any of"
    how_many = f"{len(paths)} of up to {_how_many(_count_of(graph))}" if truncated else str(len(paths))
    console.print(f"\n[bold]Success paths[/] ({how_many}; success = {mode} "
                  f"{_safe(', '.join(result.success_targets))})")
    for i, path in enumerate(paths, 1):
        mark = "[green]*[/]" if result.ok and set(path) == witness else " "
        console.print(f" {mark} {i:>2}. " + _safe(_path_text(path)), highlight=False)
    if truncated:
        console.print(f"     ... more paths not listed (first {PATH_LIMIT} shown)")


def _witness_section(console: Console, result: VerifyResult) -> None:
    title = "Witness" if result.ok else "Best partial path"
    if not result.matched and not result.conditionless_witness:
        console.print(f"\n[bold]{title}[/]: no milestone reached")
        return
    table = Table(title=title, title_justify="left", show_lines=False)
    for col in ("#", "node", "name", "frame (from 1)", "event", "score"):
        table.add_column(col)
    for n in result.conditionless_witness[:ROW_LIMIT]:
        table.add_row("-", Text(printable(n)), Text("(no condition)"), "-", "start", "")
    for i, m in enumerate(result.matched[:max(0, ROW_LIMIT - len(result.conditionless_witness))], 1):
        table.add_row(str(i), Text(printable(m.node)), Text(printable(m.name)), str(m.frame + 1), m.event,
                      f"{m.score:g}")
    console.print()
    console.print(table)
    hidden = len(result.conditionless_witness) + len(result.matched) - ROW_LIMIT
    if hidden > 0:
        console.print(f"... {hidden} more milestones not listed (--json lists them all)")


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
    lines = [f"frame {d['frame'] + 1} {d['event']}: {check_summary(d['check'])}" for d in picked]
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
    shown = result.nodes
    if len(shown) > ROW_LIMIT:  # the nodes that explain the verdict first: unmet, then reached
        first = {"never met": 0, "reached": 1}
        shown = sorted(shown, key=lambda st: first.get(st.state, 2))[:ROW_LIMIT]
        keep = {id(st) for st in shown}
        shown = [st for st in result.nodes if id(st) in keep]
    for status in shown:
        at = ""
        if status.event is not None:
            at = "start" if status.event < 0 else f"f{status.event // 2 + 1} {event_kind(status.event)}"
        elif status.enabled_after is not None and status.state == "never met":
            after = status.enabled_after
            at = "from start" if after < 0 else f"after f{after // 2 + 1} {event_kind(after)}"
        style = {"reached": "green", "never met": "red", "not enabled": "yellow"}.get(status.state, "dim")
        label = status.node + (f"\n{status.name}" if status.name and status.name != status.node else "")
        table.add_row(Text(printable(label)), Text(status.state, style=style), at,
                      f"{status.yes}/{status.no}/{status.undecided}",
                      Text(printable(_node_detail(status, by_node.get(status.node, []), verbose))))
    console.print()
    console.print(table)
    if len(result.nodes) > len(shown):
        hidden = len(result.nodes) - len(shown)
        console.print(f"... {hidden} more nodes not listed (--json has every decision)")


def render(result: VerifyResult, task: Task, console: Console | None = None, *,
           verbose: bool = False) -> None:
    """Print the verdict, the success paths, the witness (or best partial path) and per-node decisions."""
    console = console or Console()
    console.print(_verdict_line(result), highlight=False)
    _paths_section(console, task, result)
    _witness_section(console, result)
    _decisions_section(console, result, verbose)
    console.print(f"\n[bold]Reason[/]: {_safe(result.reason)}", highlight=False)
