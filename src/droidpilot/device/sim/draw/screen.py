"""Composition of an app's top screen: app bar, scrolling content, footer, tabs, FAB, and the dialog or
bottom sheet on top of the page below it. Scrolled-out content is culled from both pixels and dump."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from droidpilot.device.sim.appmodel.model import App, Screen, Widget
from droidpilot.device.sim.appmodel.sources import items_of
from droidpilot.device.sim.draw.canvas import Canvas, Node, Tap, clip, decor
from droidpilot.device.sim.draw.chrome import APPBAR_H, NAV_H, STATUS_H, TABS_H, status_bar
from droidpilot.device.sim.draw.keyboard import KEYBOARD_H
from droidpilot.device.sim.draw.theme import DARK, Palette, mix
from droidpilot.device.sim.draw.widgets import Env, text_of
from droidpilot.device.sim.draw.widgets_more import place


@dataclass
class Entry:
    """One screen on an app's back stack, with its form fields, scroll offset, focus and pager page."""

    screen: str
    params: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)
    scroll: float = 0.0
    focus: str | None = None
    page: int = 0


@dataclass
class PageInfo:
    """What input handling needs to know about the composed screen (base units)."""

    viewport: tuple[float, float] = (0.0, 0.0)
    max_scroll: float = 0.0
    pages: int = 0
    sheet_top: float | None = None


def make_ctx(app: App, state: dict[str, Any], data: dict[str, Any], entry: Entry,
             sysinfo: dict[str, Any]) -> dict[str, Any]:
    """The template context of a screen: its app's state and data, params, fields, system info."""
    ctx = {"state": state, "data": data, "params": entry.params, "field": entry.fields, "sys": sysinfo}
    screen = app.screens[entry.screen]
    if screen.pager:
        items = items_of(screen.pager, ctx)
        if items:
            entry.page %= len(items)
            ctx["page_item"] = items[entry.page]
        ctx["page_index"] = entry.page
        ctx["pages"] = len(items)
    return ctx


def _cull(node: Node, area: tuple[int, int, int, int]) -> Node | None:
    box = clip(node.bounds, area)
    if box is None:
        return None
    node.label = node.label and box == node.bounds
    node.bounds = box
    node.children = [k for k in (_cull(ch, area) for ch in node.children) if k is not None]
    return node


def _measure(widgets: list[Widget], ctx: dict[str, Any], width: float, env: Env) -> float:
    probe = Env(Canvas(env.canvas.s), env.pal, env.accent, env.package, env.fields, env.focus)
    return sum(place(w, ctx, 0, 0, width, probe)[0] for w in widgets)


def _column(widgets: list[Widget], ctx: dict[str, Any], x: float, y: float, width: float, env: Env,
            area: tuple[float, float]) -> tuple[float, list[Node]]:
    """Lay widgets out top-down from ``y``; blocks wholly outside ``area`` (y range) are dropped."""
    c = env.canvas
    nodes: list[Node] = []
    top = y
    for w in widgets:
        if w.at is not None:
            continue
        start = len(c.ops)
        h, got = place(w, ctx, x, top, width, env)
        if top + h <= area[0] or top >= area[1]:
            del c.ops[start:]
        else:
            nodes.extend(got)
        top += h
    return top - y, nodes


def _absolute(widgets: list[Widget], ctx: dict[str, Any], width: float, vp: tuple[float, float],
              env: Env) -> list[Node]:
    nodes: list[Node] = []
    for w in widgets:
        if w.at is None:
            continue
        x, y, ww, _hh = w.at
        x = width + x - ww if x < 0 else x
        y = vp[1] + y if y < 0 else vp[0] + y
        nodes.extend(place(w, ctx, x, y, ww, env)[1])
    return nodes


