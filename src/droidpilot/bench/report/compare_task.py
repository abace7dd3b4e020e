"""One task's two runs side by side (``compare-tasks/ID.html``): the steps of A and B aligned by their action
words (``stepalign``), each with its screenshot and the action drawn on it, and the first step where the
runs diverge highlighted and linked from the top. Screenshots are linked relatively, not copied."""

from __future__ import annotations

import json
import os
from html import escape
from pathlib import Path
from typing import Any

from droidpilot.bench.compare import Comparison, TaskDiff
from droidpilot.bench.report.page import PAGE
from droidpilot.bench.report.steps import frame_figure
from droidpilot.bench.stepalign import Row, Step, align, first_divergence, summary, trace_steps

PAIR_CSS = """<style>
table.pair{width:100%;table-layout:fixed}table.pair td{vertical-align:top;text-align:left;width:50%}
table.pair tr.diff td{background:#fff8e1}table.pair tr.first td{background:#fce8e6;
box-shadow:inset 0 3px 0 #d93025}table.pair td.gap{color:#5f6368;font-style:italic}
table.pair figure.shot{width:220px}.sn{font-weight:bold}.oc{color:#5f6368;font-size:12px}
</style>"""


def trace_of(run: Path, side: dict[str, Any] | None) -> Path | None:
    """The trace folder of a task's row in a run (None when it has none on disk)."""
    if side is None or not side.get("trace"):
        return None
    folder = run / str(side["trace"])
    return folder if (folder / "actions.json").is_file() or (folder / "steps.jsonl").is_file() else None


def _cell(step: Step | None, folder: Path, rel: str, actions: dict[int, dict[str, Any]], side: str) -> str:
    if step is None:
        return '<td class="gap">(no step here)</td>'
    fig = ""
    if step.frame is not None:
        caption = f"{side} step {step.number}: {step.action}"
        fig = frame_figure(folder, rel, step.frame, actions.get(step.frame, {}), f"{side}-{step.number}",
                           caption)
    return (f'<td><div><span class="sn">{side} step {step.number}</span> {escape(step.action)}</div>'
            f'<div class="oc">{escape(step.outcome)}</div>{fig}</td>')


def _actions(folder: Path) -> dict[int, dict[str, Any]]:
    """actions.json's entries by frame number (empty when it is missing or unreadable)."""
    try:
        doc = json.loads((folder / "actions.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    items = doc.get("actions", []) if isinstance(doc, dict) else []
    items = items if isinstance(items, list) else []
    return {int(a.get("action_index", i + 1)): a for i, a in enumerate(items) if isinstance(a, dict)}


def render_task_pair(comparison: Comparison, task: TaskDiff, html_path: Path) -> str | None:
    """The side-by-side page of ``task`` (None when either run has no trace of it)."""
    a_dir = trace_of(comparison.a_path, task.a)
    b_dir = trace_of(comparison.b_path, task.b)
    if a_dir is None or b_dir is None:
        return None
    here = html_path.parent.resolve()
    rel_a = os.path.relpath(a_dir.resolve(), here).replace(os.sep, "/")
    rel_b = os.path.relpath(b_dir.resolve(), here).replace(os.sep, "/")
    rows: list[Row] = align(trace_steps(a_dir), trace_steps(b_dir))
    first = first_divergence(rows)
    acts_a, acts_b = _actions(a_dir), _actions(b_dir)
    body_rows = []
    for i, row in enumerate(rows):
        cls = "first" if i == first else ("same" if row.same else "diff")
        anchor = ' id="first-divergence"' if i == first else ""
        body_rows.append(f'<tr class="{cls}"{anchor}>{_cell(row.a, a_dir, rel_a, acts_a, "A")}'
                         f'{_cell(row.b, b_dir, rel_b, acts_b, "B")}</tr>')
    info = summary(rows)
    where = (f'<a href="#first-divergence">first divergent step: row {info["first_divergence"]}</a>'
             if first is not None else "the two runs took the same steps")
    back = os.path.relpath(html_path.parent.parent / "compare.html", here).replace(os.sep, "/")
    body = (f'{PAIR_CSS}<p><a href="{escape(back)}">← all tasks</a></p>'
            f"<h1>{escape(task.id)}: {escape(task.change)}</h1>"
            f'<p class="muted">{escape(task.instruction)}</p>'
            f"<p>A: {info['a_steps']} steps · B: {info['b_steps']} steps · {info['same']} rows agree · "
            f"{where}</p>"
            f'<table class="pair"><tr><th>A: {escape(str(comparison.a_path))}</th>'
            f'<th>B: {escape(str(comparison.b_path))}</th></tr>{"".join(body_rows)}</table>')
    title = f"droidpilot bench compare · {task.id}"
    return PAGE.replace("{{TITLE}}", escape(title)).replace("{{BODY}}", body)


def pair_path(compare_html: Path, task_id: str) -> Path:
    """Where a task's side-by-side page goes, next to ``compare.html``."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in task_id) or "task"
    return compare_html.parent / "compare-tasks" / f"{safe}.html"
