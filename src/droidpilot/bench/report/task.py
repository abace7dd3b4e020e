"""One task's section of the report: verdicts, the rule's DAG, the oracle, and the step timeline with
screenshots (the action drawn on each), thoughts and the milestones each frame satisfied."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from PIL import Image

from droidpilot.bench.report.dag import check_text, dag_svg, node_decisions
from droidpilot.verify.problems import RuleError
from droidpilot.verify.spec import load_rule_text


def _json(path: Path, default: Any) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return default


def _steps(folder: Path) -> list[dict[str, Any]]:
    out = []
    try:
        lines = (folder / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    for line in lines:
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def overlay(action: dict[str, Any], size: tuple[int, int]) -> str:
    """SVG drawn over a screenshot (device pixels): tap point and target box, swipe arrow, typed text."""
    w, h = size
    parts = [f'<svg class="ov" viewBox="0 0 {w} {h}" preserveAspectRatio="none" '
             f'xmlns="http://www.w3.org/2000/svg">']
    kind = action.get("type")
    r = max(12, w // 28)
    if kind in ("click", "long_press") and action.get("position_x") is not None:
        x, y = action["position_x"], action["position_y"]
        b = action.get("bounds")
        if isinstance(b, list) and len(b) == 4 and b[2] > b[0]:
            parts.append(f'<rect x="{b[0]}" y="{b[1]}" width="{b[2] - b[0]}" height="{b[3] - b[1]}" '
                         f'class="tbox"/>')
        parts.append(f'<circle cx="{x}" cy="{y}" r="{r}" class="tap"/><circle cx="{x}" cy="{y}" r="{r // 4}" '
                     f'class="tapdot"/>')
    elif kind == "swipe":
        x1, y1 = action.get("press_position_x"), action.get("press_position_y")
        x2, y2 = action.get("release_position_x"), action.get("release_position_y")
        if None not in (x1, y1, x2, y2):
            parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="swipe" '
                         f'stroke-width="{r // 2}" marker-end="url(#sa)"/>'
                         f'<defs><marker id="sa" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" '
                         f'markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#e8710a"/>'
                         f'</marker></defs>')
    elif kind == "input":
        text = str(action.get("text") or "")
        shown = text if len(text) <= 40 else text[:39] + "…"
        fs = max(18, w // 22)
        parts.append(f'<rect x="{w * 0.04:.0f}" y="{h * 0.80:.0f}" width="{w * 0.92:.0f}" height="{fs * 2}" '
                     f'rx="{fs // 2}" class="typed"/><text x="{w * 0.07:.0f}" y="{h * 0.80 + fs * 1.35:.0f}" '
                     f'font-size="{fs}" class="typedt">⌨ {escape(shown)}</text>')
    elif kind in ("back", "home", "enter", "done", "wait"):
        fs = max(18, w // 22)
        parts.append(f'<text x="{w * 0.05:.0f}" y="{h * 0.95:.0f}" font-size="{fs}" class="keyt">'
                     f'{escape(str(kind))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _image_size(path: Path) -> tuple[int, int]:
    try:
        with Image.open(path) as im:
            return im.size
    except OSError:
        return (1080, 2400)


def _frame_figure(folder: Path, rel: str, n: int, action: dict[str, Any], anchor: str) -> str:
    image = folder / f"{n}.jpg"
    if not image.exists():
        return '<div class="noimg">no screenshot</div>'
    src = f"{rel}/{n}.jpg"
    return (f'<figure class="shot" id="{escape(anchor)}" tabindex="0" title="click to enlarge">'
            f'<img src="{escape(src)}" alt="frame {n - 1}" loading="lazy">'
            f'{overlay(action, _image_size(image))}'
            f'<figcaption>frame {n - 1} · {n}.jpg</figcaption></figure>')


def _timeline(folder: Path, rel: str, tid: str, matched: dict[int, list[str]]) -> str:
    actions = (_json(folder / "actions.json", {}) or {}).get("actions", [])
    react = _json(folder / "react.json", [])
    by_frame = {int(a.get("action_index", i + 1)): a for i, a in enumerate(actions)}
    thoughts = {int(r.get("action_index", i + 1)): str(r.get("reasoning") or "") for i, r in enumerate(react)}
    rows = []
    steps = _steps(folder)
    last_frame = max(by_frame) if by_frame else 0
    for rec in steps:
        n = rec.get("frame")
        name = (rec.get("action") or {}).get("name")
        if n is None and name == "stop" and last_frame:
            n = last_frame
        action_text = (rec.get("action") or {}).get("text") or rec.get("response", "")[:80]
        outcome = str(rec.get("outcome") or "")
        grounding = rec.get("grounding") or {}
        g = ""
        if grounding:
            g = f"grounding {grounding.get('status')}"
            if grounding.get("point"):
                g += f" at {grounding['point']}"
        fig = _frame_figure(folder, rel, int(n), by_frame.get(int(n), {}), f"{tid}-f{n}") if n else ""
        names = matched.get(int(n), []) if n else []
        badges = "".join(f'<span class="ms">✓ {escape(m)}</span>' for m in names)
        thought = str(rec.get("thought") or (thoughts.get(int(n), "") if n else ""))
        cls = "ok" if outcome in ("ok", "completed") else "bad"
        rows.append(f'<li class="step {cls}">{fig}<div class="sd"><div class="sa"><b>step {rec.get("step")}'
                    f'</b> <code>{escape(str(action_text))}</code> <span class="oc">{escape(outcome)}</span>'
                    f'</div><div class="g">{escape(g)}</div>'
                    f'<div class="th"><i>thought:</i> {escape(thought)}</div>'
                    + (f'<div class="fb">feedback: {escape(str(rec["feedback_next"]))}</div>'
                       if rec.get("feedback_next") else "")
                    + f"{badges}</div></li>")
    if not steps:
        return '<p class="muted">no steps were recorded</p>'
    return f'<ol class="timeline">{"".join(rows)}</ol>'


def task_section(out: Path, row: dict[str, Any]) -> str:
    """The collapsible ``<details id="task-ID">`` section of one result row."""
    tid = str(row.get("id"))
    rel = str(row.get("trace") or "")
    folder = out / rel if rel else None
    su = "pass" if row.get("su") else "fail"
    so = row.get("su_oracle")
    so_text = "-" if so is None else ("pass" if so else "fail")
    level = escape(str(row.get("level")))
    head = (f'<summary><span class="tid">{escape(tid)}</span> <span class="lvl">L{level}</span> '
            f'<span class="v {su}">rule {su}</span> <span class="v {so_text}">oracle {so_text}</span> '
            f'<span class="muted">{escape(str(row.get("steps")))} steps / ref '
            f'{escape(str(row.get("reference_steps")))} · {escape(str(row.get("termination")))}</span>'
            f'</summary>')
    body = [f'<p class="instr">{escape(str(row.get("instruction") or ""))}</p>']
    if row.get("error"):
        body.append(f'<pre class="err">{escape(str(row["error"]))}</pre>')
    if folder is None or not folder.is_dir():
        return f'<details class="task" id="task-{escape(tid)}">{head}{"".join(body)}</details>'
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
        links = {f: f"{tid}-f{f + 1}" for f in reached.values()}
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
    body.append(f'<h4>timeline</h4>{_timeline(folder, rel, tid, matched)}')
    return f'<details class="task" id="task-{escape(tid)}">{head}{"".join(body)}</details>'
