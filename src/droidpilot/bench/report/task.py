"""One task's section of the report: verdicts, the rule's DAG, the oracle, and the step timeline with
screenshots (the action drawn on each), thoughts and the milestones each frame satisfied."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from droidpilot.bench.failures import passed
from droidpilot.bench.report.dag import check_text, dag_svg, node_decisions
from droidpilot.bench.report.steps import timeline
from droidpilot.bench.report.table import row_anchor
from droidpilot.verify.problems import RuleError
from droidpilot.verify.spec import load_rule_text


def _json(path: Path, default: Any) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return default


def _links(rel: str) -> str:
    """Links to the trace folder and its rule and steps (relative: they survive moving the output folder)."""
    items = [(rel + "/", "trace folder"), *((f"{rel}/{name}", name) for name in (
        "rule.yaml", "steps.jsonl", "verify.json", "run.json"))]
    return '<p class="links">' + " · ".join(f'<a href="{escape(href)}">{escape(label)}</a>'
                                             for href, label in items) + "</p>"


def task_section(out: Path, row: dict[str, Any]) -> str:
    """The collapsible ``<details id="task-ID">`` section of one result row."""
    anchor = row_anchor(row)
    key = anchor[len("task-"):]
    rel = str(row.get("trace") or "")
    folder = out / rel if rel else None
    ok = passed(row)
    result = "passed" if ok else "failed"
    rule = row.get("rule_ok", row.get("su"))
    oracle = row.get("oracle_ok", row.get("su_oracle"))
    rule_text = "pass" if rule else "fail"
    so_text = "-" if oracle is None else ("pass" if oracle else "fail")
    level = escape(str(row.get("level")))
    head = (f'<summary><span class="tid">{escape(key)}</span> <span class="lvl">L{level}</span> '
            f'<span class="v {"pass" if ok else "fail"}">{result}</span> '
            f'<span class="v {rule_text}">rule {rule_text}</span> '
            f'<span class="v {so_text}">oracle {so_text}</span> '
            f'<span class="muted">{escape(str(row.get("steps")))} steps / ref '
            f'{escape(str(row.get("reference_steps")))} · {escape(str(row.get("termination")))}</span>'
            + (f' <span class="muted ss">SS {float(row["ss"]) * 100:.0f}%</span>'
               if isinstance(row.get("ss"), (int, float)) else "")
            + '</summary>')
    body = [f'<p class="instr">{escape(str(row.get("instruction") or ""))}</p>']
    if row.get("failure_reason"):
        body.append(f'<p class="why"><b>{escape(str(row.get("failure") or "failed"))}:</b> '
                    f'{escape(str(row["failure_reason"]))}</p>')
    if row.get("error"):
        body.append(f'<pre class="err">{escape(str(row["error"]))}</pre>')
    if folder is None or not folder.is_dir():
        return f'<details class="task" id="{escape(anchor)}">{head}{"".join(body)}</details>'
    body.append(_links(rel))
    verify = _json(folder / "verify.json", {})
    matched: dict[int, list[str]] = {}
    reached: dict[str, int] = {}
    for m in verify.get("matched", []):
        frame = int(m.get("frame", 0))  # the verifier's frame index: N.jpg is frame N - 1
        matched.setdefault(frame + 1, []).append(str(m.get("node")))
        reached[str(m.get("node"))] = frame
    body.append(f'<p>{escape(str(verify.get("reason") or ""))}</p>')
    if verify.get("manual_review_needed"):
        body.append('<p class="warn">manual review needed: an undecided check could change the verdict</p>')
    try:
        rule = load_rule_text((folder / "rule.yaml").read_text(encoding="utf-8"), source="<rule>")
    except (OSError, RuleError):
        rule = None
    if rule is not None:
        links = {f: f"{key}-f{f + 1}" for f in reached.values()}
        body.append(f'<h4>milestones</h4><div class="dagwrap">{dag_svg(rule, reached, links)}</div>')
        items = []
        for node in rule.nodes:
            checks = node_decisions(verify, node.id)
            lines = "".join(f'<li>frame {int(d.get("frame", 0))}: '
                            f'{escape(check_text(d.get("check") or d))}</li>' for d in checks)
            state = f"reached at frame {reached[node.id]}" if node.id in reached else "not reached"
            items.append(f'<li><b>{escape(node.id)}</b> ({escape(node.name or "")}): {escape(state)}'
                         f'<ul class="checks">{lines}</ul></li>')
        body.append(f'<details class="dec"><summary>deciding checks</summary><ul>{"".join(items)}</ul>'
                    f'</details>')
    oracle = _json(folder / "oracle.json", {})
    rows = "".join(f'<tr class="{"ok" if c.get("ok") else "bad"}"><td><code>{escape(str(c.get("path")))}'
                   f'</code></td><td>{escape(str(c.get("op")))}</td>'
                   f'<td>{escape(json.dumps(c.get("expected"), ensure_ascii=False))}</td>'
                   f'<td>{escape(str(c.get("actual")))}</td><td>{"yes" if c.get("ok") else "no"}</td></tr>'
                   for c in oracle.get("checks", []))
    body.append(f'<h4>oracle: {escape(so_text)}</h4><table class="oracle"><tr><th>path</th><th>test</th>'
                f'<th>expected</th><th>actual</th><th>ok</th></tr>{rows}</table>')
    body.append(effects_section(oracle.get("effects")))
    body.append(f'<h4>timeline</h4>{timeline(folder, rel, key, matched)}')
    return f'<details class="task" id="{escape(anchor)}">{head}{"".join(body)}</details>'


def effects_section(effects: dict[str, Any] | None) -> str:
    """The side effects the oracle found: each problem (a change not allowed, an effect missing) and every
    change from the start state (text from the phone's state, escaped)."""
    if not effects:
        return ""
    problems = "".join(f'<li class="bad">{escape(str(p))}</li>' for p in effects.get("problems", []))
    changes = "".join(f"<li><code>{escape(json.dumps(c, ensure_ascii=False))}</code></li>"
                      for c in effects.get("changes", []))
    verdict = "ok" if effects.get("ok") else "not allowed"
    return (f'<h4>side effects: {escape(verdict)}</h4><ul class="checks">{problems}</ul>'
            f'<details><summary>changes from the start state</summary><ul>{changes or "<li>none</li>"}</ul>'
            f'</details>')
