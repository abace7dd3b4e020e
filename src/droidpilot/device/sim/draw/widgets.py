"""Layout of one widget kind at a time: draws it on the canvas and returns its uiautomator nodes.

Every function takes the widget, the template context, the top-left corner and width (base units) and
returns ``(height, nodes)``. Text a node declares is drawn exactly inside that node's bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from droidpilot.device.sim.appmodel.expr import condition, lookup, render, to_text
from droidpilot.device.sim.appmodel.model import Widget
from droidpilot.device.sim.draw.canvas import Canvas, Node, Tap, union
from droidpilot.device.sim.draw.fonts import one_line
from droidpilot.device.sim.draw.paper import draw_paper
from droidpilot.device.sim.draw.photo import draw_photo
from droidpilot.device.sim.draw.theme import Palette, mix

MARGIN = 48


@dataclass
class Env:
    """What widget layout needs besides the widget: canvas, theme, app identity and form state."""

    canvas: Canvas
    pal: Palette
    accent: str
    package: str
    fields: dict[str, Any]
    focus: str | None
    scroll_ctx: dict[str, Any] = field(default_factory=dict)
    focus_box: tuple[float, float] | None = None


def text_of(template: str, ctx: dict[str, Any]) -> str:
    """A template filled and turned into display text."""
    return to_text(render(template, ctx)) if template else ""


def rid(env: Env, w: Widget, ctx: dict[str, Any]) -> str:
    """The widget's full resource-id (``package:id/name``), or empty."""
    return f"{env.package}:id/{text_of(w.id, ctx)}" if w.id else ""


def tap_of(w: Widget, ctx: dict[str, Any]) -> Tap | None:
    """What touching a widget does: its ``on_tap`` actions, and its ``on_long_press``; None when neither."""
    if not (w.on_tap or w.on_long_press):
        return None
    return Tap("actions", list(w.on_tap), ctx, hold=w.on_long_press)


def avatar_seed(w: Widget, ctx: dict[str, Any], fallback: str) -> str:
    """What a widget's avatar is drawn from: its ``value`` (a person's name) or ``fallback``, and the
    phone's seed, so the same person has the same face everywhere on one phone."""
    name = text_of(w.value, ctx) or fallback
    sysinfo = ctx.get("sys")
    seed = sysinfo.get("seed", 0) if isinstance(sysinfo, dict) else 0
    return f"{name}#{seed}"


def label_node(env: Env, box: tuple[int, int, int, int], text: str, cls: str = "android.widget.TextView",
               **kw: Any) -> Node:
    """A node for text drawn exactly at ``box`` (its label is checked by OCR)."""
    return Node(cls, box, text=text, package=env.package, label=True, **kw)


# -- kinds ------------------------------------------------------------------------------------------
def _text(w: Widget, ctx: dict[str, Any], x: float, y: float, width: float, env: Env):
    c, pal = env.canvas, env.pal
    sizes = {"title": 58, "display": 132, "headline": 46, "caption": 30, "dim": 36}
    size = w.size or sizes.get(w.style, 38)
    bold = w.bold or w.style in ("title", "headline", "display")
    color = w.color or (pal.on_surface_dim if w.style in ("dim", "caption") else pal.on_surface)
    body = text_of(w.text, ctx)
    lines = c.wrap(body, size, width - 2 * MARGIN, bold) if body else []
    lh = size * 1.4
    top = y + 16
    boxes = []
    for i, line in enumerate(lines):
        lw = c.measure(line, size, bold)
        lx = {"start": x + MARGIN, "center": x + (width - lw) / 2,
              "end": x + width - MARGIN - lw}[w.align]
        box, _ = c.text(lx, top + lh * i + lh / 2, line, size, color, bold)
        boxes.append(box)
    height = max(w.height, lh * len(lines) + 32)
    if not boxes:
        return height, []
    node = label_node(env, union(boxes), body, rid=rid(env, w, ctx), desc=text_of(w.desc, ctx),
                      clickable=bool(w.on_tap), tap=tap_of(w, ctx))
    return height, [node]


def _header(w, ctx, x, y, width, env):
    box, shown = env.canvas.text(x + MARGIN, y + 74, text_of(w.text, ctx), w.size or 34,
                                 w.color or env.accent, True)
    return w.height or 110, [label_node(env, box, shown, rid=rid(env, w, ctx))]


