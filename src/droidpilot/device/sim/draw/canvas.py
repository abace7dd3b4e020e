"""What a layout produces: draw operations (device pixels) and the node tree uiautomator would dump.

Layout code works in base units (a 1080-wide phone); ``Canvas`` scales to the device once, so draw
ops, node bounds and hit-testing share one coordinate space: device pixels.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from droidpilot.device.sim.draw.fonts import lines_of, one_line, text_width

BASE_WIDTH = 1080
Box = tuple[int, int, int, int]


@dataclass
class Tap:
    """What touching a node does: run app actions, focus a field, toggle a setting, or a system verb.

    ``hold`` is what a long press does: False nothing (Android's default), True the same as a tap, or a
    list of app actions of its own. A long press on a text field always focuses it.
    """

    kind: str  # "actions" | "focus" | "toggle" | "system"
    actions: list[Any] = field(default_factory=list)
    ctx: dict[str, Any] | None = None
    arg: str = ""
    multiline: bool = False
    hold: bool | list[Any] = False
    ink: str = ""  # a sketch pad's pen colour template, filled into each stroke it receives

    @property
    def long_clickable(self) -> bool:
        """Whether a long press does something here (uiautomator's ``long-clickable``)."""
        return self.kind == "focus" or bool(self.hold)


@dataclass
class Node:
    """One view: uiautomator attributes, device-pixel bounds, children, and its tap behaviour."""

    cls: str
    bounds: Box
    text: str = ""
    desc: str = ""
    rid: str = ""
    clickable: bool = False
    checkable: bool = False
    checked: bool = False
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    enabled: bool = True
    package: str = ""
    label: bool = False
    children: list[Node] = field(default_factory=list)
    tap: Tap | None = None
    in_xml: bool = True
    drawn: str = ""

    def contains(self, x: int, y: int) -> bool:
        """Whether the device-pixel point (x, y) lies in the node's bounds."""
        x1, y1, x2, y2 = self.bounds
        return x1 <= x < x2 and y1 <= y < y2

    def walk(self) -> list[Node]:
        """This node and all its descendants, in drawing order."""
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out


class Canvas:
    """Collects draw ops in device pixels from base-unit calls; ``s`` is device px per base unit."""

    def __init__(self, scale: float, icon_style: str = "filled") -> None:
        self.s = scale
        self.ops: list[tuple[Any, ...]] = []
        self.icon_style = icon_style  # how glyphs are drawn (draw/icon_styles.py): the app's own style

    @contextlib.contextmanager
    def icon_style_as(self, style: str) -> Iterator[None]:
        """Glyphs drawn inside the block use ``style`` (the system's own icons inside an app's frame)."""
        before, self.icon_style = self.icon_style, style
        try:
            yield
        finally:
            self.icon_style = before

    def px(self, v: float) -> int:
        """Base units to device pixels."""
        return round(v * self.s)

    def box(self, x1: float, y1: float, x2: float, y2: float) -> Box:
        """A base-unit box in device pixels (``px`` of each corner, written out: layouts call this
        thousands of times per frame)."""
        s = self.s
        return (round(x1 * s), round(y1 * s), round(x2 * s), round(y2 * s))

    def rect(self, x1: float, y1: float, x2: float, y2: float, fill: str | None, radius: float = 0,
             outline: str | None = None, width: float = 0) -> None:
        """A (rounded) rectangle, filled and/or outlined."""
        self.ops.append(("rect", self.box(x1, y1, x2, y2), fill, self.px(radius), outline,
                         max(self.px(width), 1) if outline else 0))

    def ellipse(self, x1: float, y1: float, x2: float, y2: float, fill: str | None,
                outline: str | None = None, width: float = 0) -> None:
        """An ellipse in the box."""
        self.ops.append(("ellipse", self.box(x1, y1, x2, y2), fill, outline,
                         max(self.px(width), 1) if outline else 0))

    def line(self, x1: float, y1: float, x2: float, y2: float, color: str, width: float = 2) -> None:
        """A straight line."""
        self.ops.append(("line", self.box(x1, y1, x2, y2), color, max(self.px(width), 1)))

    def glyph(self, name: str, x1: float, y1: float, size: float, color: str) -> None:
        """Icon glyph ``name`` in a ``size`` square at (x1, y1), in the canvas's icon style."""
        self.ops.append(("glyph", name, (self.px(x1), self.px(y1)), self.px(size), color, self.icon_style))

    def avatar(self, seed_text: str, x1: float, y1: float, size: float) -> None:
        """A procedural round avatar (see ``avatar``) for ``seed_text`` in a ``size`` square at (x1, y1)."""
        self.ops.append(("avatar", seed_text, (self.px(x1), self.px(y1)), self.px(size)))

    def wallpaper(self, top: str, bottom: str) -> None:
        """The launcher wallpaper: a vertical gradient over the whole screen."""
        self.ops.append(("wallpaper", top, bottom))

    def measure(self, text: str, size: float, bold: bool = False) -> float:
        """Width of ``text`` in base units."""
        return text_width(text, self.px(size), bold) / self.s

    def text(self, x: float, cy: float, text: str, size: float, color: str, bold: bool = False,
             max_width: float | None = None) -> tuple[Box, str]:
        """Draw one line left-aligned at ``x``, vertically centred on ``cy``; ellipsize past ``max_width``.

        A line break in ``text`` shows as a space (as in a single-line TextView). Returns the device-pixel
        box of the line and the text actually drawn.
        """
        shown = one_line(text)
        if max_width is not None and self.measure(shown, size, bold) > max_width:
            while shown and self.measure(shown + "…", size, bold) > max_width:
                shown = shown[:-1]
            shown = shown.rstrip() + "…"
        width = self.measure(shown, size, bold)
        self.ops.append(("text", (self.px(x), self.px(cy)), shown, self.px(size), color, bold))
        return self.box(x, cy - size * 0.72, x + width, cy + size * 0.72), shown

    def wrap(self, text: str, size: float, width: float, bold: bool = False) -> list[str]:
        """Break ``text`` into lines that fit ``width``: at its line breaks, then between words (CJK
        between characters; a word wider than ``width`` between characters too)."""
        lines: list[str] = []
        for para in lines_of(text):
            cur = ""
            for tok in self._fitting(_tokens(para), size, width, bold):
                trial = cur + tok
                if cur and self.measure(trial.rstrip(), size, bold) > width:
                    lines.append(cur.rstrip())
                    cur = tok.lstrip()
                else:
                    cur = trial
            lines.append(cur.rstrip())
        return lines

    def _fitting(self, tokens: list[str], size: float, width: float, bold: bool) -> list[str]:
        """``tokens`` with each one wider than ``width`` cut into pieces that fit."""
        out: list[str] = []
        for tok in tokens:
            while len(tok) > 1 and self.measure(tok.rstrip(), size, bold) > width:
                cut = 1
                while cut < len(tok) and self.measure(tok[:cut + 1], size, bold) <= width:
                    cut += 1
                out.append(tok[:cut])
                tok = tok[cut:]
            out.append(tok)
        return out


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    cur = ""
    for ch in text:
        if ord(ch) >= 0x2E80:
            if cur:
                out.append(cur)
                cur = ""
            out.append(ch)
        elif ch == " ":
            out.append(cur + " ")
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def shift_ops(ops: list[tuple[Any, ...]], dx: int, dy: int) -> list[tuple[Any, ...]]:
    """``ops`` moved by (dx, dy) device pixels (to draw a screen as a thumbnail somewhere else)."""
    out: list[tuple[Any, ...]] = []
    for op in ops:
        kind = op[0]
        if kind in ("rect", "ellipse", "line"):
            x1, y1, x2, y2 = op[1]
            out.append((kind, (x1 + dx, y1 + dy, x2 + dx, y2 + dy), *op[2:]))
        elif kind in ("glyph", "avatar"):
            out.append((kind, op[1], (op[2][0] + dx, op[2][1] + dy), *op[3:]))
        elif kind == "text":
            out.append((kind, (op[1][0] + dx, op[1][1] + dy), *op[2:]))
    return out


def union(boxes: list[Box]) -> Box:
    """The smallest box holding all ``boxes``."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def clip(box: Box, area: Box) -> Box | None:
    """``box`` cut to ``area``; None when nothing is left."""
    x1, y1 = max(box[0], area[0]), max(box[1], area[1])
    x2, y2 = min(box[2], area[2]), min(box[3], area[3])
    if x2 - x1 < 1 or y2 - y1 < 1:
        return None
    return (x1, y1, x2, y2)


CONTENT_ID = "android:id/content"


def decor(box: Box, package: str, children: list[Node]) -> Node:
    """An app window as Android builds it: the decor FrameLayout holding the ``android:id/content``
    FrameLayout that holds the app's own views (what ``d.xpath('@android:id/content')`` finds)."""
    content = Node("android.widget.FrameLayout", box, package=package, rid=CONTENT_ID, children=children)
    return Node("android.widget.FrameLayout", box, package=package, children=[content])

