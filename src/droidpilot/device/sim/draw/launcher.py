"""The home screen (wallpaper, date, app search bar, icon grid with labels) and the recents screen."""

from __future__ import annotations

import datetime as dt
from typing import Any

from droidpilot.device.sim.appmodel.model import App
from droidpilot.device.sim.draw.canvas import Canvas, Node, Tap, decor, shift_ops
from droidpilot.device.sim.draw.chrome import NAV_H, STATUS_H, status_bar
from droidpilot.device.sim.draw.keyboard import KEYBOARD_H
from droidpilot.device.sim.draw.theme import Palette

PACKAGE = "com.simphone.launcher"
COLUMNS = 4


def visible_apps(apps: list[App], query: str) -> list[App]:
    """The launcher's apps, filtered by the search bar's text (label or name contains it)."""
    q = query.strip().lower()
    return [a for a in apps if not q or q in a.label.lower() or q in a.name.lower()]


def home(c: Canvas, pal: Palette, width: float, height: float, apps: list[App], sysinfo: dict[str, Any],
         query: str, focused: bool) -> Node:
    """Draw the home screen; returns its window node (icons are clickable TextViews, as on Pixel)."""
    c.wallpaper(pal.wallpaper_top, pal.wallpaper_bottom)
    status_bar(c, pal, width, sysinfo, fg=pal.on_wallpaper)
    fg = pal.on_wallpaper
    day = dt.date.fromisoformat(sysinfo["date"])
    glance = day.strftime("%a, %b %-d")
    gbox, _ = c.text(64, STATUS_H + 110, glance, 60, fg)
    nodes = [Node("android.widget.TextView", gbox, text=glance, package=PACKAGE, label=True,
                  rid=f"{PACKAGE}:id/date", clickable=True, tap=Tap("system", arg="open:calendar"))]
    sy1, sy2 = STATUS_H + 230, STATUS_H + 370
    c.rect(48, sy1, width - 48, sy2, "#FFFFFF" if pal.name == "light" else "#303134", radius=70,
           outline="#1A73E8" if focused else None, width=4)
    c.glyph("magnifier", 96, (sy1 + sy2) / 2 - 30, 60, "#5F6368" if pal.name == "light" else "#BDC1C6")
    light = pal.name == "light"
    tcolor = ("#202124" if query else "#5F6368") if light else ("#E8EAED" if query else "#9AA0A6")
    tbox, _ = c.text(190, (sy1 + sy2) / 2, query or "Search apps", 42, tcolor, max_width=width - 300)
    if focused:
        cx = 190 + (c.measure(query, 42) if query else 0) + 4
        c.rect(cx, (sy1 + sy2) / 2 - 26, cx + 4, (sy1 + sy2) / 2 + 26, "#1A73E8")
    nodes.append(Node("android.widget.EditText", tbox, text=query or "Search apps", package=PACKAGE,
                      rid=f"{PACKAGE}:id/search_box", clickable=True, focusable=True, focused=focused,
                      label=True, tap=Tap("focus", [], None, "launcher_query")))
    shown = visible_apps(apps, query)
    cell_w, cell_h = width / COLUMNS, 300
    top = sy2 + 90
    limit = height - NAV_H - (KEYBOARD_H if focused else 0)
    if not shown:
        msg = "No apps found"
        box, _ = c.text((width - c.measure(msg, 40)) / 2, top + 80, msg, 40, fg)
        nodes.append(Node("android.widget.TextView", box, text=msg, package=PACKAGE, label=True))
    for i, app in enumerate(shown):
        col, row = i % COLUMNS, i // COLUMNS
        x, y = col * cell_w, top + row * cell_h
        if y + cell_h > limit:
            break
        ix = x + (cell_w - 168) / 2
        c.ellipse(ix + 4, y + 14, ix + 172, y + 182, "#00000030")
        c.ellipse(ix, y + 8, ix + 168, y + 176, app.icon.color)
        c.glyph(app.icon.glyph, ix + 38, y + 46, 92, "#FFFFFF")
        label = app.label
        lw = min(c.measure(label, 34), cell_w - 16)
        lbox, _ = c.text(x + (cell_w - lw) / 2, y + 228, label, 34, fg, max_width=cell_w - 16)
        label_node = Node("android.widget.TextView", lbox, text=label, package=PACKAGE, label=True,
                          in_xml=False)
        nodes.append(Node("android.widget.TextView", c.box(x + 8, y, x + cell_w - 8, y + 270), text=label,
                          desc=label, package=PACKAGE, clickable=True, rid=f"{PACKAGE}:id/icon",
                          tap=Tap("system", arg=f"open:{app.name}"), children=[label_node]))
    return decor(c.box(0, 0, width, height), PACKAGE, nodes)


THUMB = 0.36  # recents cards show each app's screen at this fraction of its size


def recents(c: Canvas, pal: Palette, width: float, height: float,
            tasks: list[tuple[App, list[tuple[Any, ...]]]], sysinfo: dict[str, Any]) -> Node:
    """The overview: a two-column grid of task cards (newest first), each a live thumbnail of the app's
    screen under its icon and label, and a Clear all button. ``tasks`` pairs apps with thumbnail ops."""
    c.rect(0, 0, width, height, "#3C4043" if pal.name == "light" else "#000000")
    status_bar(c, pal, width, sysinfo, fg="#FFFFFF")
    nodes: list[Node] = []
    if not tasks:
        msg = "No recent items"
        box, _ = c.text((width - c.measure(msg, 42)) / 2, height / 2, msg, 42, "#FFFFFF")
        nodes.append(Node("android.widget.TextView", box, text=msg, package=PACKAGE, label=True))
    cw, ch = width * THUMB, height * THUMB
    gap = (width - 2 * cw) / 3
    for i, (app, ops) in enumerate(tasks[:4]):
        x, y = gap + (i % 2) * (cw + gap), STATUS_H + 40 + (i // 2) * (ch + 130)
        c.ellipse(x, y, x + 72, y + 72, app.icon.color)
        c.glyph(app.icon.glyph, x + 16, y + 16, 40, "#FFFFFF")
        box, _ = c.text(x + 92, y + 36, app.label, 38, "#FFFFFF", True, max_width=cw - 92)
        top = y + 100
        c.ops.extend(shift_ops(ops, c.px(x), c.px(top)))
        c.rect(x, top, x + cw, top + ch, None, radius=24, outline="#FFFFFF55", width=3)
        label = Node("android.widget.TextView", box, text=app.label, package=PACKAGE, label=True)
        nodes.append(Node("android.widget.FrameLayout", c.box(x, y, x + cw, top + ch), desc=app.label,
                          package=PACKAGE, clickable=True, tap=Tap("system", arg=f"open:{app.name}"),
                          rid=f"{PACKAGE}:id/task", children=[label]))
    if tasks:
        label = "Clear all"
        lw = c.measure(label, 40, True)
        by = height - NAV_H - 150
        c.rect((width - lw) / 2 - 60, by, (width + lw) / 2 + 60, by + 120, "#FFFFFF22", radius=60)
        box, _ = c.text((width - lw) / 2, by + 60, label, 40, "#FFFFFF", True)
        nodes.append(Node("android.widget.Button", box, text=label, package=PACKAGE, clickable=True,
                          label=True, rid=f"{PACKAGE}:id/clear_all", tap=Tap("system", arg="clear_recents")))
    return Node("android.widget.FrameLayout", c.box(0, 0, width, height), package=PACKAGE, children=nodes)
