"""The element inspector's model: a uiautomator dump as a tree of nodes, with the selectors people copy.

Each node gets its properties, bounds, the deepest node under a point, and two selectors that find it and
only it: uiautomator2's ``d(resourceId=..., text=...)`` (with ``instance=`` when the attributes are shared)
and an XPath over class names (``//android.widget.TextView[@text="Notes"]``, wrapped as ``(...)[n]`` when
not unique). ``find`` runs either form back over the tree, so a copied selector can be checked; droidpilot's
own words (``click text (...)``) are grounded from the screenshot instead (``inspect_words``).
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

from droidpilot.pyliteral import plain_escapes
from droidpilot.studio.errors import StudioError

Box = tuple[int, int, int, int]
SHOWN = ("text", "resource-id", "class", "package", "content-desc", "checkable", "checked", "clickable",
         "enabled", "focusable", "focused", "scrollable", "long-clickable", "password", "selected", "index")
# uiautomator2 selector keywords -> (dump attribute, how it compares)
U2_KEYS: dict[str, tuple[str, str]] = {
    "text": ("text", "eq"), "textContains": ("text", "contains"), "textStartsWith": ("text", "startswith"),
    "className": ("class", "eq"), "resourceId": ("resource-id", "eq"), "description": ("content-desc", "eq"),
    "descriptionContains": ("content-desc", "contains"), "packageName": ("package", "eq"),
    "clickable": ("clickable", "bool"), "checked": ("checked", "bool"), "enabled": ("enabled", "bool"),
    "focused": ("focused", "bool"), "scrollable": ("scrollable", "bool"), "selected": ("selected", "bool"),
    "longClickable": ("long-clickable", "bool"), "checkable": ("checkable", "bool"),
    "index": ("index", "int"),
}
_TAG = re.compile(r"^[A-Za-z_][\w.]*$")
_BOUNDS = re.compile(r"^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$")
_WRAPPED = re.compile(r"^\((.+)\)\[(\d+)\]$", re.S)
MAX_SELECTOR = 2000


class InspectError(StudioError):
    """A UI dump or a selector the inspector cannot use; the message says where and how to write it."""


@dataclass
class UiNode:
    """One element of the dump: ``id`` is its place in document order (0 = the first node)."""

    id: int
    parent: int | None
    depth: int
    attrs: dict[str, str]
    bounds: Box | None
    children: list[int] = field(default_factory=list)

    @property
    def tag(self) -> str:
        cls = self.attrs.get("class", "")
        return cls if _TAG.match(cls) else "node"

    def contains(self, x: int, y: int) -> bool:
        b = self.bounds
        return b is not None and b[0] <= x < b[2] and b[1] <= y < b[3]

    @property
    def area(self) -> int:
        b = self.bounds
        return 0 if b is None else max(0, b[2] - b[0]) * max(0, b[3] - b[1])


def _bounds(text: str) -> Box | None:
    m = _BOUNDS.match(text.strip())
    return None if m is None else (int(m[1]), int(m[2]), int(m[3]), int(m[4]))


def _quote_xpath(value: str) -> str | None:
    """An XPath 1.0 string literal for ``value`` (None when it holds both quote kinds)."""
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return None


def _quote_py(value: str) -> str:
    """A double-quoted Python string literal (what uiautomator2 code is written in)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class UiTree:
    """The nodes of one uiautomator dump, with selectors and search."""

    def __init__(self, nodes: list[UiNode]) -> None:
        self.nodes = nodes
        self._etree: ET.Element | None = None
        self._indexes: dict[tuple[str, ...], dict[tuple[str, ...], list[int]]] = {}  # who shares what

    @classmethod
    def parse(cls, xml: str, where: str = "the UI dump") -> UiTree:
        """Read a uiautomator dump (InspectError naming ``where``, the line and column when it is not one)."""
        try:
            root = ET.fromstring(xml)
        except ET.ParseError as exc:
            line, col = exc.position
            raise InspectError(f"{where}: not a readable UI dump (XML error at line {line}, column {col})"
                               ) from None
        nodes: list[UiNode] = []

        def walk(elem: ET.Element, parent: int | None, depth: int) -> None:
            for child in elem:
                if child.tag != "node":
                    continue
                node = UiNode(len(nodes), parent, depth, {k: child.get(k, "") for k in SHOWN},
                              _bounds(child.get("bounds", "")))
                nodes.append(node)
                if parent is not None:
                    nodes[parent].children.append(node.id)
                walk(child, node.id, depth + 1)

        walk(root, None, 0)
        return cls(nodes)

    # -- pointing -----------------------------------------------------------------------------------
    def deepest_at(self, x: int, y: int) -> int | None:
        """The deepest node holding (x, y) (the smallest when siblings overlap); None outside all."""
        under = [n for n in self.nodes if n.contains(x, y)]
        if not under:
            return None
        return min(under, key=lambda n: (-n.depth, n.area, -n.id)).id

    # -- selectors ----------------------------------------------------------------------------------
    def u2_selector(self, nid: int) -> str:
        """``d(resourceId=..., text=...)`` finding node ``nid`` (``instance=`` added when shared)."""
        a = self.nodes[nid].attrs
        keys = [k for k in ("resourceId", "text", "description") if a[U2_KEYS[k][0]]]
        if not keys:
            keys = ["className"]
        parts = {k: a[U2_KEYS[k][0]] for k in keys}
        fields = tuple(U2_KEYS[k][0] for k in keys)
        same = self._index(fields)[tuple(parts.values())]
        args = ", ".join(f"{k}={_quote_py(v)}" for k, v in parts.items())
        if len(same) > 1:
            args += f", instance={same.index(nid)}"
        return f"d({args})"

    def xpath(self, nid: int) -> str:
        """An XPath over class names finding node ``nid`` only (an absolute path when no attribute helps)."""
        node = self.nodes[nid]
        for attr in ("resource-id", "text", "content-desc"):
            value = node.attrs[attr]
            literal = _quote_xpath(value) if value else None
            if literal is None:
                continue
            expr = f"//{node.tag}[@{attr}={literal}]"
            found = self._index((":tag", attr))[(node.tag, value)]
            if found == [nid]:
                return expr
            if nid in found:
                return f"({expr})[{found.index(nid) + 1}]"
        return self._absolute(nid)

    def _index(self, fields: tuple[str, ...]) -> dict[tuple[str, ...], list[int]]:
        """Node ids grouped by their values of ``fields`` (attribute names; ``:tag`` is the XPath element
        name), in document order: what ``find`` returns for the same selector. Built in one pass per set
        of fields, so the selectors of a whole tree take linear time."""
        if fields not in self._indexes:
            index: dict[tuple[str, ...], list[int]] = {}
            for n in self.nodes:
                index.setdefault(tuple(n.tag if f == ":tag" else n.attrs[f] for f in fields), []).append(n.id)
            self._indexes[fields] = index
        return self._indexes[fields]

    def _absolute(self, nid: int) -> str:
        steps = []
        node: UiNode | None = self.nodes[nid]
        while node is not None:
            siblings = (self.nodes[node.parent].children if node.parent is not None
                        else [n.id for n in self.nodes if n.parent is None])
            same = [s for s in siblings if self.nodes[s].tag == node.tag]
            steps.append(f"{node.tag}[{same.index(node.id) + 1}]")
            node = self.nodes[node.parent] if node.parent is not None else None
        return "/hierarchy/" + "/".join(reversed(steps))

    def selectors(self, nid: int) -> dict[str, str]:
        return {"u2": self.u2_selector(nid), "xpath": self.xpath(nid)}

    # -- search -------------------------------------------------------------------------------------
    def find(self, selector: str) -> list[int]:
        """Node ids a uiautomator2 selector (``d(...)``) or an XPath finds, in document order."""
        text = selector.strip()
        if not text:
            raise InspectError("the selector is empty; write d(text=\"...\") or an XPath such as "
                               "//*[@text=\"...\"]")
        if len(text) > MAX_SELECTOR:
            raise InspectError(f"the selector is {len(text):,} characters long; at most {MAX_SELECTOR:,}")
        if text.startswith("d(") or text.startswith("d ("):
            return self.find_u2(text)
        if text.startswith("/") or text.startswith("("):
            return self.find_xpath(text)
        raise InspectError(f"cannot read the selector {text[:80]!r}: write uiautomator2's d(text=\"...\"), "
                           "an XPath starting with / or (, or droidpilot's click text (...)")

    def find_u2(self, text: str) -> list[int]:
        parts = _parse_u2(text)
        instance = parts.pop("instance", None)
        found = self._u2_matches(parts)
        if instance is None:
            return found
        return found[instance:instance + 1] if isinstance(instance, int) else []

    def _u2_matches(self, parts: dict[str, Any]) -> list[int]:
        def ok(node: UiNode) -> bool:
            for key, want in parts.items():
                attr, how = U2_KEYS[key]
                have = node.attrs.get(attr, "")
                if how == "eq" and have != want:
                    return False
                if how == "contains" and str(want) not in have:
                    return False
                if how == "startswith" and not have.startswith(str(want)):
                    return False
                if how == "bool" and (have == "true") != bool(want):
                    return False
                if how == "int" and have != str(want):
                    return False
            return True

        return [n.id for n in self.nodes if ok(n)]

    def find_xpath(self, expr: str) -> list[int]:
        """Run an XPath (what ElementTree reads: //Class, [@attr="v"], [@attr], [n]; and ``(...)[n]``)."""
        wrapped = _WRAPPED.match(expr.strip())
        inner, nth = (wrapped[1], int(wrapped[2])) if wrapped else (expr.strip(), None)
        path = "." + inner if inner.startswith("/") else inner
        if path.startswith("./hierarchy/"):
            path = "./" + path[len("./hierarchy/"):]
        try:
            found = [int(e.get("_id", "-1")) for e in self._et().findall(path)]
        except (SyntaxError, KeyError, TypeError) as exc:
            raise InspectError(f"cannot run the XPath {expr[:80]!r} ({exc or 'unsupported'}); the inspector "
                               "reads //Class, //*, [@attr=\"value\"], [@attr], [n] and (...)[n]") from None
        found = [f for f in found if f >= 0]
        if nth is not None:
            return found[nth - 1:nth] if nth >= 1 else []
        return found

    def _et(self) -> ET.Element:
        if self._etree is None:
            root = ET.Element("hierarchy")
            elems: dict[int, ET.Element] = {}
            for node in self.nodes:
                parent = root if node.parent is None else elems[node.parent]
                attrs = {k: v for k, v in node.attrs.items()}
                attrs["_id"] = str(node.id)
                elems[node.id] = ET.SubElement(parent, node.tag, attrs)
            self._etree = root
        return self._etree

    # -- for the page -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Every node with its properties, bounds, children and selectors (what the page draws)."""
        return {"nodes": [{"id": n.id, "parent": n.parent, "depth": n.depth, "attrs": n.attrs,
                           "bounds": list(n.bounds) if n.bounds else None, "children": n.children,
                           "selectors": self.selectors(n.id)} for n in self.nodes]}