def _divider(w, ctx, x, y, width, env):
    env.canvas.rect(x + (0 if w.style == "full" else MARGIN), y + 11, x + width, y + 13, env.pal.divider)
    return w.height or 24, []


def _switch_track(env: Env, x: float, cy: float, on: bool) -> None:
    c, pal = env.canvas, env.pal
    if on:
        c.rect(x, cy - 34, x + 128, cy + 34, env.accent, radius=34)
        c.ellipse(x + 68, cy - 26, x + 120, cy + 26, "#FFFFFF")
    else:
        c.rect(x, cy - 34, x + 128, cy + 34, pal.surface_alt, radius=34, outline=pal.switch_off, width=4)
        c.ellipse(x + 18, cy - 18, x + 54, cy + 18, pal.switch_off)


def _row(w, ctx, x, y, width, env):
    c, pal = env.canvas, env.pal
    title, sub = text_of(w.text, ctx), text_of(w.sub, ctx)
    detail = text_of(w.detail, ctx) if sub else ""  # a third line (a mail's snippet), under the sub line
    trailing = text_of(w.trailing, ctx)
    height = w.height or (260 if w.thumb else (264 if detail else 208 if sub else 168))
    cy = y + height / 2
    left = x + MARGIN
    children: list[Node] = []
    if w.thumb:
        thumb = text_of(w.thumb, ctx) or env.accent
        c.rect(left, y + 30, left + 340, y + height - 30, thumb, radius=20)
        if "photo" in w.style:  # a procedural picture (gallery grids), seeded by the row's title
            draw_photo(c, left, y + 30, left + 340, y + height - 30, title, thumb)
        else:
            c.glyph(w.glyph or "play", left + 130, cy - 40, 80, "#FFFFFF")
        children.append(Node("android.widget.ImageView", c.box(left, y + 30, left + 340, y + height - 30),
                             desc=title, package=env.package))
        left += 380
    elif "avatar" in w.style:  # a person's procedural portrait, seeded by their name
        c.avatar(avatar_seed(w, ctx, title), left, cy - 56, 112)
        left += 152
    elif w.glyph:
        tint = text_of(w.color, ctx) or env.accent
        c.ellipse(left, cy - 56, left + 112, cy + 56, mix(tint, pal.background, 0.82))
        c.glyph(text_of(w.glyph, ctx), left + 24, cy - 32, 64, tint)
        left += 152
    right = x + width - MARGIN
    on = False
    if w.kind == "switch":
        on = bool(lookup(ctx, w.bind))
        _switch_track(env, right - 128, cy, on)
        children.append(Node("android.widget.Switch", c.box(right - 128, cy - 34, right, cy + 34),
                             text="ON" if on else "OFF", package=env.package, checkable=True, checked=on,
                             clickable=True, rid=f"{env.package}:id/switch_widget"))
        right -= 160
    if w.chevron:
        c.glyph("chevron", right - 56, cy - 28, 56, pal.on_surface_dim)
        right -= 76
    badge = text_of(w.badge, ctx)
    if badge and badge != "0":
        bw = max(64, c.measure(badge, 30, True) + 32)
        c.rect(right - bw, cy - 32, right, cy + 32, "#E53935", radius=32)
        box, _ = c.text(right - bw + (bw - c.measure(badge, 30, True)) / 2, cy, badge, 30, "#FFFFFF", True)
        children.append(Node("android.widget.TextView", box, text=badge, package=env.package))
        right -= bw + 24
    if trailing:
        tw = min(c.measure(trailing, 34), (right - left) * 0.45)
        box, shown = c.text(right - tw, cy, trailing, 34, pal.on_surface_dim, max_width=tw + 1)
        children.append(label_node(env, box, trailing, drawn=shown))
        right -= tw + 32
    size = w.size or (40 if w.thumb else 42)
    ty = cy - 56 if detail else cy - 28 if sub else cy
    fg = text_of(w.color, ctx) if w.style == "colored" else pal.on_surface
    if w.thumb:
        lines = c.wrap(one_line(title), size, right - left, w.bold)[:2]  # a row title: no line breaks
        ty = cy - (len(lines) * 56 + (50 if sub else 0)) / 2 + 28
        boxes, drawn = [], []
        for i, line in enumerate(lines):
            box, shown = c.text(left, ty + i * 56, line, size, fg, w.bold, max_width=right - left)
            boxes.append(box)
            drawn.append(shown)
        children.insert(0, label_node(env, union(boxes), title, rid=f"{env.package}:id/title",
                                      drawn=" ".join(drawn)))
        ty += (len(lines) - 1) * 56
    else:
        box, shown = c.text(left, ty, title, size, fg, w.bold, max_width=right - left)
        children.insert(0, label_node(env, box, title, rid=f"{env.package}:id/title", drawn=shown))
    if sub:
        box, shown = c.text(left, ty + 58, sub, 34, pal.on_surface_dim, max_width=right - left)
        children.insert(1, label_node(env, box, sub, rid=f"{env.package}:id/summary", drawn=shown))
    if detail:
        detail = one_line(detail)
        box, shown = c.text(left, ty + 112, detail, 32, pal.on_surface_dim, max_width=right - left)
        children.insert(2, label_node(env, box, detail, rid=f"{env.package}:id/detail", drawn=shown))
    tap = tap_of(w, ctx)
    if w.kind == "switch":
        tap = Tap("toggle", list(w.on_tap), ctx, w.bind, hold=w.on_long_press)
    node = Node("android.widget.LinearLayout", c.box(x, y, x + width, y + height), rid=rid(env, w, ctx),
                desc=text_of(w.desc, ctx), package=env.package, clickable=tap is not None, tap=tap,
                checked=on, checkable=w.kind == "switch", children=children)
    return height, [node]


