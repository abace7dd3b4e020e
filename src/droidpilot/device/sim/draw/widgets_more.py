"""Composite and special widget kinds (icon buttons, lists, chat bubbles, month grid, groups) and the
dispatcher ``place`` that lays out any widget."""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any

from droidpilot.device.sim.appmodel.expr import condition, render
from droidpilot.device.sim.appmodel.model import Widget
from droidpilot.device.sim.appmodel.sources import items_of
from droidpilot.device.sim.draw import board, sketch, slider, textfield  # noqa: F401  (register their kinds)
from droidpilot.device.sim.draw.canvas import Node, Tap, union
from droidpilot.device.sim.draw.fonts import one_line
from droidpilot.device.sim.draw.theme import mix
from droidpilot.device.sim.draw.widgets import (
    KINDS,
    MARGIN,
    Env,
    avatar_seed,
    label_node,
    rid,
    tap_of,
    text_of,
)


def _icon(w, ctx, x, y, width, env):
    """A glyph button (app-bar action, feed action); ``checked`` fills it (liked heart)."""
    c, pal = env.canvas, env.pal
    on = condition(ctx, w.checked) if w.checked is not None else False
    name = text_of(w.glyph, ctx)
    if on and name.endswith("_outline"):
        name = name[: -len("_outline")]
    size = w.size or 72
    color = (text_of(w.color, ctx) or "#E53935") if on else (w.style or pal.on_surface)
    box_w = max(size + 48, 120)
    gx = x + (box_w - size) / 2
    c.glyph(name, gx, y + 24, size, color)
    kids = []
    height = size + 48
    label = text_of(w.text, ctx)
    if label:
        lw = c.measure(label, 30, True)
        box, _ = c.text(x + (box_w - lw) / 2, y + size + 62, label, 30, w.style or pal.on_surface, True)
        kids.append(label_node(env, box, label))
        height += 60
    badge = text_of(w.badge, ctx)
    if badge and badge != "0":
        bx = gx + size * 0.62
        c.ellipse(bx, y + 12, bx + 52, y + 64, "#E53935")
        bwid = c.measure(badge, 28, True)
        box, _ = c.text(bx + 26 - bwid / 2, y + 38, badge, 28, "#FFFFFF", True)
        kids.append(Node("android.widget.TextView", box, text=badge, package=env.package,
                         rid=f"{env.package}:id/badge"))
    node = Node("android.widget.ImageButton", c.box(x, y, x + box_w, y + size + 48),
                desc=text_of(w.desc, ctx), rid=rid(env, w, ctx), package=env.package,
                clickable=bool(w.on_tap), checkable=w.checked is not None, checked=on, tap=tap_of(w, ctx),
                children=kids)
    return height, [node]


def _bubble(w, ctx, x, y, width, env):
    """A chat message: ``style: me`` on the right in the accent colour, else on the left with an avatar."""
    c, pal = env.canvas, env.pal
    text = text_of(w.text, ctx)
    mine = w.style.split()[0] == "me" if w.style else False
    lines = c.wrap(text, 40, width * 0.62)
    tw = max(c.measure(line, 40) for line in lines) if lines else 0
    bh = len(lines) * 56 + 56
    avatar = 112
    ax = x + width - MARGIN - avatar if mine else x + MARGIN
    if "avatar" in w.style:  # the sender's procedural portrait (``value``: their name)
        c.avatar(avatar_seed(w, ctx, "me" if mine else "them"), ax, y + 20, avatar)
    else:
        c.rect(ax, y + 20, ax + avatar, y + 20 + avatar,
               text_of(w.color, ctx) or mix(env.accent, "#888888", 0.4), radius=16)
        c.glyph("person", ax + 20, y + 40, 72, "#FFFFFF")
    bx1 = ax - 24 - tw - 64 if mine else ax + avatar + 24
    fill = "#95EC69" if mine else pal.surface_alt
    fg = "#111111" if mine else pal.on_surface
    c.rect(bx1, y + 20, bx1 + tw + 64, y + 20 + bh, fill, radius=18)
    boxes = []
    for i, line in enumerate(lines):
        box, _ = c.text(bx1 + 32, y + 20 + 56 + i * 56, line, 40, fg)
        boxes.append(box)
    nodes = [label_node(env, union(boxes), text, rid=f"{env.package}:id/message")] if boxes else []
    return max(bh, avatar) + 40, nodes


def _month(w, ctx, x, y, width, env):
    """A month grid for the date ``value`` (YYYY-MM-DD) with that day circled; with ``on_tap`` every day is
    a date picker's cell whose actions see the day it stands for as ``day`` (YYYY-MM-DD)."""
    c, pal = env.canvas, env.pal
    day = dt.date.fromisoformat(str(render(w.value, ctx)))
    title = day.strftime("%B %Y")
    box, _ = c.text(x + MARGIN, y + 60, title, 48, pal.on_surface, True)
    nodes = [label_node(env, box, title, rid=f"{env.package}:id/month_title")]
    cell = (width - 2 * MARGIN) / 7
    top = y + 140
    for i, name in enumerate(["S", "M", "T", "W", "T", "F", "S"]):
        c.text(x + MARGIN + cell * i + cell / 2 - c.measure(name, 32) / 2, top, name, 32, pal.on_surface_dim)
    cal = calendar.Calendar(firstweekday=6)
    weeks = cal.monthdayscalendar(day.year, day.month)
    for r, week in enumerate(weeks):
        for col, num in enumerate(week):
            if not num:
                continue
            cx, cy = x + MARGIN + cell * col + cell / 2, top + 110 + r * 130
            today = num == day.day
            if today:
                c.ellipse(cx - 56, cy - 56, cx + 56, cy + 56, env.accent)
            label = str(num)
            fg = "#FFFFFF" if today else pal.on_surface
            c.text(cx - c.measure(label, 40, today) / 2, cy, label, 40, fg, today)
            when = dt.date(day.year, day.month, num)
            tap = Tap("actions", list(w.on_tap), {**ctx, "day": when.isoformat()}) if w.on_tap else None
            nodes.append(Node("android.view.View", c.box(cx - 60, cy - 60, cx + 60, cy + 60),
                              desc=when.strftime("%A, %B %-d"), package=env.package, selected=today,
                              clickable=True, tap=tap))
    return 140 + 60 + len(weeks) * 130 + 20, nodes


