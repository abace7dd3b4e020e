"""The report's page frame (inline CSS, the script of ``script.py``), the summary table and the
verifier-evaluation section."""

from __future__ import annotations

from html import escape
from typing import Any

from droidpilot.bench.percent import percent
from droidpilot.bench.report.script import SCRIPT

CSS = """
body{font:14px/1.45 system-ui,-apple-system,'DejaVu Sans',sans-serif;margin:24px;color:#202124;
background:#fff}
h1{font-size:22px}
h2{margin-top:28px;border-bottom:1px solid #ddd}
h4{margin:14px 0 6px}
table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}
.muted{color:#5f6368}
.charts{display:flex;flex-wrap:wrap;gap:16px}
.chart{background:#fafafa;border:1px solid #eee}
.chart .ct{font-weight:bold;font-size:13px}
.chart .ax{font-size:11px;fill:#5f6368}
.chart .grid{stroke:#e5e5e5}
details.task{border:1px solid #ddd;border-radius:6px;margin:6px 0;padding:4px 10px}
details.task>summary{cursor:pointer;padding:4px 0}
.tid{font-weight:bold}
.lvl{color:#5f6368}
.v{border-radius:4px;padding:0 6px;margin-left:4px}
.v.pass{background:#e6f4ea;color:#137333}
.v.fail{background:#fce8e6;color:#a50e0e}
.instr{font-style:italic}
.err{background:#fce8e6;padding:8px;white-space:pre-wrap}
.warn{color:#b06000}
.dagwrap{overflow-x:auto}
.dag rect{fill:#f1f3f4;stroke:#9aa0a6}
.dag .reached rect{fill:#e6f4ea;stroke:#137333}
.dag .nt{font-size:12px;font-weight:bold}
.dag .ns{font-size:11px;fill:#5f6368}
.timeline{list-style:none;padding:0}
.step{display:flex;gap:12px;border-top:1px solid #eee;padding:8px 0}
.step.bad .oc{color:#a50e0e}
.step.ok .oc{color:#137333}
.sd{flex:1;min-width:0}
.th{color:#3c4043}
.fb{color:#b06000}
.g{color:#5f6368;font-size:12px}
.ms{display:inline-block;background:#e6f4ea;color:#137333;
border-radius:4px;padding:0 6px;margin:4px 4px 0 0;font-size:12px}
figure.shot{position:relative;margin:0;width:150px;flex:none;cursor:zoom-in}
figure.shot img{width:100%;display:block;border:1px solid #ccc;border-radius:6px}
figure.shot svg.ov{position:absolute;left:0;top:0;width:100%;height:calc(100% - 18px);pointer-events:none}
figure.shot figcaption{font-size:11px;color:#5f6368;text-align:center}
.ov .tap{fill:rgba(234,67,53,.25);stroke:#ea4335;stroke-width:6}
.ov .tapdot{fill:#ea4335}
.ov .tbox{fill:none;stroke:#fbbc04;stroke-width:5;stroke-dasharray:14 8}
.ov .swipe{stroke:#e8710a;fill:none}
.ov .typed{fill:rgba(26,115,232,.85)}
.ov .typedt{fill:#fff;font-family:sans-serif}
.ov .keyt{fill:#e8710a;font-weight:bold;font-family:sans-serif;paint-order:stroke;stroke:#fff;stroke-width:4}
#lightbox{position:fixed;inset:0;background:rgba(0,0,0,.82);display:none;align-items:center;
justify-content:center;z-index:10;cursor:zoom-out}
#lightbox.open{display:flex}
#lightbox figure.shot{width:auto;height:92vh;aspect-ratio:var(--ar,0.45)}
#lightbox figure.shot img{height:calc(100% - 18px);width:auto}
#lightbox figcaption{color:#eee}
table.oracle tr.bad td{background:#fce8e6}
table.oracle tr.ok td{background:#f6fbf7}
table.cm td{min-width:60px}
table.dis td,table.oracle td{text-align:left}
.checks{font-size:12px;color:#3c4043}
code{background:#f1f3f4;padding:0 3px;border-radius:3px}
.chart .val{font-size:10px;fill:#202124}
table.prov th{text-align:left;background:#f8f9fa;font-weight:600;white-space:nowrap}
table.prov td{text-align:left;word-break:break-all}
.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0}
.filters select,.filters input{font:inherit;padding:2px 4px}
table.tasks{width:100%}
table.tasks th{cursor:pointer;user-select:none;background:#f8f9fa;text-align:left}
table.tasks th[aria-sort=ascending]::after{content:" ▲"}
table.tasks th[aria-sort=descending]::after{content:" ▼"}
table.tasks td{text-align:left;vertical-align:top}
table.tasks td.what{max-width:520px}
.why{color:#a50e0e}
.causes{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0}
button.cause{font:inherit;border:1px solid #dadce0;border-radius:12px;background:#fff;padding:2px 10px;
cursor:pointer}
.links a{margin-right:4px}
details.raw summary{cursor:pointer;color:#1a73e8;font-size:12px}
details.raw pre{white-space:pre-wrap;background:#f8f9fa;border:1px solid #eee;padding:6px;max-height:320px;
overflow:auto;font-size:12px}
.cc{font-size:13px}
.use{color:#5f6368;font-size:12px}
.act{font-weight:bold}
.lbwrap{display:flex;flex-direction:column;align-items:center;gap:6px;height:96vh}
#lightbox .lbwrap figure.shot{height:calc(96vh - 90px)}
.lbcap{color:#fff;font-size:15px;max-width:90vw;text-align:center}
.lbbar{display:flex;gap:10px;align-items:center;color:#eee}
.lbbar button{font:inherit;padding:4px 12px;cursor:pointer}
"""

