"""A task's step timeline in the report: per step the screenshot with the action drawn on it (enlarged
with previous/next in the lightbox, the action as caption), the raw model reply, the parsed action, the
grounding outcome, the completion check's answer, tokens and latency, and the milestones it satisfied."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from PIL import Image

from droidpilot.bench.metrics import read_steps, step_stats


def _json(path: Path, default: Any) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return default


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


def frame_figure(folder: Path, rel: str, n: int, action: dict[str, Any], anchor: str, caption: str) -> str:
    """The screenshot N.jpg with the action drawn on it; ``caption`` shows in the enlarged view."""
    image = folder / f"{n}.jpg"
    if not image.exists():
        return '<div class="noimg">no screenshot</div>'
    src = f"{rel}/{n}.jpg"
    return (f'<figure class="shot" id="{escape(anchor)}" tabindex="0" title="click to enlarge" '
            f'data-caption="{escape(caption)}">'
            f'<img src="{escape(src)}" alt="frame {n}" loading="lazy">'
            f'{overlay(action, _image_size(image))}'
            f'<figcaption>frame {n} · {n}.jpg</figcaption></figure>')  # counted from 1, as N.jpg


def _usage(rec: dict[str, Any]) -> str:
    calls = rec.get("calls") or []
    prompt = sum(int(c.get("prompt_tokens") or 0) for c in calls)
    completion = sum(int(c.get("completion_tokens") or 0) for c in calls)
    latency = sum(float(c.get("latency_s") or 0.0) for c in calls)
    t = rec.get("timings") or {}
    perception, model, device = (float(t.get(k, 0)) for k in ("perception", "model", "device"))
    return (f"{len(calls)} model call(s), tokens {prompt} in / {completion} out, model latency {latency:.2f}s"
            f" · step time: perception {perception:.2f}s, model {model:.2f}s, device {device:.2f}s")


def _grounding(rec: dict[str, Any]) -> str:
    g = rec.get("grounding") or {}
    if not g:
        return "-" if (rec.get("action") or {}).get("name") in ("stop", None) else "not needed"
    text = str(g.get("status"))
    if g.get("point"):
        text += f" at {g['point']}"
    if g.get("candidates"):
        text += f", candidate {g.get('chosen') or 1} of {len(g['candidates'])}"
    if g.get("target"):
        text += f" (looked for {g['target']!r})"
    if g.get("message") and g.get("status") != "ok":
        text += f": {g['message']}"
    return text


def _completion(rec: dict[str, Any]) -> str:
    c = rec.get("completion_check")
    if not c:
        return ""
    done = c.get("done")
    answer = "done" if done is True else ("not done" if done is False else "unclear (the stop stands)")
    return (f'<div class="cc"><b>completion check:</b> {escape(answer)}'
            + (f' — {escape(str(c.get("reason")))}' if c.get("reason") else "")
            + f'<details class="raw"><summary>its raw reply</summary>'
              f'<pre>{escape(str(c.get("response") or ""))}</pre></details></div>')


def _roles(rec: dict[str, Any]) -> str:
    """The v2/E loops' role calls of a step, in order: who answered, what was read, and the raw exchange."""
    entries = rec.get("roles") or []
    if not entries:
        return ""
    items = []
    for e in entries:
        who = f"{e.get('role')}" + ("" if e.get("by") == "brain" else " (code)")
        parsed = e.get("parsed")
        summary = json.dumps(parsed, ensure_ascii=False)[:160] if parsed not in (None, "", [], {}) else "-"
        extra = " · re-prompted" if e.get("reprompt") else ""
        extra += f" · error: {e['error']}" if e.get("error") else ""
        exchange = f'{e.get("prompt") or ""}\n---\n{e.get("reply") or ""}'
        raw = (f'<details class="raw"><summary>prompt and reply</summary><pre>{escape(exchange)}</pre>'
               f'</details>') if e.get("by") == "brain" else ""
        items.append(f"<li><b>{escape(who)}</b>: {escape(summary)}{escape(extra)}{raw}</li>")
    return f'<div class="roles"><b>roles:</b><ol>{"".join(items)}</ol></div>'


