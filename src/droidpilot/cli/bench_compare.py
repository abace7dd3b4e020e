"""`droidpilot bench compare RUN_A RUN_B`: Su per level side by side and every task whose result changed,
in the terminal (whole tables, also when piped) and as ``compare.html``.

Exit status 0, 2 when a folder holds no results."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from droidpilot.cli._common import guard
from droidpilot.cli._tables import print_whole

console = Console()


def _pct(v: object) -> str:
    return "-" if v is None else f"{float(v) * 100:.0f}%"  # type: ignore[arg-type]


def _verdict(side: dict | None) -> str:
    if side is None:
        return "-"
    return "pass" if side["su"] >= 1 else ("fail" if side["su"] <= 0 else f"{side['su'] * 100:.0f}%")


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
) -> None:
    """Compare two benchmark runs: Su per level side by side and the tasks that changed."""
    with guard():
        from droidpilot.atomicio import atomic_write_bytes
        from droidpilot.bench.compare import compare_runs
        from droidpilot.bench.report.compare_page import render_compare

        comparison = compare_runs(run_a, run_b)
        levels = Table(title=f"Su per level: A = {escape(str(run_a))}, B = {escape(str(run_b))}")
        for col in ("group", "tasks A", "tasks B", "Su A", "Su B", "Δ Su", "Su-oracle A", "Su-oracle B"):
            levels.add_column(col, justify="left" if col == "group" else "right")
        for r in comparison.levels:
            delta = "-" if r["delta"] is None else f"{r['delta'] * 100:+.0f} pts"
            levels.add_row(escape(r["group"]), str(r["tasks_a"] or "-"), str(r["tasks_b"] or "-"),
                           _pct(r["su_a"]), _pct(r["su_b"]), delta, _pct(r["su_oracle_a"]),
                           _pct(r["su_oracle_b"]))
        print_whole(console, levels)
        shown = [t for t in comparison.tasks if all_tasks or t.change != "same"]
        tasks = Table(title="tasks" if all_tasks else "tasks that changed")
        for col in ("task", "level", "change", "A", "B", "A ended", "B ended", "why it failed"):
            tasks.add_column(col)
        for t in shown:
            tasks.add_row(escape(t.id), f"L{escape(t.level)}", escape(t.change), _verdict(t.a), _verdict(t.b),
                          escape(str((t.a or {}).get("termination") or "-")),
                          escape(str((t.b or {}).get("termination") or "-")),
                          escape(_why(t.a, t.b)))
        print_whole(console, tasks)
        counts = ", ".join(f"{n} {c}" for c, n in comparison.counts().items() if n)
        console.print(f"{len(comparison.tasks)} tasks: {escape(counts)}", highlight=False)
        target = html or Path(run_b) / "compare.html"
        atomic_write_bytes(target, render_compare(comparison, target).encode("utf-8"))
        console.print(f"html: {escape(str(target))}", highlight=False, soft_wrap=True)