def _group(w, ctx, x, y, width, env):
    """A rounded card holding ``items`` laid out one under another."""
    c = env.canvas
    start = len(c.ops)
    plain = w.style == "plain"
    c.rect(x + MARGIN, y + 16, x + width - MARGIN, y + 16,
           None if plain else (text_of(w.color, ctx) or env.pal.surface), radius=36)
    inner_y = y + (0 if plain else 32)
    nodes: list[Node] = []
    for item in w.items:
        pad = 0 if plain else MARGIN / 2
        h, got = place(item, ctx, x + pad, inner_y, width - 2 * pad, env)
        inner_y += h
        nodes.extend(got)
    op = c.ops[start]
    c.ops[start] = (op[0], (op[1][0], op[1][1], op[1][2], c.px(inner_y + 16)), *op[2:])
    node = Node("android.widget.LinearLayout", c.box(x + MARGIN, y + 16, x + width - MARGIN, inner_y + 16),
                rid=rid(env, w, ctx), package=env.package, clickable=bool(w.on_tap), tap=tap_of(w, ctx),
                children=nodes)
    return inner_y + (0 if plain else 32) - y, [node]


def _list(w, ctx, x, y, width, env):
    """Items of a source (state or canned data, maybe searched), each laid out with the ``item`` widget."""
    assert w.item is not None and w.for_each is not None
    items = items_of(w.for_each, ctx)
    if not items:
        if not w.empty:
            return 0, []
        empty = Widget(kind="text", text=w.empty, style="dim", align="center", height=260)
        return place(empty, ctx, x, y, width, env)
    top = y
    nodes: list[Node] = []
    for i, item in enumerate(items):
        sub = {**ctx, "item": item, "index": i}
        h, got = place(w.item, sub, x, top, width, env)
        top += h
        nodes.extend(got)
    container = Node("androidx.recyclerview.widget.RecyclerView", env.canvas.box(x, y, x + width, top),
                     rid=rid(env, w, ctx), package=env.package, children=nodes)
    return top - y, [container]


def _result(w, ctx, x, y, width, env):
    c, pal = env.canvas, env.pal
    url, title, body = text_of(w.sub, ctx), text_of(w.text, ctx), text_of(w.value, ctx)
    top = y + 28
    kids = []
    if url:
        box, _ = c.text(x + MARGIN, top + 22, url, 30, pal.on_surface_dim, max_width=width - 2 * MARGIN)
        kids.append(label_node(env, box, url))
        top += 60
    tsize = w.size or 44
    for line in c.wrap(one_line(title), tsize, width - 2 * MARGIN)[:2]:  # a result title: no line breaks
        box, _ = c.text(x + MARGIN, top + tsize * 0.7, line, tsize, pal.link)
        kids.append(label_node(env, box, line))
        top += tsize * 1.4
    for line in c.wrap(body, 35, width - 2 * MARGIN):
        box, _ = c.text(x + MARGIN, top + 26, line, 35, pal.on_surface_dim)
        kids.append(label_node(env, box, line))
        top += 50
    height = top - y + 30
    c.rect(x + MARGIN, y + height - 2, x + width - MARGIN, y + height, pal.divider)
    node = Node("android.view.View", c.box(x, y, x + width, y + height), rid=rid(env, w, ctx),
                package=env.package, clickable=bool(w.on_tap), tap=tap_of(w, ctx), children=kids)
    return height, [node]


def _progress(w, ctx, x, y, width, env):
    c = env.canvas
    value = max(0.0, min(100.0, float(render(w.value, ctx) or 0)))
    track = mix(env.accent, env.pal.background, 0.75)
    c.rect(x + MARGIN, y + 40, x + width - MARGIN, y + 52, track, radius=6)
    c.rect(x + MARGIN, y + 40, x + MARGIN + (width - 2 * MARGIN) * value / 100, y + 52, env.accent, radius=6)
    node = Node("android.widget.ProgressBar", c.box(x + MARGIN, y + 40, x + width - MARGIN, y + 52),
                desc=f"{int(value)}%", package=env.package)
    return w.height or 92, [node]


KINDS.update({"result": _result, "progress": _progress, "icon": _icon, "bubble": _bubble, "month": _month,
              "group": _group, "list": _list})


def place(w: Widget, ctx: dict[str, Any], x: float, y: float, width: float,
          env: Env) -> tuple[float, list[Node]]:
    """Lay out ``w`` at (x, y) in ``width``; a widget whose ``if`` is false takes no room."""
    if not condition(ctx, w.when):
        return 0, []
    return KINDS[w.kind](w, ctx, x, y, width, env)


__all__ = ["Tap", "place"]
