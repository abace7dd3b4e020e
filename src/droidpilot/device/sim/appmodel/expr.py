"""The small expression language of app data: ``{path}`` templates, conditions, and assignable paths.

A path is dotted (``state.notes``, ``item.title``, ``params.item.id``, ``state.notes.0``) and is looked up
in a context dict; ``|len``, ``|upper``, ``|lower``, ``|first``, ``|last``, ``|calc``, ``|time``,
``|total_length`` filters may follow (``calc`` works out an arithmetic expression, as a calculator's ``=``
key does; ``time`` reads a time of day, ``7:05`` -> ``07:05``, and gives "" for anything a time picker could
not produce, such as ``24:00``; ``total_length`` adds up the ``minutes`` and ``seconds`` of a list's
records, a playlist's length as ``M:SS``; the date filters are in ``dates.py``). Conditions combine
``a == b``, ``a != b``, ``a in b``, ``a not in b``, ``not a``, ``and``, ``or`` over paths and literals.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from typing import Any

from droidpilot.device.sim.appmodel.calc import calculate
from droidpilot.device.sim.appmodel.dates import DATE_FILTERS
from droidpilot.errors import InputError

_TEMPLATE = re.compile(r"\{([^{}]+)\}")
_NESTED = re.compile(r"\{[^{}]*\{")
_MISSING = object()
_TIME = re.compile(r"\s*(\d{1,2}):(\d{2})\s*")
_ORDER = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le}


def lookup(ctx: Mapping[str, Any], path: str) -> Any:
    """The value at dotted ``path`` in ``ctx``; None when any part is missing."""
    cur: Any = ctx
    for part in path.strip().split("."):
        if isinstance(cur, Mapping):
            cur = cur.get(part, _MISSING)
        elif isinstance(cur, list) and part.lstrip("-").isdigit():
            idx = int(part)
            cur = cur[idx] if -len(cur) <= idx < len(cur) else _MISSING
        else:
            cur = _MISSING
        if cur is _MISSING:
            return None
    return cur


def path_of(ctx: Mapping[str, Any], path: str) -> str:
    """``path`` with its ``{...}`` parts filled (``state.playlists.{params.i}.songs``), so an action or a
    list can address the record a screen was opened for by its position."""
    return str(render(path, ctx)) if "{" in path else path


def time_of_day(text: str) -> str:
    """``text`` as ``HH:MM`` when it is a time of day (00:00 to 23:59; a one-digit hour too), else ""."""
    match = _TIME.fullmatch(text)
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        return ""
    return f"{int(match.group(1)):02d}:{match.group(2)}"


def total_length(items: Any) -> str:
    """The summed ``minutes`` and ``seconds`` of a list's records as ``M:SS`` (``0:00`` for none); a record
    whose length is not whole numbers counts nothing."""
    total = 0
    for item in items if isinstance(items, list) else []:
        if isinstance(item, Mapping):
            minutes, seconds = str(item.get("minutes", "")).strip(), str(item.get("seconds", "")).strip()
            if minutes.isdigit() and seconds.isdigit():
                total += int(minutes) * 60 + int(seconds)
    return f"{total // 60}:{total % 60:02d}"


def _apply_filter(value: Any, name: str) -> Any:
    name = name.strip()
    if name == "len":
        return len(value) if isinstance(value, (list, dict, str)) else 0
    if name == "upper":
        return str(value or "").upper()
    if name == "lower":
        return str(value or "").lower()
    if name == "first":
        return value[0] if isinstance(value, list) and value else None
    if name == "last":
        return value[-1] if isinstance(value, list) and value else None
    if name == "calc":
        return calculate(str(value or ""))
    if name == "time":
        return time_of_day(str(value or ""))
    if name == "total_length":
        return total_length(value)
    if name in DATE_FILTERS:
        return DATE_FILTERS[name](str(value or ""))
    known = ", ".join(["len", "upper", "lower", "first", "last", "calc", "time", "total_length",
                       *DATE_FILTERS])
    raise InputError(f"unknown filter |{name} in an app template (known: {known})")


def evaluate(ctx: Mapping[str, Any], expr: str) -> Any:
    """Value of ``path|filter...`` or of a literal."""
    if "||" in expr:
        value = None
        for alt in expr.split("||"):
            value = evaluate(ctx, alt)
            if value not in (None, "", [], {}):
                return value
        return value
    head, *filters = expr.split("|")
    value = _operand(ctx, head)
    for name in filters:
        value = _apply_filter(value, name)
    return value


def to_text(value: Any) -> str:
    """How a value reads when put inside text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "On" if value else "Off"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def render(template: Any, ctx: Mapping[str, Any]) -> Any:
    """Fill ``{...}`` in ``template``; a string that is exactly one ``{expr}`` yields the raw value.

    Dicts and lists are filled recursively; other values are returned as they are.
    """
    if isinstance(template, dict):
        return {k: render(v, ctx) for k, v in template.items()}
    if isinstance(template, list):
        return [render(v, ctx) for v in template]
    if not isinstance(template, str) or "{" not in template:
        return template
    while _NESTED.search(template):
        template = _TEMPLATE.sub(lambda m: to_text(evaluate(ctx, m.group(1))), template)
    whole = _TEMPLATE.fullmatch(template)
    if whole:
        value = evaluate(ctx, whole.group(1))
        return "" if value is None else value
    return _TEMPLATE.sub(lambda m: to_text(evaluate(ctx, m.group(1))), template)


