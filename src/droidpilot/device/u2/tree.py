"""The UI tree the server works on: the nodes of the phone's `uiautomator dump`, with parents and order.

Parsing the dump (rather than reaching into the simulator) keeps one truth: what a selector matches is
exactly what the hierarchy dump shows, with the same bounds.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass(eq=False)
class UiNode:
    """One node of the dump: its attributes, bounds, place in the tree and document order."""

    attrs: dict[str, str]
    bounds: tuple[int, int, int, int]
    parent: UiNode | None
    order: int
    children: list[UiNode] = field(default_factory=list)

    def get(self, name: str) -> str:
        """An attribute's text ("" when absent)."""
        return self.attrs.get(name, "")

    def flag(self, name: str) -> bool:
        """A boolean attribute (``checked="true"``)."""
        return self.attrs.get(name) == "true"

    @property
    def index(self) -> int:
        """The node's index among its parent's children, as the dump writes it."""
        text = self.attrs.get("index", "0")
        return int(text) if text.lstrip("-").isdigit() else 0

    @property
    def center(self) -> tuple[int, int]:
        """The centre of the bounds."""
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    def descendants(self) -> list[UiNode]:
        """Every node below this one, in document order."""
        out: list[UiNode] = []
        stack = list(reversed(self.children))
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.children))
        return out


class DumpError(Exception):
    """The dump is not the XML `uiautomator dump` writes."""


def parse_dump(xml: str) -> list[UiNode]:
    """Every node of a uiautomator dump in document order (windows first, bottom-most window first)."""
    try:
        root = ET.fromstring(xml.encode("utf-8"))
    except ET.ParseError as exc:
        raise DumpError(f"the UI dump is not XML: {exc}") from None
    nodes: list[UiNode] = []

    def walk(el: ET.Element, parent: UiNode | None) -> None:
        for child in el:
            if child.tag != "node":
                continue
            m = _BOUNDS.fullmatch(child.get("bounds", ""))
            bounds = (int(m[1]), int(m[2]), int(m[3]), int(m[4])) if m else (0, 0, 0, 0)
            node = UiNode(dict(child.attrib), bounds, parent, len(nodes))
            nodes.append(node)
            if parent is not None:
                parent.children.append(node)
            walk(child, node)

    walk(root, None)
    return nodes


def rotation(xml: str) -> int:
    """The ``rotation`` attribute of the dump's root (0 when absent)."""
    m = re.search(r'<hierarchy[^>]*\brotation="(\d)"', xml)
    return int(m.group(1)) if m else 0
