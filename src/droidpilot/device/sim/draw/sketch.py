"""The ``sketch`` widget kind (a drawing canvas): a white pad showing the strokes of the state list it binds.
A drag that starts on the pad leaves a stroke there (``stroke_target``, which the phone's swipe asks); a tap
leaves nothing, as a finger that does not move draws no line. Strokes are stored as
``[[x1, y1], [x2, y2]]`` in thousandths of the pad, so they do not depend on the screen's size. A pad with
a ``color`` (a template, e.g. the pen a palette sets) stores it as a third element and draws the stroke in
it; its ``on_stroke`` actions run after each stroke (e.g. to note which colours a drawing uses)."""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.appmodel.expr import lookup
from droidpilot.device.sim.appmodel.model import Action, Widget
from droidpilot.device.sim.draw.canvas import Node, Tap
from droidpilot.device.sim.draw.widgets import KINDS, MARGIN, Env, rid, text_of

PAD_ID = "sketch_pad"
MIN_STROKE_PX = 20  # a drag shorter than this is a tap, not a line
INK = "#212121"
# the named inks a palette may offer; any other ``#RRGGBB`` is used as it is
INKS = {"black": INK, "red": "#E53935", "green": "#43A047", "blue": "#1E88E5", "yellow": "#FDD835",
        "purple": "#8E24AA", "orange": "#FB8C00", "pink": "#EC407A", "brown": "#6D4C41"}


def strokes_of(raw: Any) -> list[list[Any]]:
    """The bound strokes that are well formed (two points of two numbers each, then optionally the ink's
    name); anything else is skipped."""
    def point(p: Any) -> bool:
        return isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) for v in p)

    def ink(s: list[Any]) -> bool:
        return len(s) == 2 or (len(s) == 3 and isinstance(s[2], str))

    return [s for s in (raw if isinstance(raw, list) else [])
            if isinstance(s, list) and len(s) in (2, 3) and ink(s) and all(point(p) for p in s[:2])]


def ink_of(name: str) -> str:
    """The colour a stroke is drawn in: a named ink, a ``#RRGGBB`` colour, else the default ink."""
    if name.startswith("#") and len(name) == 7:
        return name
    return INKS.get(name.strip().lower(), INK)


def _sketch(w: Widget, ctx: dict[str, Any], x: float, y: float, width: float, env: Env):
    c = env.canvas
    height = w.height or 1000
    x1, y1, x2, y2 = x + MARGIN, y + 16, x + width - MARGIN, y + height - 16
    c.rect(x1, y1, x2, y2, "#FFFFFF", radius=12, outline="#BDBDBD", width=3)
    for stroke in strokes_of(lookup(ctx, w.bind)):
        (ax, ay), (bx, by) = stroke[0], stroke[1]
        ink = ink_of(stroke[2]) if len(stroke) == 3 else INK
        c.line(x1 + (x2 - x1) * ax / 1000, y1 + (y2 - y1) * ay / 1000,
               x1 + (x2 - x1) * bx / 1000, y1 + (y2 - y1) * by / 1000, ink, 10)
    node = Node("android.view.View", c.box(x1, y1, x2, y2), desc=text_of(w.desc, ctx) or "Drawing canvas",
                rid=rid(env, w, ctx) or f"{env.package}:id/{PAD_ID}", package=env.package,
                tap=Tap("sketch", list(w.on_stroke), ctx, arg=w.bind or "", ink=w.color))
    return height, [node]


def stroke_target(targets: list[Node], x1: int, y1: int, x2: int, y2: int) -> Tap | None:
    """What a drag from (x1, y1) to (x2, y2) does on a sketch pad it starts on: the actions that append the
    stroke (clipped to the pad) to the pad's bound list; None when it starts on no pad or barely moves."""
    pads = (n for n in targets if n.tap is not None and n.tap.kind == "sketch")
    pad = next((n for n in pads if n.contains(x1, y1)), None)
    if pad is None or (abs(x2 - x1) + abs(y2 - y1)) < MIN_STROKE_PX:
        return None
    left, top, right, bottom = pad.bounds

    def rel(v: int, lo: int, hi: int) -> int:
        return max(0, min(1000, round(1000 * (v - lo) / max(1, hi - lo))))

    start, end = [rel(x1, left, right), rel(y1, top, bottom)], [rel(x2, left, right), rel(y2, top, bottom)]
    stroke: list[Any] = [start, end]
    if pad.tap.ink:
        stroke.append(pad.tap.ink)  # filled when the stroke is appended: the pen at that moment
    act = Action.model_validate({"append": {"to": pad.tap.arg, "value": stroke}})
    return Tap("actions", [act, *pad.tap.actions], pad.tap.ctx)


KINDS["sketch"] = _sketch
