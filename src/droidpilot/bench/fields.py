"""Comparing one stored field of SimPhone's state with what a task expects, as a whole and as its type.

An expectation is a plain value (text compared with case, spacing, surrounding quotes and the final full
stop folded away; numbers as numbers; ``true`` / ``"true"`` alike), a typed spec ``{type: money, equals:
"181"}`` (read with ``droidpilot.typed``: "$1,204.10" is 1204.10, "1810" is not 181), or a mapping of
field -> expectation that a record must satisfy (other fields are free). A name is equal or not: a
stored "Paige Parkerson" is not "Paige Parker" (a stored field is compared whole, never searched in).
A plain list matches in any order (records asked for together are a set); ``{in_order: [...]}`` is a list
whose items must match position by position, nothing more or less (a playlist's songs "in order");
``{total_length: SPEC}`` is a list of records with ``minutes`` and ``seconds`` (songs) whose lengths add up
to a duration SPEC accepts (``{type: duration, between: ["46:00", "48:00"]}``: the songs chosen are free).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from droidpilot import typed
from droidpilot.typed.phrases import fold, words

WORD_TYPES = ("name", "place", "text")
IN_ORDER = "in_order"
TOTAL_LENGTH = "total_length"


def is_in_order(value: Any) -> bool:
    """Whether ``value`` is an ordered-list expectation, ``{in_order: [...]}``."""
    return isinstance(value, Mapping) and list(value) == [IN_ORDER]


def is_total_length(value: Any) -> bool:
    """Whether ``value`` is a total-length expectation, ``{total_length: SPEC}``."""
    return isinstance(value, Mapping) and list(value) == [TOTAL_LENGTH]


def is_typed_spec(value: Any) -> bool:
    """Whether ``value`` is a typed spec (``type`` plus ``equals``, ``in`` or ``between``, only typed-spec
    keys)."""
    return (
        isinstance(value, Mapping)
        and "type" in value
        and any(k in value for k in ("equals", "in", "between"))
        and all(k in typed.KEYS for k in value)
    )


def check_expectation(value: Any, where: str) -> list[str]:
    """Problems with an expectation (empty when usable): typed specs are checked with ``check_spec``."""
    if is_typed_spec(value):
        return typed.validate_spec(value, where)
    if is_total_length(value):
        spec = value[TOTAL_LENGTH]
        if not isinstance(spec, Mapping) or spec.get("type") != "duration":
            return [f"{where}.{TOTAL_LENGTH}: expected a duration spec such as "
                    f"{{type: duration, between: ['46:00', '48:00']}}"]
        return typed.validate_spec(spec, f"{where}.{TOTAL_LENGTH}")
    if is_in_order(value) and not isinstance(value[IN_ORDER], list):
        return [f"{where}.{IN_ORDER}: expected the list of items in their order, "
                f"got {type(value[IN_ORDER]).__name__}"]
    if isinstance(value, Mapping):
        if "type" in value and isinstance(value.get("type"), str) and value["type"] in typed.TYPES:
            return typed.validate_spec(value, where)  # a typed spec gone wrong: say what is wrong with it
        problems: list[str] = []
        for key, sub in value.items():
            problems += check_expectation(sub, f"{where}.{key}")
        return problems
    if isinstance(value, list):
        problems = []
        for i, sub in enumerate(value):
            problems += check_expectation(sub, f"{where}[{i}]")
        return problems
    return []


def _number(value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    try:
        return Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None


def plain_equal(want: Any, got: Any) -> bool:
    """A plain expectation against a stored scalar: flags as flags, numbers as numbers, text folded."""
    if isinstance(want, bool) or isinstance(got, bool):
        return str(want).strip().lower() == str(got).strip().lower()
    if want is None or got is None:
        return want is got
    a, b = _number(want), _number(got)
    if a is not None and b is not None:
        return a == b
    return fold(str(want)) == fold(str(got))


def _as_text(value: Any) -> str:
    if isinstance(value, list):  # a stored list read as a listed reply (one item a line)
        return "\n".join(_as_text(v) for v in value)
    if isinstance(value, Mapping):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return "" if value is None else str(value)


def typed_field(spec: Mapping[str, Any], got: Any) -> tuple[bool, str]:
    """A stored field against a typed spec, whole: word types must equal (not merely contain) the value;
    the other types must state exactly the one right value. Returns (ok, why)."""
    kind = spec["type"]
    text = _as_text(got)
    if kind in WORD_TYPES:
        norm = words if kind == "place" else fold
        wants = list(spec["in"]) if "in" in spec else [spec["equals"]]
        wants += list(spec.get("aliases", []))
        for want in wants:
            if norm(text) == norm(str(want)):
                return True, f"is {want!r}"
        return False, f"{text!r} is not {wants[0]!r}"
    result = typed.match(spec, text)
    return result.ok, result.reason


def matches(want: Any, got: Any) -> bool:
    """Whether a stored value satisfies an expectation (see the module docstring)."""
    return explain(want, got)[0]


def explain(want: Any, got: Any) -> tuple[bool, str]:
    """(whether ``got`` satisfies ``want``, why not / what matched), for records, lists and scalars."""
    if is_typed_spec(want):
        return typed_field(want, got)
    if is_in_order(want):
        return _in_order(want[IN_ORDER], got)
    if is_total_length(want):
        return _total_length(want[TOTAL_LENGTH], got)
    if isinstance(want, Mapping):
        if not isinstance(got, Mapping):
            return False, f"expected a record, found {_as_text(got)!r}"
        for key, sub in want.items():
            if key not in got:
                return False, f"has no field {key!r}"
            ok, why = explain(sub, got[key])
            if not ok:
                return False, f"{key}: {why}"
        return True, "fields match"
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return False, f"expected {len(want)} item(s), found {_as_text(got)!r}"
        left = list(got)
        for sub in want:
            hit = next((i for i, g in enumerate(left) if matches(sub, g)), None)
            if hit is None:
                return False, f"no item matches {sub!r}"
            left.pop(hit)
        return True, "items match"
    if isinstance(got, (Mapping, list)):
        return False, f"expected {want!r}, found {_as_text(got)!r}"
    ok = plain_equal(want, got)
    return ok, ("equal" if ok else f"{got!r} is not {want!r}")


def _total_length(spec: Mapping[str, Any], got: Any) -> tuple[bool, str]:
    """A stored list of records with ``minutes`` and ``seconds`` against a duration spec for their sum."""
    if not isinstance(got, list):
        return False, f"expected a list of songs, found {_as_text(got)!r}"
    total = 0
    for i, item in enumerate(got):
        length = _number(item.get("minutes")) if isinstance(item, Mapping) else None
        seconds = _number(item.get("seconds")) if isinstance(item, Mapping) else None
        if length is None or seconds is None:
            return False, f"item {i + 1} has no minutes and seconds: {_as_text(item)!r}"
        total += int(length * 60 + seconds)
    shown = f"{total // 60}:{total % 60:02d}"
    ok, why = typed_field(spec, shown)
    return ok, f"{len(got)} item(s) of {shown} in all: {why}"


def _in_order(want: list[Any], got: Any) -> tuple[bool, str]:
    """A stored list against the items it must hold, position by position (no extra, none missing)."""
    if not isinstance(got, list) or len(got) != len(want):
        return False, f"expected {len(want)} item(s) in order, found {_as_text(got)!r}"
    for i, (sub, item) in enumerate(zip(want, got, strict=True)):
        ok, why = explain(sub, item)
        if not ok:
            return False, f"item {i + 1} of {len(want)}: {why} (the order matters)"
    return True, "items match in order"


__all__ = ["check_expectation", "explain", "is_in_order", "is_total_length", "is_typed_spec", "matches",
           "plain_equal", "typed_field"]
