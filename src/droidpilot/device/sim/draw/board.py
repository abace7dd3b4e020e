"""The ``board`` widget kind (a maze, a board game): a square grid of ``size`` cells a side, numbered
row by row from 0 at the top left. The piece (``text``, default X) stands on the cell bound by ``bind``;
the cells listed at the path ``value`` are walls (filled dark); the bottom-right cell is the goal. Each cell
is a node saying where it is and what is on it, so a screen reader (and the UI dump) can play too."""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.appmodel.expr import lookup
from droidpilot.device.sim.appmodel.model import Widget
from droidpilot.device.sim.draw.canvas import Node
from droidpilot.device.sim.draw.widgets import KINDS, MARGIN, Env, rid

CELL_ID = "board_cell"
WALL = "#424242"
GOAL = "#C8E6C9"


def cell_of(raw: Any) -> int | None:
    """A bound cell index as an int (a number or digits), else None (nothing drawn there)."""
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


def _board(w: Widget, ctx: dict[str, Any], x: float, y: float, width: float, env: Env):
    c, pal = env.canvas, env.pal
    n = max(2, w.size or 4)
    piece = w.text or "X"
    at = cell_of(lookup(ctx, w.bind))
    walls = {cell_of(v) for v in (lookup(ctx, w.value) or []) if cell_of(v) is not None} if w.value else set()
    side = min(width - 2 * MARGIN, 900)
    left, top = x + (width - side) / 2, y + 20
    step = side / n
    kids: list[Node] = []
    for i in range(n * n):
        r, col = divmod(i, n)
        x1, y1 = left + col * step, top + r * step
        goal = i == n * n - 1
        fill = WALL if i in walls else GOAL if goal else "#FFFFFF"
        c.rect(x1, y1, x1 + step, y1 + step, fill, outline="#9E9E9E", width=2)
        what = piece if i == at else "wall" if i in walls else "goal" if goal else "empty"
        if i == at:
            size = step * 0.5
            px = x1 + (step - c.measure(piece, size, True)) / 2
            c.text(px, y1 + step / 2, piece, size, pal.on_surface, True)
        elif goal:
            c.text(x1 + (step - c.measure("Goal", 30)) / 2, y1 + step / 2, "Goal", 30, pal.on_surface_dim)
        kids.append(Node("android.view.View", c.box(x1, y1, x1 + step, y1 + step),
                         text=piece if i == at else "", desc=f"Row {r + 1}, column {col + 1}: {what}",
                         rid=f"{env.package}:id/{CELL_ID}", package=env.package))
    node = Node("android.widget.GridView", c.box(left, top, left + side, top + side), desc=w.desc,
                rid=rid(env, w, ctx), package=env.package, children=kids)
    return side + 40, [node]


KINDS["board"] = _board
