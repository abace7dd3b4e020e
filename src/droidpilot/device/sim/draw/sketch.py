"""The ``sketch`` widget kind (a drawing canvas): a white pad showing the strokes of the state list it binds.
A drag that starts on the pad leaves a stroke there (``stroke_target``, which the phone's swipe asks); a tap
leaves nothing, as a finger that does not move draws no line. Strokes are stored as
``[[x1, y1], [x2, y2]]`` in thousandths of the pad, so they do not depend on the screen's size."""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.appmodel.expr import lookup
from droidpilot.device.sim.appmodel.model import Action, Widget
from droidpilot.device.sim.draw.canvas import Node, Tap
from droidpilot.device.sim.draw.widgets import KINDS, MARGIN, Env, rid, text_of

PAD_ID = "sketch_pad"
MIN_STROKE_PX = 20  # a drag shorter than this is a tap, not a line
INK = "#212121"


def strokes_of(raw: Any) -> list[list[list[int]]]:
    """The bound strokes that are well formed (two points of two numbers each); anything else is skipped."""
    def point(p: Any) -> bool:
        return isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) for v in p)

    return [s for s in (raw if isinstance(raw, list) else [])
            if isinstance(s, list) and len(s) == 2 and all(point(p) for p in s)]


def _sketch(w: Widget, ctx: dict[str, Any], x: float, y: float, width: float, env: Env):
    c = env.canvas
    height = w.height or 1000
    x1, y1, x2, y2 = x + MARGIN, y + 16, x + width - MARGIN, y + height - 16
    c.rect(x1, y1, x2, y2, "#FFFFFF", radius=12, outline="#BDBDBD", width=3)
    for (ax, ay), (bx, by) in strokes_of(lookup(ctx, w.bind)):
        c.line(x1 + (x2 - x1) * ax / 1000, y1 + (y2 - y1) * ay / 1000,
               x1 + (x2 - x1) * bx / 1000, y1 + (y2 - y1) * by / 1000, INK, 10)
    node = Node("android.view.View", c.box(x1, y1, x2, y2), desc=text_of(w.desc, ctx) or "Drawing canvas",
                rid=rid(env, w, ctx) or f"{env.package}:id/{PAD_ID}", package=env.package,
                tap=Tap("sketch", [], ctx, arg=w.bind or ""))
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

    stroke = [[rel(x1, left, right), rel(y1, top, bottom)], [rel(x2, left, right), rel(y2, top, bottom)]]
    act = Action.model_validate({"append": {"to": pad.tap.arg, "value": stroke}})
    return Tap("actions", [act], pad.tap.ctx)


KINDS["sketch"] = _sketch
