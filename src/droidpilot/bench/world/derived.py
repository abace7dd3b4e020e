"""Parameters computed from earlier ones: an item picked from a drawn list (found only by scrolling
when it is far down), a value absent from it (infeasible tasks), counts and sums (retrieval answers),
lists joined end to end (``concat``: a long list with a known item placed last), one field of the matching
items (``column``: the titles of the done tasks; ``join`` makes it a text), and the result of an
arithmetic expression as SimPhone's Calculator shows it (``calc``); days relative to a drawn today are
``days.py``'s. ``where``/``equals`` keeps the items whose field equals a value, ``at_least``/``at_most``
those whose field lies in a range (texts such as days ``2026-12-08`` and times ``09:30`` order as text);
``pick`` with ``which: first`` (or ``last``) takes the first matching item instead of a drawn one, and with
``count: N`` N distinct items (a list, in list order); ``stamp`` copies a drawn list with ``set`` fields
given to every item from other parameters (``set: {category: "{cat}"}``: the expenses a constraint names)."""

from __future__ import annotations

import random
from typing import Any

from droidpilot.bench.params import ParamError, copy_value, draw
from droidpilot.bench.world.days import DAY_TYPES, derive_day
from droidpilot.bench.world.fill import fill, lookup

DERIVED = ("pick", "absent", "count", "sum", "fill", "concat", "calc", "column", "stamp", *DAY_TYPES)


def _items(spec: dict[str, Any], ctx: dict[str, Any], where: str) -> list[Any]:
    items = lookup(ctx, str(spec.get("from", "")), f"{where}.from")
    if not isinstance(items, list) or not items:
        raise ParamError(f"{where}.from: {spec.get('from')!r} is not a non-empty list parameter")
    return items


def _matches(item: Any, spec: dict[str, Any], ctx: dict[str, Any], where: str) -> bool:
    if "where" not in spec:
        return True
    if not isinstance(item, dict):
        return False
    got = str(item.get(spec["where"]))
    if "equals" in spec and got != str(fill(spec["equals"], ctx, where)):
        return False
    if "at_least" in spec and got < str(fill(spec["at_least"], ctx, where)):
        return False
    return not ("at_most" in spec and got > str(fill(spec["at_most"], ctx, where)))


def derive(spec: dict[str, Any], rng: random.Random, ctx: dict[str, Any], where: str) -> Any:
    """The value of a derived parameter spec (``type`` one of ``DERIVED``)."""
    kind = spec["type"]
    if kind in DAY_TYPES:
        return derive_day(spec, rng, ctx, where)
    if kind == "fill":
        return fill(spec.get("value"), ctx, where)
    if kind == "calc":
        from droidpilot.device.sim.appmodel.calc import ERROR, calculate

        value = calculate(str(fill(spec.get("value"), ctx, where)))
        if value == ERROR:
            raise ParamError(f"{where}: {spec.get('value')!r} is not an expression a calculator can work out")
        places = spec.get("places")  # a total shown as money on a receipt: places: 2 gives 59.00
        if places is None:
            return value
        if not isinstance(places, int) or isinstance(places, bool) or not 0 <= places <= 6:
            raise ParamError(f"{where}: places: {places!r} must be a whole number of decimals from 0 to 6")
        return f"{float(value):.{places}f}"
    if kind == "concat":
        parts = spec.get("from")
        if not isinstance(parts, list) or not parts:
            raise ParamError(f"{where}.from: concat needs a list of parameter names")
        joined: list[Any] = []
        for name in parts:
            value = lookup(ctx, str(name), f"{where}.from")
            joined.extend(copy_value(value) if isinstance(value, list) else [copy_value(value)])
        return joined
    items = _items(spec, ctx, where)
    if kind == "stamp":
        extra = fill(spec.get("set"), ctx, where)
        if not isinstance(extra, dict) or not extra:
            raise ParamError(f"{where}.set: the fields to give every item, e.g. {{category: \"{{cat}}\"}}")
        return [{**copy_value(i), **extra} if isinstance(i, dict) else copy_value(i) for i in items]
    if kind == "pick":
        lo, hi = int(spec.get("min", 0)), int(spec.get("max", len(items) - 1))
        lo, hi = (
            max(0, lo if lo >= 0 else len(items) + lo),
            min(len(items) - 1, hi if hi >= 0 else len(items) + hi),
        )
        pool = [i for i in items[lo : hi + 1] if _matches(i, spec, ctx, where)]
        if not pool:
            raise ParamError(f"{where}: no item of {spec['from']!r} between {lo} and {hi} to pick")
        if "count" in spec:  # several distinct items, in list order (order: drawn keeps the draw's order)
            many = fill(spec["count"], ctx, where)
            if isinstance(many, bool) or not isinstance(many, int):
                raise ParamError(f"{where}.count: {spec['count']!r} is not a whole number of items")
            if not 1 <= many <= len(pool):
                raise ParamError(f"{where}.count: {many} items asked of {len(pool)} to pick from")
            order = spec.get("order", "list")
            if order not in ("list", "drawn"):
                raise ParamError(f"{where}.order: {order!r}; use list (the default) or drawn (the order a "
                                 f"task asks for, e.g. a playlist's songs)")
            chosen = rng.sample(range(len(pool)), many)
            chosen = chosen if order == "drawn" else sorted(chosen)
            return [copy_value(pool[i]) for i in chosen]
        which = spec.get("which", "drawn")
        if which not in ("drawn", "first", "last"):
            raise ParamError(f"{where}.which: {which!r}; use first, last or drawn (the default)")
        return copy_value(pool[0] if which == "first" else pool[-1] if which == "last" else rng.choice(pool))
    if kind == "absent":
        field = spec.get("field")
        taken = {str(i.get(field) if isinstance(i, dict) and field else i) for i in items}
        for _ in range(200):
            value = draw(spec.get("draw", "full_name"), rng, f"{where}.draw")
            if str(value) not in taken:
                return value
        raise ParamError(f"{where}: cannot draw a value absent from {spec['from']!r}")
    chosen = [i for i in items if _matches(i, spec, ctx, where)]
    if kind == "column":
        values = [copy_value(i.get(spec.get("field"))) for i in chosen if isinstance(i, dict)]
        return str(spec["join"]).join(str(v) for v in values) if "join" in spec else values
    if kind == "count":
        return len(chosen) + int(spec.get("add", 0))
    total = sum(float(i.get(spec.get("field"), 0)) for i in chosen if isinstance(i, dict))
    return spec.get("format", "{:.2f}").format(total)