def compose_page(c: Canvas, pal: Palette, app: App, stack: list[Entry], ctxs: list[dict[str, Any]],
                 width: float, height: float, keyboard: bool) -> tuple[Node, PageInfo]:
    """Draw the top entry of ``stack`` (a page, or a dialog/sheet over the page below)."""
    entry, ctx = stack[-1], ctxs[-1]
    screen = app.screens[entry.screen]
    if screen.presentation != "page" and len(stack) > 1:
        compose_page(c, pal, app, stack[:-1], ctxs[:-1], width, height, False)
        c.rect(0, 0, width, height, pal.scrim)
        if screen.presentation == "dialog":
            return _dialog(c, pal, app, entry, ctx, width, height)
        return _sheet(c, pal, app, stack, ctx, width, height, keyboard)
    pal = DARK if screen.dark else pal
    env = Env(c, pal, app.accent, app.package, entry.fields, entry.focus)
    bg = text_of(screen.background, ctx) or pal.background
    c.rect(0, 0, width, height, bg)
    top = STATUS_H + (APPBAR_H if screen.appbar else 0)
    bottom = height - NAV_H - (KEYBOARD_H if keyboard else (TABS_H if screen.tabs else 0))
    footer_h = _measure(screen.footer, ctx, width, env)
    vp = (top, bottom - footer_h)
    start = len(c.ops)
    content_h, nodes = _column(screen.widgets, ctx, 0, top - entry.scroll, width, env, vp)
    info = PageInfo(viewport=vp, max_scroll=max(0.0, content_h - (vp[1] - vp[0])), pages=ctx.get("pages", 0))
    if entry.scroll > info.max_scroll:
        entry.scroll = info.max_scroll
        del c.ops[start:]
        env.focus_box = None
        _, nodes = _column(screen.widgets, ctx, 0, top - entry.scroll, width, env, vp)
    if env.focus_box and keyboard:
        y1, y2 = env.focus_box
        shift = y2 + 24 - vp[1] if y2 > vp[1] else (y1 - vp[0] if y1 < vp[0] else 0)
        if shift:
            entry.scroll = max(0.0, min(entry.scroll + shift, info.max_scroll))
            del c.ops[:]
            return compose_page(c, pal, app, stack, ctxs, width, height, keyboard)
    area = c.box(0, vp[0], width, vp[1])
    kids = [k for k in (_cull(n, area) for n in nodes) if k is not None]
    cls = "androidx.viewpager.widget.ViewPager" if screen.pager else "android.widget.ScrollView"
    scroller = Node(cls, area, package=app.package, scrollable=info.max_scroll > 0 or info.pages > 1,
                    rid=f"{app.package}:id/content", children=kids)
    window = [scroller, *_absolute(screen.widgets, ctx, width, vp, env)]
    if screen.fab is not None and not keyboard:
        window.append(_fab(c, pal, app, screen.fab, ctx, width, vp[1]))
    if screen.footer:
        c.rect(0, vp[1], width, bottom, pal.surface)
        c.rect(0, vp[1], width, vp[1] + 2, pal.divider)
        window.extend(_column(screen.footer, ctx, 0, vp[1], width, env, (vp[1], bottom))[1])
    if screen.tabs and not keyboard:
        window.extend(_tabs(c, pal, app, screen, entry, ctx, width, bottom))
    if screen.appbar:
        window[:0] = _appbar(c, pal, app, screen, ctx, width, bg, len(stack) > 1)
    status_bar(c, pal, width, ctx["sys"], bg=bg, fg="#FFFFFF" if screen.dark or bg in ("#000000",) else None)
    return decor(c.box(0, 0, width, height), app.package, window), info


def _appbar(c: Canvas, pal: Palette, app: App, screen: Screen, ctx: dict[str, Any], width: float, bg: str,
            deep: bool) -> list[Node]:
    y1, y2 = STATUS_H, STATUS_H + APPBAR_H
    cy = (y1 + y2) / 2
    c.rect(0, y1, width, y2, bg)
    nodes: list[Node] = []
    x = 56
    if screen.up if screen.up is not None else deep:
        c.glyph("arrow_back", 44, cy - 34, 68, pal.on_surface)
        nodes.append(Node("android.widget.ImageButton", c.box(16, y1 + 16, 144, y2 - 16), desc="Navigate up",
                          package=app.package, clickable=True, tap=Tap("system", arg="key:back")))
        x = 176
    right = width - 24
    env = Env(c, pal, app.accent, app.package, {}, None)
    for action in reversed(screen.actions):
        w_ = 132
        sized = action.model_copy(update={"size": action.size or 64})
        got = place(sized, ctx, right - w_, cy - 56, w_, env)[1]
        nodes.extend(got)
        right -= w_ if got else 0
    title = text_of(screen.title, ctx)
    if title:
        box, _ = c.text(x, cy, title, 54, pal.on_surface, False, max_width=right - x - 16)
        nodes.insert(0, Node("android.widget.TextView", box, text=title, package=app.package, label=True,
                             rid=f"{app.package}:id/toolbar_title"))
    return nodes


