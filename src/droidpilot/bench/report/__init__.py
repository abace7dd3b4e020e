"""The benchmark's HTML report: one self-contained ``report.html`` next to ``results.json`` and the traces.

It opens from disk (no server, no network): styles, script and charts (SVG) are inline; screenshots and the
links to each trace's files are *relative paths* (``traces/ID/N.jpg``, ``traces/ID/rule.yaml``), so the
report opens from any folder as long as it moves together with its ``traces/`` folder (move or copy the
whole output folder). Every text that came from a screen, a model or a file is escaped.

Top to bottom: the run's provenance, the summary per level / app (pass@1, pass@K with several trials),
charts with value labels, the failure breakdown by cause, the task table (filter, search, sort), then one
collapsible section per task with its milestones, oracle and step timeline.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from droidpilot.atomicio import atomic_write_bytes as atomic_write
from droidpilot.bench.report.charts import grouped_bars
from droidpilot.bench.report.header import provenance, trials_table
from droidpilot.bench.report.page import PAGE, judge_section, summary_table
from droidpilot.bench.report.table import enrich, failure_breakdown, task_table
from droidpilot.bench.report.task import task_section
from droidpilot.bench.results import load_results
from droidpilot.errors import InputError


def render_report(out: Path, document: dict[str, Any], judge: dict[str, Any] | None = None) -> str:
    """The report's HTML for the results ``document`` of the run in ``out``."""
    rows = enrich(out, document.get("tasks", []))
    summary = document.get("summary") or {}
    levels = list((summary.get("by_level") or {}).keys())
    apps = list((summary.get("by_app") or {}).keys())
    by_level = summary.get("by_level") or {}
    by_app = summary.get("by_app") or {}
    charts = [
        grouped_bars("success per level", [f"L{x}" for x in levels],
                     [("Su (rule)", [by_level[x].get("su") for x in levels]),
                      ("Su-oracle", [by_level[x].get("su_oracle") for x in levels]),
                      ("CR", [by_level[x].get("cr") for x in levels]),
                      ("PS", [by_level[x].get("ps") for x in levels])], maximum=1.0),
        grouped_bars("success per app", apps,
                     [("Su (rule)", [by_app[x].get("su") for x in apps]),
                      ("Su-oracle", [by_app[x].get("su_oracle") for x in apps])], maximum=1.0,
                     width=max(640, 70 * len(apps))),
        grouped_bars("steps vs reference (mean per task)", [f"L{x}" for x in levels],
                     [("agent steps", [by_level[x].get("agent_steps") for x in levels]),
                      ("reference steps", [by_level[x].get("reference_steps") for x in levels])],
                     percent=False),
    ]
    title = f"droidpilot bench · {document.get('suite', '')} · brain {document.get('brain', '')}"
    tasks_html = "".join(task_section(out, row) for row in rows)
    body = (f'<h1>{escape(title)}</h1>'
            f'<p class="muted">{len(rows)} task runs · screenshots and trace files are linked by relative '
            f'paths (traces/…): keep report.html next to its traces/ folder.</p>'
            f'{provenance(document)}'
            f'<h2>summary</h2>{summary_table(summary)}{trials_table(summary.get("trials"))}'
            f'<div class="charts">{"".join(charts)}</div>'
            + failure_breakdown(rows)
            + (judge_section(judge) if judge else "")
            + '<h2>tasks</h2><p class="muted">filter, search or sort the table (click a column); open a task '
              'by its id. In a task, click a screenshot to enlarge it, then step with ◀ ▶ or the arrow '
              f'keys.</p>{task_table(rows)}<div id="tasks">{tasks_html}</div>')
    return PAGE.replace("{{TITLE}}", escape(title)).replace("{{BODY}}", body)


def write_report(out: str | Path, judge: dict[str, Any] | None = None) -> Path:
    """Write ``out/report.html`` from ``out/results.json`` (and ``out/judge_eval.json`` when present)."""
    out = Path(out)
    document = load_results(out)
    if document is None:
        raise InputError(f"{out}: no results.json to report on; run droidpilot bench --out {out} first")
    if judge is None:
        path = out / "judge_eval.json"
        if path.exists():
            try:
                judge = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                judge = None
    html = render_report(out, document, judge)
    target = out / "report.html"
    atomic_write(target, html.encode("utf-8"))
    return target