def _row(rec: dict[str, Any], fig: str, badges: str, thought: str) -> str:
    action = rec.get("action") or {}
    parsed = action.get("text") or (action.get("name") if action else "(none: the reply could not be parsed)")
    outcome = str(rec.get("outcome") or rec.get("termination") or "")
    cls = "ok" if outcome in ("ok", "completed") else "bad"
    raw = str(rec.get("response") or "")
    fields = [
        f'<div class="sa"><b>step {escape(str(rec.get("step")))}</b> '
        f'<code class="act">{escape(str(parsed))}</code> <span class="oc">{escape(outcome)}</span></div>',
        f'<div class="g"><b>grounding:</b> {escape(_grounding(rec))}</div>',
        _completion(rec),
        _roles(rec),
        f'<div class="th"><i>thought:</i> {escape(thought)}</div>' if thought else "",
        f'<div class="err">{escape(str(rec["error"]))}</div>' if rec.get("error") else "",
        (f'<div class="fb">feedback: {escape(str(rec["feedback_next"]))}</div>'
         if rec.get("feedback_next") else ""),
        f'<div class="use">{escape(_usage(rec))}</div>',
        f'<details class="raw"><summary>raw model reply ({len(raw)} chars)</summary><pre>{escape(raw)}</pre>'
        f'</details>',
        badges,
    ]
    return f'<li class="step {cls}">{fig}<div class="sd">{"".join(fields)}</div></li>'


def timeline_count(records: list[dict[str, Any]]) -> str:
    """What the timeline's rows are, against the "N steps" of the row (``metrics.step_stats``: the agent's
    steps, without its stop, a person's steps or E's learning), so the two numbers never seem to disagree."""
    stats = step_stats(records)
    person = sum(1 for r in records if r.get("by") == "person")
    stop = sum(1 for r in records
               if (r.get("action") or {}).get("name") == "stop" and r.get("by") != "person")
    learn = sum(1 for r in records if r.get("phase") == "experience")
    extra = [f"{n} {what}" for n, what in ((stop, "stop"), (person, "by a person"),
                                            (learn, "learning after the task")) if n]
    text = f"{len(records)} rows: {stats['steps']} agent steps (the steps counted above)"
    return text + (" + " + " + ".join(extra) if extra else "")


def timeline(folder: Path, rel: str, tid: str, matched: dict[int, list[str]]) -> str:
    """The ``<ol class="timeline">`` of a trace folder's steps (``matched``: frame N -> milestone names)."""
    actions = (_json(folder / "actions.json", {}) or {}).get("actions", [])
    react = _json(folder / "react.json", [])
    by_frame = {int(a.get("action_index", i + 1)): a for i, a in enumerate(actions)}
    thoughts = {int(r.get("action_index", i + 1)): str(r.get("reasoning") or "") for i, r in enumerate(react)}
    steps = read_steps(folder)
    if not steps:
        return '<p class="muted">no steps were recorded</p>'
    note = f'<p class="muted tlcount">{escape(timeline_count(steps))}</p>'
    last_frame = max(by_frame) if by_frame else 0
    rows = []
    for rec in steps:
        if rec.get("phase") == "experience":  # E's learning after the task: its role calls, no frame
            change = f"memory v{rec.get('memory_version_before')} → v{rec.get('memory_version_after', '-')}"
            rows.append(f'<li class="step ok"><div class="sd"><div class="sa"><b>after the task</b> '
                        f'{escape(change)}</div>{_roles(rec)}'
                        + (f'<div class="err">{escape(str(rec["error"]))}</div>' if rec.get("error") else "")
                        + "</div></li>")
            continue
        n = rec.get("frame")
        action = rec.get("action") or {}
        if n is None and action.get("name") == "stop" and last_frame:
            n = last_frame
        outcome = str(rec.get("outcome") or rec.get("termination") or "")
        caption = f"step {rec.get('step')}: {action.get('text') or 'no action'} → {outcome}"
        fig = frame_figure(folder, rel, int(n), by_frame.get(int(n), {}), f"{tid}-f{n}", caption) if n else ""
        names = matched.get(int(n), []) if n else []
        badges = "".join(f'<span class="ms">✓ {escape(m)}</span>' for m in names)
        thought = str(rec.get("thought") or (thoughts.get(int(n), "") if n else ""))
        rows.append(_row(rec, fig, badges, thought))
    return f'{note}<ol class="timeline">{"".join(rows)}</ol>'