def _tabs(c: Canvas, pal: Palette, app: App, screen: Screen, entry: Entry, ctx: dict[str, Any],
          width: float, top: float) -> list[Node]:
    c.rect(0, top, width, top + TABS_H, pal.surface)
    cell = width / len(screen.tabs)
    nodes = []
    for i, tab in enumerate(screen.tabs):
        sel = tab.screen == entry.screen
        cx = cell * i + cell / 2
        if sel:
            c.rect(cx - 80, top + 22, cx + 80, top + 102, mix(app.accent, pal.surface, 0.75), radius=40)
        color = app.accent if sel else pal.on_surface_dim
        c.glyph(tab.glyph, cx - 32, top + 30, 64, color)
        tw = c.measure(tab.text, 32, sel)
        fg = pal.on_surface if sel else pal.on_surface_dim
        box, _ = c.text(cx - tw / 2, top + 144, tab.text, 32, fg, sel)
        badge = text_of(tab.badge, ctx)
        kids = [Node("android.widget.TextView", box, text=tab.text, package=app.package, label=True)]
        if badge and badge != "0":
            c.ellipse(cx + 20, top + 14, cx + 72, top + 66, "#E53935")
            bbox, _ = c.text(cx + 46 - c.measure(badge, 28, True) / 2, top + 40, badge, 28, "#FFFFFF", True)
            kids.append(Node("android.widget.TextView", bbox, text=badge, package=app.package))
        nodes.append(Node("android.widget.FrameLayout", c.box(cell * i, top, cell * (i + 1), top + TABS_H),
                          desc=tab.text, rid=f"{app.package}:id/{tab.id or 'tab_' + tab.screen}",
                          package=app.package, clickable=True, selected=sel,
                          tap=Tap("system", arg=f"tab:{tab.screen}"), children=kids))
    return nodes


def _fab(c: Canvas, pal: Palette, app: App, fab: Widget, ctx: dict[str, Any], width: float,
         bottom: float) -> Node:
    x2, y2 = width - 56, bottom - 56
    label = text_of(fab.text, ctx)
    w = 176 if not label else 176 + c.measure(label, 40, True) + 24
    c.rect(x2 - w + 4, y2 - 172, x2 + 4, y2 + 8, "#00000028", radius=48)
    c.rect(x2 - w, y2 - 176, x2, y2, mix(app.accent, pal.background, 0.7), radius=48)
    fg = mix(app.accent, "#000000", 0.45) if pal.name == "light" else "#FFFFFF"
    c.glyph(fab.glyph or "plus", x2 - w + 52, y2 - 124, 72, fg)
    kids = []
    if label:
        box, _ = c.text(x2 - w + 148, y2 - 88, label, 40, fg, True)
        kids.append(Node("android.widget.TextView", box, text=label, package=app.package, label=True))
    return Node("android.widget.ImageButton", c.box(x2 - w, y2 - 176, x2, y2), desc=text_of(fab.desc, ctx),
                rid=f"{app.package}:id/{fab.id or 'fab'}", package=app.package, clickable=True,
                tap=Tap("actions", list(fab.on_tap), ctx, hold=fab.on_long_press), children=kids)