def _parse_u2(text: str) -> dict[str, Any]:
    """The keywords of ``d(key=value, ...)`` (InspectError naming what is wrong)."""
    try:
        tree = ast.parse(plain_escapes(text.strip()), mode="eval")
    except SyntaxError as exc:
        raise InspectError(f"cannot read the uiautomator2 selector {text[:80]!r}: {exc.msg} at column "
                           f"{exc.offset}") from None
    call = tree.body
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "d"
            and not call.args):
        raise InspectError(f"a uiautomator2 selector is d(key=value, ...) with keywords only, got "
                           f"{text[:80]!r}")
    parts: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None or (kw.arg not in U2_KEYS and kw.arg != "instance"):
            known = ", ".join([*U2_KEYS, "instance"])
            raise InspectError(f"uiautomator2 selector: unknown keyword {kw.arg!r}; the inspector reads "
                               f"{known}")
        if not isinstance(kw.value, ast.Constant) or not isinstance(kw.value.value, (str, int, bool)):
            raise InspectError(f"uiautomator2 selector: {kw.arg}= must be a plain string, number or "
                               "True/False")
        parts[kw.arg] = kw.value.value
    if not parts:
        raise InspectError("d() selects nothing in particular; give at least one keyword, e.g. "
                           "d(text=\"OK\")")
    return parts