def _button(w, ctx, x, y, width, env):
    c = env.canvas
    text = text_of(w.text, ctx)
    style = w.style
    enabled = condition(ctx, w.value) if w.value else True
    height = w.height or 160
    bw = width - 2 * MARGIN
    if "inline" in style:
        bw = min(bw, c.measure(text, 40, True) + 144 + (80 if w.glyph else 0))
    x1 = {"start": x + MARGIN, "center": x + (width - bw) / 2, "end": x + width - MARGIN - bw}[w.align]
    top, bottom = y + 14, y + height - 14
    color = text_of(w.color, ctx) or env.accent
    if not enabled:
        color = env.pal.switch_off
    if "outlined" in style:
        c.rect(x1, top, x1 + bw, bottom, None, radius=(bottom - top) / 2, outline=env.pal.divider, width=4)
        fg = color
    elif "tonal" in style:
        c.rect(x1, top, x1 + bw, bottom, mix(color, env.pal.background, 0.78), radius=(bottom - top) / 2)
        fg = mix(color, "#000000", 0.35) if env.pal.name == "light" else "#FFFFFF"
    else:
        c.rect(x1, top, x1 + bw, bottom, color, radius=(bottom - top) / 2)
        fg = "#FFFFFF"
    tw = c.measure(text, 40, True) + (80 if w.glyph else 0)
    tx = x1 + (bw - tw) / 2
    if w.glyph:
        c.glyph(w.glyph, tx, (top + bottom) / 2 - 28, 56, fg)
        tx += 80
    box, _ = c.text(tx, (top + bottom) / 2, text, 40, fg, True)
    tap = tap_of(w, ctx) if enabled else None
    node = label_node(env, box, text, cls="android.widget.Button", rid=rid(env, w, ctx),
                      desc=text_of(w.desc, ctx), clickable=enabled, enabled=enabled, tap=tap)
    node.bounds = c.box(x1, top, x1 + bw, bottom)
    node.label = False
    inner = label_node(env, box, text, in_xml=False)
    node.children.append(inner)
    return height, [node]


def _buttons(w, ctx, x, y, width, env):
    shown = [item for item in w.items if condition(ctx, item.when)]
    cell = (width - MARGIN) / max(len(shown), 1)
    nodes: list[Node] = []
    height = 0.0
    for i, item in enumerate(shown):
        h, got = _button(item, ctx, x + i * cell + (MARGIN / 2 if i else 0), y, cell + MARGIN / 2, env)
        height = max(height, h)
        nodes.extend(got)
    return height, nodes


