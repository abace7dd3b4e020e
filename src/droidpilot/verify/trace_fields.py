"""Typed reads of the fields of a trace's records (actions.json, react.json, frame objects).

A value of the wrong type is an InputError naming the file, the entry, the value and the fix; it is never
converted quietly (``"action_index": 1e8`` or ``"abc"`` once renumbered the steps by position and the
trace passed).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from droidpilot.errors import InputError

_SHOWN = 40  # characters of an offending value quoted in a message
_KINDS = {bool: "true/false", str: "a string", int: "a whole number",
          float: "a number with a fraction or exponent", list: "a list", dict: "an object"}


def shown_value(value: Any) -> str:
    """``1e8`` as ``100000000.0 (a number with a fraction or exponent)``: the value, briefly, and its kind."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _SHOWN:
        text = text[:_SHOWN] + "..."
    kind = _KINDS.get(type(value), type(value).__name__)
    return f"{text} ({kind})"


def whole_number(value: Any) -> bool:
    """An integer written as one (``3``), not ``3.0``, ``1e8``, ``"3"`` or ``true``."""
    return isinstance(value, int) and not isinstance(value, bool)


def step_indices(items: list[dict[str, Any]], where: str, key: str = "action_index") -> list[int] | None:
    """Each item's ``key`` (every item has a whole number there), or None when no item has one (they are
    then numbered by position). Anything else, including a mix, is an InputError."""
    present = [i for i, item in enumerate(items) if item.get(key) is not None]
    if not present:
        return None
    for i in present:
        if not whole_number(items[i][key]):
            raise InputError(f"{where}: entry {i}: {key} must be a whole number such as {i + 1}, got "
                             f"{shown_value(items[i][key])}; write the step number without quotes or "
                             f"fraction")
    if len(present) < len(items):
        missing = next(i for i in range(len(items)) if i not in set(present))
        raise InputError(f"{where}: entry {missing} has no {key} but entry {present[0]} has one; give "
                         f"every entry its {key}, or none (then entries are numbered by position)")
    return [items[i][key] for i in present]


def text_field(record: Mapping[str, Any], key: str, where: str, *, numbers: bool = False) -> str:
    """``record[key]`` as text: absent or null is ``""``; a string (or, with ``numbers``, a number) is
    kept; anything else (true/false, a list, an object) is an InputError."""
    value = record.get(key)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if numbers and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{where}: {key!r} must be a string, got {shown_value(value)}")


def number_field(record: Mapping[str, Any], key: str, where: str) -> float | int | None:
    """``record[key]`` when it is a number, None when absent or null; an InputError otherwise."""
    value = record.get(key)
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    raise InputError(f"{where}: {key!r} must be a number (pixels), got {shown_value(value)}")