PAGE = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<title>{{TITLE}}</title><style>" + CSS + "</style></head><body>{{BODY}}"
        "<div id=\"lightbox\" role=\"dialog\" aria-label=\"enlarged screenshot\"></div>"
        "<script>" + SCRIPT + "</script></body></html>")


def _pct(v: Any) -> str:
    return "-" if v is None else percent(float(v))


def _num(v: Any) -> str:
    return "-" if v is None else f"{float(v):.2f}"


def _ended(counts: Any) -> str:
    """``max_steps 2, brain_error 1``: the runs that did not end ``completed``, per way they ended."""
    if not isinstance(counts, dict) or not counts:
        return "-"
    return ", ".join(f"{escape(str(k))} {escape(str(v))}" for k, v in counts.items())


def summary_table(summary: dict[str, Any]) -> str:
    """Per level, per app, per loop and overall: Su, Su-oracle, agreement, CR, SS (Satisfaction Score),
    RE (with the pair), PS, costs, and the runs that ended early (termination errors)."""
    head = ("<tr><th>group</th><th>tasks</th><th>Su</th><th>Su-oracle</th><th>agree</th><th>CR</th>"
            "<th title=\"Satisfaction Score: rubric milestones met / rubrics\">SS</th><th>RE</th>"
            "<th>steps / reference</th><th>PS</th><th>model calls</th><th>tokens</th><th>s / step</th>"
            "<th>errors</th><th>ended early</th></tr>")
    rows = []

    def row(name: str, a: dict[str, Any]) -> None:
        rows.append(f"<tr><td>{escape(name)}</td><td>{a.get('tasks', 0)}</td><td>{_pct(a.get('su'))}</td>"
                    f"<td>{_pct(a.get('su_oracle'))}</td><td>{_pct(a.get('agreement'))}</td>"
                    f"<td>{_pct(a.get('cr'))}</td><td class=\"ss\">{_pct(a.get('ss'))}</td>"
                    f"<td>{_num(a.get('re'))}</td>"
                    f"<td>{_num(a.get('agent_steps'))} / {_num(a.get('reference_steps'))}</td>"
                    f"<td>{_pct(a.get('ps'))}</td><td>{a.get('model_calls', 0)}</td>"
                    f"<td>{a.get('tokens', 0)}</td>"
                    f"<td>{_num(a.get('seconds_per_step'))}</td><td>{a.get('errors', 0)}</td>"
                    f"<td class=\"ended\">{_ended(a.get('terminations'))}</td></tr>")

    for level, agg in (summary.get("by_level") or {}).items():
        row(f"level {level}", agg)
    for app, agg in (summary.get("by_app") or {}).items():
        row(f"app {app}", agg)
    for loop, agg in (summary.get("by_loop") or {}).items():
        row(f"loop {loop}", agg)
    for group, agg in (summary.get("by_feasibility") or {}).items():
        row(f"{group} tasks", agg)
    if summary.get("overall"):
        row("overall", summary["overall"])
    return f"<table class=\"summary\">{head}{''.join(rows)}</table>"


def judge_section(judge: dict[str, Any]) -> str:
    """The verifier against the oracle: per mode the confusion matrix and scores, then every disagreement."""
    parts = ["<h2>how good is the verifier?</h2>",
             f"<p class=\"muted\">{escape(str(judge.get('description', '')))}</p>"]
    for mode, m in (judge.get("modes") or {}).items():
        parts.append(
            f"<h4>{escape(mode)}: accuracy {_pct(m.get('accuracy'))}, precision {_pct(m.get('precision'))}, "
            f"recall {_pct(m.get('recall'))} (n = {m.get('n', 0)})</h4>"
            f"<table class=\"cm\"><tr><th></th><th>verifier: pass</th><th>verifier: fail</th></tr>"
            f"<tr><td>label: positive</td><td>{m.get('tp', 0)}</td><td>{m.get('fn', 0)}</td></tr>"
            f"<tr><td>label: negative</td><td>{m.get('fp', 0)}</td><td>{m.get('tn', 0)}</td></tr></table>")
    items = [i for i in judge.get("items", []) if any(not v for v in (i.get("agrees") or {}).values())]
    rows = []
    for item in items:
        href = item.get("link") or ""
        link = f"<a href=\"{escape(href)}\">{escape(str(item.get('task')))}</a>" if href else escape(
            str(item.get("task")))
        wrong = ", ".join(k for k, v in (item.get("agrees") or {}).items() if not v)
        rows.append(f"<tr><td>{link}</td><td>{escape(str(item.get('source')))}</td>"
                    f"<td>{'positive' if item.get('label') else 'negative'}</td>"
                    f"<td>{escape(wrong)}</td><td>{escape(str(item.get('reason', ''))[:300])}</td>"
                    f"<td><a href=\"{escape(str(item.get('trace', '')))}\">trace</a></td></tr>")
    parts.append(f"<h4>disagreements ({len(items)})</h4><table class=\"dis\"><tr><th>task</th>"
                 f"<th>trace kind</th>"
                 f"<th>label</th>"
                 f"<th>wrong in</th><th>verifier's reason</th><th>folder</th></tr>{''.join(rows)}</table>")
    return "".join(parts)
