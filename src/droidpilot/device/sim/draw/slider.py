"""The ``slider`` widget kind (a SeekBar: brightness, volume): a track with a thumb at the value of the
state path it binds, 0-100 in stops of 10, "Min" and "Max" at its ends. A tap on the track or an end label
moves the thumb there; a sideways drag that starts on the track moves it to where the drag ends
(``drag_target``, which the phone's swipe asks)."""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.appmodel.expr import lookup
from droidpilot.device.sim.appmodel.model import Action, Widget
from droidpilot.device.sim.draw.canvas import Node, Tap
from droidpilot.device.sim.draw.theme import mix
from droidpilot.device.sim.draw.widgets import KINDS, MARGIN, Env, label_node, rid, text_of

STOPS = tuple(range(0, 101, 10))
STOP_ID = "slider_stop"


def slider_value(raw: Any) -> int:
    """The bound value as a whole percent 0-100 (anything unreadable is 0)."""
    try:
        return max(0, min(100, round(float(raw))))
    except (TypeError, ValueError):
        return 0


def _slider(w: Widget, ctx: dict[str, Any], x: float, y: float, width: float, env: Env):
    c, pal = env.canvas, env.pal
    value = slider_value(lookup(ctx, w.bind))
    title = text_of(w.text, ctx)
    shown = f"{value}%"
    kids: list[Node] = []
    if title:
        box, _ = c.text(x + MARGIN, y + 50, title, 42, pal.on_surface)
        kids.append(label_node(env, box, title))
    vbox, _ = c.text(x + width - MARGIN - c.measure(shown, 38, True), y + 50, shown, 38, env.accent, True)
    kids.append(label_node(env, vbox, shown, rid=f"{env.package}:id/slider_value"))
    left, right, cy = x + MARGIN + 24, x + width - MARGIN - 24, y + 140
    span = right - left
    c.rect(left, cy - 8, right, cy + 8, mix(env.accent, pal.background, 0.7), radius=8)
    c.rect(left, cy - 8, left + span * value / 100, cy + 8, env.accent, radius=8)
    tx = left + span * value / 100
    c.ellipse(tx - 30, cy - 30, tx + 30, cy + 30, env.accent)
    half = span / (len(STOPS) - 1) / 2
    for stop in STOPS:
        sx = left + span * stop / 100
        act = Action.model_validate({"set": {w.bind: stop}})
        kids.append(Node("android.view.View", c.box(sx - half, cy - 48, sx + half, cy + 48), desc=f"{stop}%",
                         rid=f"{env.package}:id/{STOP_ID}", package=env.package, clickable=True,
                         tap=Tap("actions", [act], ctx), in_xml=False))
    for end, stop, ex in (("Min", 0, left - 24), ("Max", 100, right + 24 - c.measure("Max", 32))):
        box, _ = c.text(ex, cy + 84, end, 32, pal.on_surface_dim)
        act = Action.model_validate({"set": {w.bind: stop}})
        kids.append(label_node(env, box, end, clickable=True, tap=Tap("actions", [act], ctx)))
    node = Node("android.widget.SeekBar", c.box(x + MARGIN, y, x + width - MARGIN, cy + 120), text=shown,
                desc=title, rid=rid(env, w, ctx), package=env.package, focusable=True, children=kids)
    return 270, [node]


def drag_target(targets: list[Node], x1: int, y1: int, x2: int) -> Tap | None:
    """What a sideways drag from (x1, y1) to x2 does: on a slider's track, the tap of the stop nearest
    x2 on that track (past an end: the end), else None (the drag is no slider's)."""
    stops = [n for n in targets if n.tap is not None and n.rid.endswith(f":id/{STOP_ID}")]
    start = next((n for n in stops if n.contains(x1, y1)), None)
    if start is None:
        return None
    track = [n for n in stops if n.bounds[1] == start.bounds[1] and n.bounds[3] == start.bounds[3]]
    end = min(track, key=lambda n: abs((n.bounds[0] + n.bounds[2]) / 2 - x2))
    return end.tap


KINDS["slider"] = _slider
