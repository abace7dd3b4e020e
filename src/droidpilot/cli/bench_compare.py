"""`droidpilot bench compare RUN_A RUN_B`: Su per level side by side and every task whose result changed,
in the terminal (tables; tab-separated lines when piped; ``--json``) and as ``compare.html``.

Exit status 0, 2 when a folder holds no results."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from droidpilot.bench.percent import percent
from droidpilot.cli import _common
from droidpilot.cli._common import guard
from droidpilot.cli._listing import Listing, emit, table
from droidpilot.cli._tables import print_whole
from droidpilot.textsafe import printable

console = Console()


def _pct(v: object) -> str:
    return "-" if v is None else percent(float(v))  # type: ignore[arg-type]


def _verdict(side: dict | None) -> str:
    if side is None:
        return "-"
    return "pass" if side["su"] >= 1 else ("fail" if side["su"] <= 0 else percent(side['su']))


def _why(a: dict | None, b: dict | None) -> str:
    """The failure reason of the side that failed (B's when both did)."""
    for side in (b, a):
        if side is not None and side["su"] < 1 and side.get("reason"):
            return str(side["reason"])
    return ""


def compare(
    run_a: Path = typer.Argument(..., help="Results folder of the first run (A)."),
    run_b: Path = typer.Argument(..., help="Results folder of the second run (B)."),
    html: Path | None = typer.Option(None, "--html", help="Where to write the HTML comparison "
                                                          "(default: RUN_B/compare.html)."),
    all_tasks: bool = typer.Option(False, "--all", help="List every task, not only those that changed."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object {a, b, levels, tasks, counts, "
                                                       "html}."),
) -> None:
    """Compare two benchmark runs: Su per level side by side and the tasks that changed. On a terminal two
    tables; piped, tab-separated lines (the levels, a blank line, the tasks), values whole."""
    with guard():
        from droidpilot.atomicio import atomic_write_bytes
        from droidpilot.bench.compare import compare_runs
        from droidpilot.bench.report.compare_page import render_compare
        from droidpilot.bench.report.compare_task import pair_path, render_task_pair

        comparison = compare_runs(run_a, run_b)
        levels = Listing(("group", "tasks A", "tasks B", "Su A", "Su B", "Δ Su", "Su-oracle A",
                          "Su-oracle B"), title=f"Su per level: A = {run_a}, B = {run_b}")
        for r in comparison.levels:
            delta = "-" if r["delta"] is None else f"{r['delta'] * 100:+.0f} pts"
            levels.add(r["group"], str(r["tasks_a"] or "-"), str(r["tasks_b"] or "-"), _pct(r["su_a"]),
                       _pct(r["su_b"]), delta, _pct(r["su_oracle_a"]), _pct(r["su_oracle_b"]))
        shown = comparison.changed() + (comparison.unchanged() if all_tasks else [])
        tasks = Listing(("task", "level", "change", "A", "B", "A ended", "B ended", "why it failed"),
                        title="tasks" if all_tasks else "tasks that changed")
        for t in shown:
            tasks.add(t.id, f"L{t.level}", t.change, _verdict(t.a), _verdict(t.b),
                      str((t.a or {}).get("termination") or "-"), str((t.b or {}).get("termination") or "-"),
                      _why(t.a, t.b))
        target = html or Path(run_b) / "compare.html"
        pairs = {}
        for t in comparison.tasks:  # one side-by-side page per task both runs have a trace of
            where = pair_path(target, t.id)
            page = render_task_pair(comparison, t, where)
            if page is not None:
                where.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_bytes(where, page.encode("utf-8"))
                pairs[t.id] = where
        atomic_write_bytes(target, render_compare(comparison, target, pairs).encode("utf-8"))
        if as_json:
            emit(console, tasks, as_json=True, document={
                "a": str(run_a), "b": str(run_b), "levels": comparison.levels,
                "tasks": [{"id": t.id, "level": t.level, "app": t.app, "change": t.change, "a": t.a, "b": t.b}
                          for t in shown],
                "counts": comparison.counts(), "settings_diff": comparison.settings_diff(),
                "html": str(target)})
            return
        counts = ", ".join(f"{n} {c}" for c, n in comparison.counts().items() if n)
        differ = ", ".join(d["key"] for d in comparison.settings_diff()) or "none"
        notes = [f"{len(comparison.tasks)} tasks: {counts}", f"settings that differ: {differ}",
                 f"html: {target}"]
        if not console.is_terminal:  # rows on stdout, the notes on stderr: a script reads only rows
            emit(console, levels)
            console.file.write("\n")
            emit(console, tasks)
            for note in notes:
                _common.err_console.print(escape(printable(note)), highlight=False, soft_wrap=True)
            return
        print_whole(console, table(levels))
        print_whole(console, table(tasks))
        for note in notes:
            console.print(escape(printable(note)), highlight=False, soft_wrap=True)