def _literal(token: str) -> Any:
    token = token.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return token[1:-1]
    low = token.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "none"):
        return None
    try:
        return int(token)
    except ValueError:
        pass
    try:
        return float(token)
    except ValueError:
        return _MISSING


def _operand(ctx: Mapping[str, Any], token: str) -> Any:
    lit = _literal(token)
    if lit is not _MISSING:
        return lit
    if "{" in token:
        return render(token.strip(), ctx)
    return lookup(ctx, token)


def _compare(ctx: Mapping[str, Any], clause: str) -> bool:
    clause = clause.strip()
    if clause.startswith("not "):
        return not _compare(ctx, clause[4:])
    for op in (" not in ", " in ", "==", "!=", ">=", "<=", ">", "<"):
        if op in clause:
            left_raw, right_raw = clause.split(op, 1)
            left, right = evaluate(ctx, left_raw), evaluate(ctx, right_raw)
            if op.strip() == "in":
                return _contains(right, left)
            if op.strip() == "not in":
                return not _contains(right, left)
            if op == "==":
                return left == right
            if op == "!=":
                return left != right
            try:
                return bool(_ORDER[op](left, right))
            except TypeError:
                return False
    return bool(evaluate(ctx, clause))


def _contains(container: Any, value: Any) -> bool:
    if isinstance(container, str):
        return str(value).lower() in container.lower()
    if isinstance(container, (list, tuple, set, dict)):
        return value in container
    return False


def condition(ctx: Mapping[str, Any], text: str | bool | None) -> bool:
    """Truth of a condition string (None -> True); ``or`` binds looser than ``and``."""
    if text is None:
        return True
    if isinstance(text, bool):
        return text
    return any(all(_compare(ctx, part) for part in alt.split(" and ")) for alt in str(text).split(" or "))


def assign(ctx: dict[str, Any], path: str, value: Any) -> None:
    """Set ``path`` in ``ctx`` (creating dicts on the way); the first part must already exist."""
    parts = path.strip().split(".")
    cur: Any = ctx
    for part in parts[:-1]:
        nxt = cur.get(part) if isinstance(cur, dict) else None
        if nxt is None:
            if not isinstance(cur, dict):
                raise InputError(f"cannot assign to {path!r}: {part!r} is not a mapping")
            nxt = cur[part] = {}
        cur = nxt
    if not isinstance(cur, dict):
        raise InputError(f"cannot assign to {path!r}: its parent is not a mapping")
    cur[parts[-1]] = value
