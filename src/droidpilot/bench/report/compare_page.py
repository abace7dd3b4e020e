"""``compare.html``: two runs side by side, self-contained: the settings and provenance that differ, Su per
level, then the tasks that changed (fixed, broken, cause changed, only in one run) with the unchanged ones
folded away; each task links to its section in either run's report and to its side-by-side page."""

from __future__ import annotations

import json
import os
from html import escape
from pathlib import Path
from typing import Any

from droidpilot.bench.compare import Comparison
from droidpilot.bench.percent import percent
from droidpilot.bench.report.page import PAGE


def _pct(v: Any) -> str:
    return "-" if v is None else percent(float(v))


def _delta(v: Any) -> str:
    if v is None:
        return "-"
    pts = float(v) * 100
    return f"{pts:+.0f} pts"


def _link(html_dir: Path, run: Path, tid: str) -> str:
    rel = os.path.relpath(run / "report.html", html_dir).replace(os.sep, "/")
    return f"{rel}#task-{tid}"


def _side(side: dict[str, Any] | None) -> str:
    if side is None:
        return '<td colspan="3" class="muted">not in this run</td>'
    passed = side["su"] >= 1
    verdict = "pass" if passed else ("fail" if side["su"] <= 0 else percent(side['su']))
    cls = "pass" if passed else "fail"
    ended = "ended" if passed else "why"  # a passing task's "completed" is no failure: not in red
    cause = f'<br><span class="cause">cause: {escape(side["cause"])}</span>' if side.get("cause") else ""
    return (f'<td><span class="v {cls}">{escape(verdict)}</span></td><td>{escape(str(side["steps"]))}</td>'
            f'<td class="{ended}">{escape(str(side["termination"]))}{cause}'
            + (f'<br><span class="muted">{escape(side["reason"])}</span>' if side["reason"] and not passed
               else "")
            + "</td>")


def _value(v: Any) -> str:
    return "-" if v is None else escape(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))


def _settings(comparison: Comparison) -> str:
    diff = comparison.settings_diff()
    if not diff:
        return '<p id="settings-diff">Settings and provenance: the same in both runs.</p>'
    rows = "".join(f'<tr><th>{escape(d["key"])}</th><td>{_value(d["a"])}</td><td>{_value(d["b"])}</td></tr>'
                   for d in diff)
    return (f"<h2>Settings and provenance that differ ({len(diff)})</h2>"
            f'<table class="prov" id="settings-diff"><tr><th>setting</th><th>A</th><th>B</th></tr>{rows}'
            "</table>")


def render_compare(comparison: Comparison, html_path: Path, pairs: dict[str, Path] | None = None) -> str:
    """The page's HTML; ``html_path`` is where it will be written (links are relative to it); ``pairs``:
    task id -> its side-by-side page."""
    pairs = pairs or {}
    html_dir = html_path.parent.resolve()
    a_name, b_name = comparison.a_path.name or str(comparison.a_path), comparison.b_path.name
    head = ("<tr><th>group</th><th>tasks A</th><th>tasks B</th><th>Su A</th><th>Su B</th><th>Δ Su</th>"
            "<th>Su-oracle A</th><th>Su-oracle B</th></tr>")
    levels = "".join(
        f'<tr><td>{escape(r["group"])}</td><td>{r["tasks_a"] or "-"}</td><td>{r["tasks_b"] or "-"}</td>'
        f'<td>{_pct(r["su_a"])}</td><td>{_pct(r["su_b"])}</td><td>{_delta(r["delta"])}</td>'
        f'<td>{_pct(r["su_oracle_a"])}</td><td>{_pct(r["su_oracle_b"])}</td></tr>' for r in comparison.levels)

    def row(t: Any) -> str:
        a_link = (f'<a href="{escape(_link(html_dir, comparison.a_path.resolve(), t.id))}">A</a>'
                  if t.a is not None else "")
        b_link = (f'<a href="{escape(_link(html_dir, comparison.b_path.resolve(), t.id))}">B</a>'
                  if t.b is not None else "")
        pair = pairs.get(t.id)
        href = os.path.relpath(pair, html_dir).replace(os.sep, "/") if pair else ""
        pair_link = f' <a class="pair" href="{escape(href)}">side by side</a>' if pair else ""
        return (f'<tr class="chg-{escape(t.change.replace(" ", "-"))}" data-change="{escape(t.change)}">'
                f'<td>{escape(t.id)} {a_link} {b_link}{pair_link}</td><td>L{escape(t.level)}</td>'
                f'<td><b>{escape(t.change)}</b></td>{_side(t.a)}{_side(t.b)}'
                f'<td class="instr">{escape(t.instruction)}</td></tr>')

    head_row = ('<tr><th>task</th><th>level</th><th>change</th><th>A</th><th>A steps</th><th>A ended</th>'
                '<th>B</th><th>B steps</th><th>B ended</th><th>instruction</th></tr>')
    changed, unchanged = comparison.changed(), comparison.unchanged()
    counts = ", ".join(f"{n} {escape(c)}" for c, n in comparison.counts().items() if n)
    changed_table = (f'<table class="tasks" id="diff">{head_row}{"".join(row(t) for t in changed)}</table>'
                     if changed else '<p id="diff">No task changed its result or its failure cause.</p>')
    same_rows = "".join(row(t) for t in unchanged)
    unchanged_table = (f'<details id="unchanged"><summary>{len(unchanged)} unchanged tasks</summary>'
                       f'<table class="tasks">{head_row}{same_rows}</table></details>' if unchanged else "")

    def meta(m: dict[str, Any]) -> str:
        dp = m.get("droidpilot") or {}
        return escape(f"brain {m.get('brain')}, model {m.get('model') or '-'} "
                      f"({m.get('endpoint_host') or '-'}), droidpilot {dp.get('version', '?')} "
                      f"{(dp.get('revision') or '')[:10]}, {m.get('date') or ''}")

    body = (f"<h1>{escape(a_name)} (A) vs {escape(b_name)} (B)</h1>"
            f'<p class="muted">A: {escape(str(comparison.a_path))} · {meta(comparison.a_meta)}<br>'
            f'B: {escape(str(comparison.b_path))} · {meta(comparison.b_meta)}</p>'
            f"{_settings(comparison)}"
            f'<h2>Tasks that changed ({len(changed)})</h2><p id="counts">{counts}</p>{changed_table}'
            f"{unchanged_table}"
            f'<h2>Su per level</h2><table class="summary" id="levels">{head}{levels}</table>')
    title = f"droidpilot bench compare · {a_name} vs {b_name}"
    return PAGE.replace("{{TITLE}}", escape(title)).replace("{{BODY}}", body)
