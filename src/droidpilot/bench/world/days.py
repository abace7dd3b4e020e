"""Days relative to a drawn today: the parameters of tasks about dates ("in two weeks", "next Tuesday",
"the events of the coming week"), so the whole calendar moves with the seed's today.

``{type: day, from: today, add: 14}`` is today plus 14 days (``min``/``max`` draw the offset instead;
``weekday: Tuesday`` is the first Tuesday after today, as "this Tuesday" means on a phone); ``{type: dated,
from: events, field: day, base: today}`` copies a drawn list whose ``field`` holds day offsets, with each
offset replaced by that day (``as: date``, the new field's name, default the same; ``set`` gives every
record more fields, placeholders filled: ``set: {with: "{person}"}``). ``add`` and
``weekday`` may be placeholders (``add: "{how.add}"``; an empty weekday means ``add``). ``format`` is a
strftime pattern (default ``%Y-%m-%d``, the phone's own spelling of a day).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from droidpilot.bench.params import ParamError, copy_value, whole
from droidpilot.bench.world.fill import fill, lookup

DAY_TYPES = ("day", "dated")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MAX_OFFSET = 36_500


def _base(spec: dict[str, Any], key: str, ctx: dict[str, Any], where: str) -> dt.date:
    raw = lookup(ctx, str(spec.get(key, "")), f"{where}.{key}")
    try:
        return dt.date.fromisoformat(str(raw))
    except ValueError:
        raise ParamError(f"{where}.{key}: {spec.get(key)!r} holds {raw!r}, not a day written YYYY-MM-DD; "
                         "draw it with {type: date, format: \"%Y-%m-%d\"}") from None


def _format(day: dt.date, spec: dict[str, Any], where: str) -> str:
    fmt = str(spec.get("format", "%Y-%m-%d"))
    try:
        return day.strftime(fmt)
    except ValueError as exc:
        raise ParamError(f"{where}.format: {fmt!r} is not a date pattern: {exc}") from None


def _shift(base: dt.date, days: int, where: str) -> dt.date:
    try:
        return base + dt.timedelta(days=days)
    except OverflowError:
        raise ParamError(f"{where}: {base} plus {days} days is outside the calendar") from None


def derive_day(spec: dict[str, Any], rng: random.Random, ctx: dict[str, Any], where: str) -> Any:
    """The value of a ``day`` or ``dated`` parameter."""
    if spec["type"] == "dated":
        return _dated(spec, ctx, where)
    base = _base(spec, "from", ctx, where)
    spec = {k: fill(v, ctx, where) if k in ("add", "weekday") else v for k, v in spec.items()}
    if spec.get("weekday"):
        name = str(fill(spec["weekday"], ctx, where)).strip().lower()
        if name not in WEEKDAYS:
            raise ParamError(f"{where}.weekday: {spec['weekday']!r} gives {name!r}, not a day of the week "
                             f"({', '.join(w.capitalize() for w in WEEKDAYS)})")
        ahead = (WEEKDAYS.index(name) - base.weekday()) % 7 or 7
        return _format(_shift(base, ahead, where), spec, where)
    if "add" in spec:
        days = whole(spec, "add", 0, where, -MAX_OFFSET, MAX_OFFSET)
    else:
        low = whole(spec, "min", 0, where, -MAX_OFFSET, MAX_OFFSET)
        high = whole(spec, "max", 7, where, -MAX_OFFSET, MAX_OFFSET)
        if low > high:
            raise ParamError(f"{where}: min {low} is above max {high}")
        days = rng.randint(low, high)
    return _format(_shift(base, days, where), spec, where)


def _dated(spec: dict[str, Any], ctx: dict[str, Any], where: str) -> list[Any]:
    items = lookup(ctx, str(spec.get("from", "")), f"{where}.from")
    if not isinstance(items, list):
        raise ParamError(f"{where}.from: {spec.get('from')!r} is not a list parameter")
    base = _base(spec, "base", ctx, where)
    field = str(spec.get("field", ""))
    target = str(spec.get("as", field))
    extra = fill(spec.get("set") or {}, ctx, where)
    if not isinstance(extra, dict):
        raise ParamError(f"{where}.set: fields to give every record, e.g. {{with: \"{{person}}\"}}")
    out = []
    for i, item in enumerate(items):
        offset = item.get(field) if isinstance(item, dict) else None
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise ParamError(f"{where}: item {i} of {spec.get('from')!r} has {field}={offset!r}, "
                             "not a whole number of days from today")
        record = copy_value(item)
        record[target] = _format(_shift(base, offset, where), spec, where)
        record.update(extra)
        out.append(record)
    return out
