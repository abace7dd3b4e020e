"""The report's task table (filter by level, app, verdict, termination and failure cause; search; sort by
any column) and the failure breakdown by cause. The table is plain HTML; ``script.py`` makes it live."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from droidpilot.bench.failures import CAUSES, failure_cause, failure_reason, passed
from droidpilot.bench.metrics import read_steps
from droidpilot.bench.report.charts import horizontal_bars


def row_anchor(row: dict[str, Any]) -> str:
    """The id of a row's task section: ``task-ID`` (``task-ID@K`` for trial K of several)."""
    trace = str(row.get("trace") or "")
    name = trace.rsplit("/", 1)[-1]
    key = name if name and name.split("@")[0] == str(row.get("id")) else str(row.get("id"))
    return f"task-{key}"


def enrich(out: Path, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with ``failure`` and ``failure_reason`` (computed from the trace when an older run lacks them)."""
    result = []
    for row in rows:
        row = dict(row)
        if "failure" not in row or "failure_reason" not in row:
            steps = read_steps(out / str(row["trace"])) if row.get("trace") else []
            row["failure"], row["failure_reason"] = failure_cause(row, steps), failure_reason(row, steps)
        result.append(row)
    return result


def _options(name: str, label: str, values: Sequence[str]) -> str:
    opts = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return (f'<label>{escape(label)} <select id="f-{name}" data-filter="{name}"><option value="">all</option>'
            f'{opts}</select></label>')


def _cell(value: Any, sort: Any = None, cls: str = "") -> str:
    key = value if sort is None else sort
    attr = f' class="{cls}"' if cls else ""
    return f'<td{attr} data-v="{escape(str(key))}">{escape(str(value))}</td>'


def task_table(rows: Sequence[dict[str, Any]]) -> str:
    """Filters, a search box and the sortable table, one row per task (per trial)."""
    levels = sorted({str(r.get("level")) for r in rows})
    apps = sorted({str(r.get("app")) for r in rows})
    terms = sorted({str(r.get("termination")) for r in rows})
    causes = [c for c in CAUSES if any(r.get("failure") == c for r in rows)]
    controls = ('<div class="filters" id="filters">'
                + _options("level", "level", levels) + _options("app", "app", apps)
                + _options("verdict", "result", ["passed", "failed"]) + _options("term", "termination", terms)
                + _options("cause", "failure cause", causes)
                + '<label>search <input type="search" id="f-q" placeholder="id, instruction, reason"></label>'
                + '<span id="f-count" class="muted"></span></div>')
    cols = [("id", "task", "str"), ("level", "level", "num"), ("app", "app", "str"),
            ("verdict", "result", "str"), ("verdicts", "rule · oracle", "str"),
            ("steps", "steps / ref", "num"), ("term", "termination", "str"),
            ("cause", "failure cause", "str"), ("secs", "seconds", "num"),
            ("what", "instruction · why it failed", "str")]
    head = "".join(f'<th data-sort="{k}" data-type="{t}" tabindex="0">{escape(label)}</th>'
                   for k, label, t in cols)
    body = []
    for r in rows:
        ok = passed(r)
        verdict = "passed" if ok else "failed"
        so = r.get("oracle_ok", r.get("su_oracle"))
        rule = "pass" if r.get("rule_ok", r.get("su")) else "fail"
        verdicts = f"{rule} · {'-' if so is None else ('pass' if so else 'fail')}"
        anchor = row_anchor(r)
        tid = anchor[len("task-"):]
        cause = str(r.get("failure") or "")
        reason = str(r.get("failure_reason") or "")
        search = " ".join([tid, str(r.get("instruction") or ""), reason, str(r.get("app"))]).lower()
        body.append(
            f'<tr data-level="{escape(str(r.get("level")))}" data-app="{escape(str(r.get("app")))}" '
            f'data-verdict="{verdict}" data-term="{escape(str(r.get("termination")))}" '
            f'data-cause="{escape(cause)}" data-search="{escape(search)}" data-anchor="{escape(anchor)}">'
            f'<td data-v="{escape(tid)}"><a class="open-task" href="#{escape(anchor)}">{escape(tid)}</a></td>'
            + _cell(f"L{r.get('level')}", r.get("level"))
            + _cell(r.get("app"))
            + f'<td data-v="{verdict}"><span class="v {"pass" if ok else "fail"}">{verdict}</span></td>'
            + _cell(verdicts)
            + _cell(f"{r.get('steps')} / {r.get('reference_steps')}", r.get("steps"))
            + _cell(r.get("termination"))
            + _cell(cause or "-", cause)
            + _cell(f"{float(r.get('seconds') or 0):.1f}", r.get("seconds") or 0)
            + f'<td class="what" data-v="{escape(str(r.get("instruction") or ""))}">'
              f'<span class="instr">{escape(str(r.get("instruction") or ""))}</span>'
            + (f'<br><span class="why">{escape(reason)}</span>' if reason else "") + "</td></tr>")
    return (controls + f'<table class="tasks" id="task-table"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def failure_breakdown(rows: Sequence[dict[str, Any]]) -> str:
    """How many tasks failed of each cause: a chart with the counts and buttons that filter the table."""
    counts = Counter(str(r.get("failure")) for r in rows if r.get("failure"))
    items = [(c, counts[c]) for c in CAUSES if counts.get(c)]
    if not items:
        return '<h2>failures by cause</h2><p class="muted">no task failed.</p>'
    buttons = "".join(f'<button type="button" class="cause" data-cause="{escape(c)}">{escape(c)}: {n}'
                      f'</button>' for c, n in items)
    chart = horizontal_bars("failed tasks by cause", items)
    return (f'<h2>failures by cause</h2><div class="breakdown" id="breakdown">{chart}'
            f'<div class="causes">{buttons}</div></div>')