def _chips(w, ctx, x, y, width, env):
    c, pal = env.canvas, env.pal
    height = w.height or 128
    cx = x + MARGIN
    nodes = []
    for item in w.items:
        text = text_of(item.text, ctx)
        sel = condition(ctx, item.selected) if item.selected is not None else False
        tw = c.measure(text, 40, sel)
        box, _ = c.text(cx, y + height / 2 - 6, text, 40, env.accent if sel else pal.on_surface_dim, sel)
        if sel:
            c.rect(cx, y + height - 14, cx + tw, y + height - 6, env.accent, radius=3)
        node = label_node(env, box, text, rid=rid(env, item, ctx), clickable=bool(item.on_tap),
                          selected=sel, tap=tap_of(item, ctx))
        nodes.append(node)
        cx += tw + 72
    c.rect(x, y + height - 2, x + width, y + height, pal.divider)
    return height, nodes


def _map(c: Canvas, x1: float, y1: float, x2: float, y2: float, dark: bool) -> None:
    """Streets, a lake and parks drawn over a map-coloured area (deterministic for its size)."""
    road, park, water = ("#3C4043", "#2D4A35", "#27496D") if dark else ("#FFFFFF", "#C8E6C9", "#AECBFA")
    w, h = x2 - x1, y2 - y1
    c.rect(x1 + w * 0.06, y1 + h * 0.1, x1 + w * 0.3, y1 + h * 0.34, park, radius=24)
    c.rect(x1 + w * 0.7, y1 + h * 0.62, x1 + w * 0.95, y1 + h * 0.9, park, radius=24)
    c.ellipse(x1 + w * 0.52, y1 + h * 0.08, x1 + w * 0.92, y1 + h * 0.44, water)
    for fx in (0.36, 0.64):
        c.rect(x1 + w * fx, y1, x1 + w * fx + 22, y2, road)
    for fy in (0.5, 0.78):
        c.rect(x1, y1 + h * fy, x2, y1 + h * fy + 22, road)
    c.line(x1, y1 + h * 0.95, x1 + w * 0.9, y1 + h * 0.05, road, 16)


def _image(w, ctx, x, y, width, env):
    c = env.canvas
    height = w.height or 480
    is_map = "map" in w.style
    color = text_of(w.color, ctx) or mix(env.accent, env.pal.background, 0.6)
    if is_map and env.pal.name == "dark":
        color = "#242F3E"
    inset = 0 if "bleed" in w.style else MARGIN
    c.rect(x + inset, y + 16, x + width - inset, y + height - 16, color, radius=0 if inset == 0 else 28)
    if "avatar" in w.style:  # a person's portrait, round, in the middle
        side = height * 0.78
        c.avatar(avatar_seed(w, ctx, text_of(w.desc, ctx)), x + (width - side) / 2, y + (height - side) / 2,
                 side)
    elif "paper" in w.style:  # a photo of a receipt or note: its text in the pixels only (paper.py)
        draw_paper(c, x + inset, y + 16, x + width - inset, y + height - 16, text_of(w.value, ctx))
    elif "photo" in w.style:  # a procedural picture seeded by its description
        draw_photo(c, x + inset, y + 16, x + width - inset, y + height - 16,
                   text_of(w.desc, ctx) or text_of(w.text, ctx), text_of(w.color, ctx))
    elif is_map:
        _map(c, x + inset, y + 16, x + width - inset, y + height - 16, env.pal.name == "dark")
    if w.glyph and "photo" not in w.style and "avatar" not in w.style and "paper" not in w.style:
        g = min(height * 0.32, 220)
        c.glyph(text_of(w.glyph, ctx), x + (width - g) / 2, y + (height - g) / 2, g,
                "#EA4335" if is_map else "#FFFFFFCC")
    node = Node("android.widget.ImageView", c.box(x + inset, y + 16, x + width - inset, y + height - 16),
                desc=text_of(w.desc, ctx) or text_of(w.text, ctx), rid=rid(env, w, ctx),
                package=env.package, clickable=bool(w.on_tap), tap=tap_of(w, ctx))
    return height, [node]


Layout = Callable[[Widget, dict, float, float, float, Env], tuple[float, list[Node]]]
KINDS: dict[str, Layout] = {
    "text": _text, "header": _header, "divider": _divider, "row": _row, "switch": _row,
    "spacer": lambda w, *_: (w.height or 48, []),
    "button": _button, "buttons": _buttons, "chips": _chips,
    "image": _image,
}
