"""UiSelector matching: the selector objects the client sends (``{"mask": ..., "text": ..., ...}``) over the
dump's nodes, with UiAutomator's meaning for each field, ``instance``, and child/sibling chains."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from droidpilot.device.u2.tree import UiNode
from droidpilot.regexguard import PatternTimeout, guarded

_META = ("mask", "childOrSibling", "childOrSiblingSelector")
_TEXT_ATTR = {"text": "text", "description": "content-desc", "className": "class", "packageName": "package",
              "resourceId": "resource-id"}
_FLAGS = {"checkable": "checkable", "checked": "checked", "clickable": "clickable",
          "longClickable": "long-clickable", "scrollable": "scrollable", "enabled": "enabled",
          "focusable": "focusable", "focused": "focused", "selected": "selected"}


class SelectorError(Exception):
    """The selector has a field UiSelector does not know, or a value of the wrong kind."""


def _regex(pattern: object, field: str) -> Callable[[str], bool]:
    """Whether a node's attribute matches ``pattern`` whole; a pattern that backtracks without end is a
    SelectorError (the client's IllegalArgumentException) once its deadline passes, not a hung server."""
    if not isinstance(pattern, str):
        raise SelectorError(f"{field} needs a string pattern, got {pattern!r}")
    try:
        rx = guarded(pattern, re.DOTALL)
    except re.error as exc:
        raise SelectorError(f"java.util.regex.PatternSyntaxException: {exc} near index {exc.pos} "
                            f"in {field}={pattern!r}") from None

    def test(value: str) -> bool:
        try:
            return rx.fullmatch(value) is not None
        except PatternTimeout as exc:
            raise SelectorError(f"{field}: {exc}") from None

    return test


def _test(key: str, value: Any) -> Callable[[UiNode], bool]:
    """A predicate for one selector field."""
    for base, attr in _TEXT_ATTR.items():
        if key == base:
            return lambda n, a=attr, v=str(value): n.get(a) == v
        if key == base + "Matches":
            rx = _regex(value, key)
            return lambda n, a=attr, r=rx: r(n.get(a))
    kinds = {"textContains": ("text", str.__contains__), "textStartsWith": ("text", str.startswith),
             "descriptionContains": ("content-desc", str.__contains__),
             "descriptionStartsWith": ("content-desc", str.startswith)}
    if key in kinds:
        attr, op = kinds[key]
        return lambda n, a=attr, o=op, v=str(value): o(n.get(a), v)
    if key in _FLAGS:
        return lambda n, a=_FLAGS[key], v=bool(value): n.flag(a) == v
    if key == "index":
        return lambda n, v=int(value): n.index == v
    raise SelectorError(f"unknown UiSelector field '{key}'")


def _matches_one(sel: Mapping[str, Any], nodes: list[UiNode]) -> list[UiNode]:
    """Nodes matching one selector level (without its child/sibling chain), ``instance`` applied."""
    if not isinstance(sel, Mapping):
        raise SelectorError(f"a selector must be an object, got {type(sel).__name__}")
    tests = [_test(k, v) for k, v in sel.items() if k not in _META and k != "instance"]
    found = [n for n in nodes if all(t(n) for t in tests)]
    if "instance" in sel:
        i = int(sel["instance"])
        return found[i:i + 1] if 0 <= i < len(found) else []
    return found


def select(sel: Mapping[str, Any], nodes: list[UiNode]) -> list[UiNode]:
    """Every node ``sel`` matches, in document order (one node when it names an ``instance``)."""
    found = _matches_one(sel, nodes)
    kinds = sel.get("childOrSibling") or []
    subs = sel.get("childOrSiblingSelector") or []
    if len(kinds) != len(subs):
        raise SelectorError("childOrSibling and childOrSiblingSelector differ in length")
    for kind, sub in zip(kinds, subs, strict=True):
        pool: dict[int, UiNode] = {}
        for node in found:
            if kind == "child":
                near = node.descendants()
            elif kind == "sibling":
                near = [s for s in (node.parent.children if node.parent else []) if s is not node]
            else:
                raise SelectorError(f"unknown selector relation '{kind}' (child or sibling)")
            for n in near:
                pool.setdefault(n.order, n)
        found = select(sub, [pool[k] for k in sorted(pool)])
    return found


def describe(sel: Mapping[str, Any]) -> str:
    """The selector as UiSelector's toString writes it: ``UiSelector[TEXT=Settings, INSTANCE=1]``."""
    if not isinstance(sel, Mapping):
        return f"UiSelector[{sel!r}]"
    parts = []
    for k, v in sel.items():
        if k in _META:
            continue
        name = re.sub(r"(?<!^)([A-Z])", r"_\1", k).upper()
        parts.append(f"{name}={'true' if v is True else 'false' if v is False else v}")
    for kind, sub in zip(sel.get("childOrSibling") or [], sel.get("childOrSiblingSelector") or [],
                         strict=False):
        parts.append(f"{'CHILD' if kind == 'child' else 'PARENT'}={describe(sub)}")
    return "UiSelector[" + ", ".join(parts) + "]"
