"""Where lists get their items: a state or data path, searched by a query over canned tables
(``keywords``, ``title``, ``name``), filtered by a condition, ordered by fields (``sort``), with a
fallback when nothing matches."""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.appmodel.expr import condition, lookup, path_of, render
from droidpilot.device.sim.appmodel.model import Source


def items_of(source: str | Source, ctx: dict[str, Any]) -> list[Any]:
    """The items a list shows: a path's list, optionally matched by a query and filtered by a condition."""
    src = source if isinstance(source, Source) else Source(path=source)
    items = lookup(ctx, path_of(ctx, src.path))
    items = list(items) if isinstance(items, list) else []
    if src.query is not None:
        query = str(render(src.query, ctx) or "").strip().lower()
        items = [it for it in items if query and _matches(it, query)]
        if not items and query and src.fallback:
            found = render(lookup(ctx, src.fallback), ctx)
            items = list(found) if isinstance(found, list) else []
    if src.where:
        items = [it for it in items if condition({**ctx, "item": it}, src.where)]
    if src.sort:
        items.sort(key=lambda it: tuple(str(it.get(k, "")) if isinstance(it, dict) else "" for k in src.sort))
    if src.reverse:
        items.reverse()
    return items[: src.limit] if src.limit else items


def _matches(item: Any, query: str) -> bool:
    if not isinstance(item, dict):
        return query in str(item).lower()
    keys = [str(k).lower() for k in item.get("keywords", [])]
    names = [str(item.get(k, "")).lower() for k in ("title", "name")]
    words = [w for w in query.replace(",", " ").split() if len(w) > 1]
    if any(k and (k in query or query in k) for k in keys):
        return True
    if any(n and (query in n or n in query) for n in names):
        return True
    return bool(words) and any(all(w in k for w in words) for k in keys + names)
