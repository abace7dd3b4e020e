"""uiautomator dump text from the node tree: the same bounds the renderer drew, so XML never lies."""

from __future__ import annotations

import re
from xml.sax.saxutils import quoteattr as _quoteattr

from droidpilot.device.sim.draw.canvas import Node

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def quoteattr(value: str) -> str:
    """An XML attribute value; characters XML 1.0 cannot carry (typed control codes) are dropped."""
    return _quoteattr(_NOT_XML.sub("", value))


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _emit(node: Node, index: int, out: list[str]) -> None:
    x1, y1, x2, y2 = node.bounds
    long_clickable = node.tap is not None and node.tap.long_clickable
    attrs = (
        f'index="{index}" text={quoteattr(node.text)} resource-id={quoteattr(node.rid)} '
        f'class={quoteattr(node.cls)} package={quoteattr(node.package)} content-desc={quoteattr(node.desc)} '
        f'checkable="{_flag(node.checkable)}" checked="{_flag(node.checked)}" '
        f'clickable="{_flag(node.clickable)}" enabled="{_flag(node.enabled)}" '
        f'focusable="{_flag(node.focusable or node.clickable)}" focused="{_flag(node.focused)}" '
        f'scrollable="{_flag(node.scrollable)}" long-clickable="{_flag(long_clickable)}" password="false" '
        f'selected="{_flag(node.selected)}" bounds="[{x1},{y1}][{x2},{y2}]"'
    )
    kids = [k for k in node.children if k.in_xml]
    if not kids:
        out.append(f"<node {attrs} />")
        return
    out.append(f"<node {attrs}>")
    for i, kid in enumerate(kids):
        _emit(kid, i, out)
    out.append("</node>")


def dump(windows: list[Node], rotation: int = 0) -> str:
    """The XML ``uiautomator dump`` would write for these windows (bottom-most first)."""
    out = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>", f'<hierarchy rotation="{rotation}">']
    for i, window in enumerate(w for w in windows if w.in_xml):
        _emit(window, i, out)
    out.append("</hierarchy>")
    return "".join(out)