def _dialog(c: Canvas, pal: Palette, app: App, entry: Entry, ctx: dict[str, Any], width: float,
            height: float) -> tuple[Node, PageInfo]:
    screen = app.screens[entry.screen]
    env = Env(c, pal, app.accent, app.package, entry.fields, entry.focus)
    dw = 920
    x1 = (width - dw) / 2
    body_h = _measure(screen.widgets, ctx, dw, env)
    dh = 150 + body_h + 170
    y1 = (height - dh) / 2
    c.rect(x1, y1, x1 + dw, y1 + dh, pal.surface, radius=56)
    title = text_of(screen.title, ctx)
    box, _ = c.text(x1 + 64, y1 + 100, title, 50, pal.on_surface, True, max_width=dw - 128)
    nodes: list[Node] = [Node("android.widget.TextView", box, text=title, package=app.package, label=True,
                              rid="android:id/alertTitle")]
    nodes.extend(_column(screen.widgets, ctx, x1 + 16, y1 + 150, dw - 32, env, (0, height))[1])
    bx = x1 + dw - 48
    for action in reversed(screen.actions):
        label = text_of(action.text, ctx)
        tw = c.measure(label, 40, True)
        bbox, _ = c.text(bx - tw - 32, y1 + dh - 90, label, 40, app.accent, True)
        nodes.append(Node("android.widget.Button", c.box(bx - tw - 64, y1 + dh - 150, bx, y1 + dh - 30),
                          text=label, rid=f"android:id/button{len(nodes)}", package=app.package,
                          clickable=True, tap=Tap("actions", list(action.on_tap), ctx,
                                                  hold=action.on_long_press)))
        nodes[-1].children.append(Node("android.widget.TextView", bbox, text=label, package=app.package,
                                       label=True, in_xml=False))
        bx -= tw + 96
    return decor(c.box(x1, y1, x1 + dw, y1 + dh), app.package, nodes), PageInfo(viewport=(y1, y1 + dh))


def _sheet(c: Canvas, pal: Palette, app: App, stack: list[Entry], ctx: dict[str, Any], width: float,
           height: float, keyboard: bool) -> tuple[Node, PageInfo]:
    entry = stack[-1]
    screen = app.screens[entry.screen]
    env = Env(c, pal, app.accent, app.package, entry.fields, entry.focus)
    top = height * 0.36
    bottom = height - NAV_H - (KEYBOARD_H if keyboard else 0)
    footer_h = _measure(screen.footer, ctx, width, env)
    vp = (top + 170, bottom - footer_h)
    content_h = _measure(screen.widgets, ctx, width, env)
    info = PageInfo(viewport=vp, max_scroll=max(0.0, content_h - (vp[1] - vp[0])), sheet_top=top)
    entry.scroll = max(0.0, min(entry.scroll, info.max_scroll))
    c.rect(0, top, width, height, pal.background, radius=48)
    _, nodes = _column(screen.widgets, ctx, 0, vp[0] - entry.scroll, width, env, vp)
    area = c.box(0, vp[0], width, vp[1])
    kids = [k for k in (_cull(n, area) for n in nodes) if k is not None]
    c.rect(0, top, width, vp[0], pal.background, radius=48)
    c.rect(width / 2 - 60, top + 24, width / 2 + 60, top + 36, pal.divider, radius=6)
    title = text_of(screen.title, ctx)
    box, _ = c.text(56, top + 100, title, 46, pal.on_surface, True)
    c.glyph("close", width - 128, top + 64, 72, pal.on_surface)
    c.rect(0, vp[0] - 2, width, vp[0], pal.divider)
    window: list[Node] = [
        Node("android.widget.TextView", box, text=title, package=app.package, label=True,
             rid=f"{app.package}:id/sheet_title"),
        Node("android.widget.ImageButton", c.box(width - 160, top + 40, width - 24, top + 160), desc="Close",
             package=app.package, clickable=True, tap=Tap("system", arg="key:back")),
        Node("androidx.recyclerview.widget.RecyclerView", area, package=app.package,
             scrollable=info.max_scroll > 0, children=kids),
    ]
    if screen.footer:
        c.rect(0, vp[1], width, bottom, pal.surface)
        window.extend(_column(screen.footer, ctx, 0, vp[1], width, env, (vp[1], bottom))[1])
    return decor(c.box(0, top, width, height), app.package, window), info
