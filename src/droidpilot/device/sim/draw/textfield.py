"""Text fields (``input`` and ``search`` widgets): a frame with an optional label and send button, and
the value drawn as one line, or for ``multiline`` fields as wrapped lines, one under the other.

A multi-line field as Android's EditText: breaks lines at newlines and wraps long ones to its width; with
no ``height`` it grows with its text, with one it shows the caret's lines while focused (its first lines
otherwise). The node keeps the real text, newlines included, as uiautomator does.
"""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.appmodel.model import Widget
from droidpilot.device.sim.draw.canvas import Canvas, Node, Tap, union
from droidpilot.device.sim.draw.widgets import KINDS, MARGIN, Env, label_node, rid, tap_of, text_of

FIRST_LINE = 58  # from the frame's top to the centre of a multi-line (or labelled) field's first line
SEND_GAP = 16  # between the text and the send button


def _send_width(w: Widget, ctx: dict[str, Any], c: Canvas) -> float:
    """How much of the field's width its send button takes (laid out by ``_send_button``)."""
    trailing = text_of(w.trailing, ctx)
    return (c.measure(trailing, 38, True) + 72 if trailing else 120) + SEND_GAP


def _visible(lines: list[str], top: float, bottom: float, size: float, focused: bool) -> list[str]:
    """The lines that fit between ``top`` and ``bottom``: the caret's (last) ones while focused."""
    room = bottom - 16 - size * 0.72 - (top + FIRST_LINE)
    fit = max(1, int(room // (size * 1.4)) + 1)
    if len(lines) <= fit:
        return lines
    return lines[-fit:] if focused else lines[:fit]


def _input(w: Widget, ctx: dict[str, Any], x: float, y: float, width: float,
           env: Env) -> tuple[float, list[Node]]:
    c, pal = env.canvas, env.pal
    value = str(env.fields.get(w.field, ""))
    focused = env.focus == w.field
    search = w.kind == "search"
    size = w.size or 40
    lh = size * 1.4
    x1, x2, top = x + MARGIN, x + width - MARGIN, y + 16
    label = text_of(w.text, ctx)
    tx = x1 + (120 if search else 36)
    text_x = tx + (c.measure(label, 38) + 32 if label else 0)
    end = x2 - (_send_width(w, ctx, c) if w.on_tap else 0)
    avail = end - text_x - 36
    height = w.height or (140 if search else (320 if w.multiline else 150))
    if w.multiline:
        lines = c.wrap(value, size, avail) if value else []
        if not w.height:  # wrap_content: the field grows with its text
            height = max(height, FIRST_LINE + (max(len(lines), 1) - 1) * lh + FIRST_LINE + 32)
    else:
        lines = [value] if value else []
    bottom = top + height - 32
    if search:
        c.rect(x1, top, x2, bottom, pal.surface_alt, radius=(bottom - top) / 2,
               outline=env.accent if focused else None, width=4)
        c.glyph("magnifier", x1 + 36, (top + bottom) / 2 - 28, 56, pal.on_surface_dim)
    else:
        c.rect(x1, top, x2, bottom, pal.background, radius=16, outline=env.accent if focused else pal.divider,
               width=4 if focused else 3)
    children: list[Node] = []
    if w.on_tap:
        _send_button(w, ctx, x2, top, bottom, env, children)
    if label:
        box, _ = c.text(tx, top + FIRST_LINE, label, 38, pal.on_surface_dim)
        children.append(label_node(env, box, label))
    hint = text_of(w.hint, ctx)
    cy = top + FIRST_LINE if (w.multiline or label) else (top + bottom) / 2
    shown = _visible(lines, top, bottom, size, focused) if w.multiline else lines
    text_box, drawn = None, ""
    caret_x, caret_y = text_x, cy
    if shown:
        boxes = []
        for i, line in enumerate(shown):
            box, drawn = c.text(text_x, cy + i * lh, line, size, pal.on_surface, max_width=avail)
            boxes.append(box)
        text_box = union(boxes)
        caret_x = text_x + min(c.measure(shown[-1], size), avail) + 4
        caret_y = cy + (len(shown) - 1) * lh
    elif hint:
        text_box, _ = c.text(text_x, cy, hint, size, pal.on_surface_dim, max_width=avail)
    if focused:
        c.rect(caret_x, caret_y - size * 0.6, caret_x + 4, caret_y + size * 0.6, env.accent)
        grows = w.multiline and not w.height
        env.focus_box = (caret_y - lh, caret_y + lh) if grows else (y, y + height)
    tap = Tap("focus", list(w.on_submit), ctx, w.field, w.multiline)
    node = Node("android.widget.EditText", text_box or c.box(text_x, top, end, bottom), text=value or hint,
                rid=rid(env, w, ctx), package=env.package, clickable=True, focusable=True, focused=focused,
                label=bool(text_box) and len(lines) <= 1, drawn=drawn if len(lines) == 1 else "", tap=tap)
    outer = Node("android.widget.FrameLayout", c.box(x1, top, x2, bottom), package=env.package,
                 clickable=True, tap=tap, children=[*children, node])
    return height, [outer]


def _send_button(w: Widget, ctx: dict[str, Any], x2: float, top: float, bottom: float, env: Env,
                 out: list[Node]) -> None:
    """A send button at the right end of a text field (chat and comment boxes)."""
    c = env.canvas
    cy = (top + bottom) / 2
    trailing = text_of(w.trailing, ctx)
    if trailing:
        tw = c.measure(trailing, 38, True)
        x1 = x2 - tw - 72
        c.rect(x1 - 12, cy - 52, x2 - 12, cy + 52, env.accent, radius=16)
        box, _ = c.text(x1 + 24, cy, trailing, 38, "#FFFFFF", True)
        node = Node("android.widget.Button", c.box(x1 - 12, cy - 52, x2 - 12, cy + 52), text=trailing,
                    rid=f"{env.package}:id/send", package=env.package, clickable=True, tap=tap_of(w, ctx),
                    children=[label_node(env, box, trailing, in_xml=False)])
    else:
        x1 = x2 - 120
        c.glyph(w.glyph or "send", x1 + 24, cy - 36, 72, env.accent)
        node = Node("android.widget.ImageButton", c.box(x1, cy - 60, x2, cy + 60),
                    desc=text_of(w.desc, ctx) or "Send",
                    rid=f"{env.package}:id/send", package=env.package, clickable=True, tap=tap_of(w, ctx))
    out.append(node)


KINDS.update({"input": _input, "search": _input})
