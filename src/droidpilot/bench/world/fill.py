"""Filling ``{name}`` / ``{name.field}`` placeholders of template data from drawn parameters.

A string that is exactly one placeholder becomes the parameter's value itself (a number stays a number,
a list stays a list); otherwise values are written as text. Braces that are not a name (regular
expression counts such as ``{2}``) are left alone.
"""

from __future__ import annotations

import re
from typing import Any

from droidpilot.bench.task import SuiteError

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][\w]*(?:\.[\w-]+)*)\}")


def lookup(ctx: dict[str, Any], path: str, where: str) -> Any:
    """The value at dotted ``path`` in ``ctx`` (list indices allowed); SuiteError names ``where``."""
    node: Any = ctx
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            raise SuiteError(
                f"{where}: placeholder {{{path}}} names no parameter (known: {', '.join(sorted(ctx))})"
            )
    return node


def fill(value: Any, ctx: dict[str, Any], where: str) -> Any:
    """``value`` with every placeholder replaced, recursively through lists and mappings."""
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value)
        if whole:
            return lookup(ctx, whole.group(1), where)
        return _PLACEHOLDER.sub(lambda m: str(lookup(ctx, m.group(1), where)), value)
    if isinstance(value, list):
        return [fill(v, ctx, where) for v in value]
    if isinstance(value, dict):
        return {
            fill(k, ctx, where) if isinstance(k, str) else k: fill(v, ctx, where) for k, v in value.items()
        }
    return value
