"""Reading named fields from frames and action dicts: ``text``, ``action.text``, ``ui.dialog.open``."""

from __future__ import annotations

from typing import Any

MISSING: Any = object()


def lookup_path(data: Any, path: str) -> Any:
    """``data[path]``, or for a dotted path (``a.b``, ``list.0``) the nested value; MISSING when absent."""
    if isinstance(data, dict) and path in data:
        return data[path]
    current = data
    for part in path.split("."):
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            return MISSING
    return current


def frame_field(frame: Any, path: str) -> Any:
    """A field of a Frame (or a MobiFlow frame dict) by dotted path; MISSING when absent or None."""
    head, _, rest = path.partition(".")
    value = frame.get(head) if hasattr(frame, "get") else getattr(frame, head, None)
    if value is None:
        return MISSING
    return lookup_path(value, rest) if rest else value
