"""Typed task parameters drawn from a seed: names, phone numbers, amounts, dates, times, texts, picks.

A parameter spec is data, e.g. ``{type: int, min: 2, max: 9}`` or ``{type: choice, from: [a, b]}``; every
draw goes through one ``random.Random``, so the same seed gives the same instance. ``record`` builds a
mapping of typed fields and ``records`` a list of them (the long lists a task must scroll through).
"""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Any

from droidpilot.errors import InputError

FIRST = (
    "Ava",
    "Liam",
    "Noah",
    "Emma",
    "Olivia",
    "Mason",
    "Sophia",
    "Lucas",
    "Mia",
    "Ethan",
    "Harper",
    "Logan",
    "Amelia",
    "Jacob",
    "Ella",
    "Aiden",
    "Chloe",
    "Owen",
    "Grace",
    "Caleb",
    "Nora",
    "Wyatt",
    "Zoe",
    "Henry",
    "Lily",
    "Jack",
    "Hannah",
    "Leo",
    "Aria",
    "Ryan",
    "Maya",
    "Isaac",
    "Ruby",
    "Daniel",
    "Clara",
    "Julian",
    "Alice",
    "Felix",
    "Iris",
    "Oscar",
    "Stella",
    "Hugo",
    "Paige",
    "Victor",
    "Naomi",
)
LAST = (
    "Smith",
    "Johnson",
    "Brown",
    "Garcia",
    "Miller",
    "Davis",
    "Wilson",
    "Moore",
    "Taylor",
    "Anderson",
    "Thomas",
    "Jackson",
    "White",
    "Harris",
    "Martin",
    "Thompson",
    "Clark",
    "Lewis",
    "Walker",
    "Hall",
    "Young",
    "King",
    "Wright",
    "Scott",
    "Green",
    "Baker",
    "Adams",
    "Nelson",
    "Carter",
    "Mitchell",
    "Turner",
    "Parker",
    "Collins",
    "Edwards",
    "Stewart",
    "Morris",
    "Rogers",
    "Reed",
    "Cook",
    "Bell",
)
ZH_SURNAME = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗"
ZH_GIVEN = (
    "伟",
    "芳",
    "娜",
    "敏",
    "静",
    "强",
    "磊",
    "洋",
    "艳",
    "勇",
    "军",
    "杰",
    "娟",
    "涛",
    "明",
    "超",
    "霞",
    "平",
    "刚",
    "丽",
)
WORDS = (
    "garden",
    "budget",
    "ticket",
    "laptop",
    "kitchen",
    "report",
    "holiday",
    "dentist",
    "invoice",
    "birthday",
    "meeting",
    "library",
    "bicycle",
    "printer",
    "passport",
    "concert",
    "homework",
    "lunch",
    "flight",
    "museum",
    "yoga",
    "charger",
    "groceries",
    "painting",
    "package",
    "plumber",
    "interview",
)
CITIES = (
    "Paris",
    "Tokyo",
    "Berlin",
    "Madrid",
    "Toronto",
    "Sydney",
    "Boston",
    "Seattle",
    "Denver",
    "Austin",
    "Lisbon",
    "Prague",
    "Vienna",
    "Dublin",
    "Oslo",
    "Chicago",
    "Portland",
    "Miami",
    "Phoenix",
    "Atlanta",
)
TODAY = dt.date(2026, 11, 22)  # SimPhone's default date
TYPES = (
    "first_name",
    "last_name",
    "full_name",
    "zh_name",
    "phone",
    "email",
    "int",
    "amount",
    "date",
    "time",
    "word",
    "words",
    "city",
    "choice",
    "const",
    "record",
    "records",
)


# Bounds of the numbers a spec may hold: whole numbers drawn (``int``, ``amount``, ``pick``'s index, ``add``),
# days from today (``date``), hours (``time``), list lengths (``count`` of ``records``/``words``), and any
# whole number anywhere in a spec (a constant printed into an instruction).
MAX_WHOLE = 1_000_000_000
MAX_DAYS = 36_500
MAX_RECORDS = 10_000
MAX_ANY_INT = 10**18
RANGES = {"date": (-MAX_DAYS, MAX_DAYS), "time": (0, 23)}


class ParamError(InputError):
    """A parameter spec that cannot be drawn; the message names the parameter and the fix."""


def check_numbers(spec: Any, where: str) -> None:
    """ParamError for a number no spec can use, anywhere in ``spec``: NaN or infinity, or a whole number
    beyond +-10**18 (walks the nesting without recursion)."""
    stack: list[tuple[Any, str]] = [(spec, where)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, f"{at}.{k}") for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            raise ParamError(f"{at}: {value} is not a number a parameter can use; write a finite number")
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ANY_INT:
            digits = f"{len(str(abs(value)))}" if value.bit_length() < 14_000 else "over 4,000"
            raise ParamError(f"{at}: a number of {digits} digits is too large (the limit is 10^18)")


def whole(spec: dict[str, Any], key: str, default: int, where: str, low: int = -MAX_WHOLE,
          high: int = MAX_WHOLE) -> int:
    """The whole number ``spec[key]`` (``default`` when absent) within ``low``..``high``; ParamError for
    anything else (text, a fraction, NaN, a huge number), naming the field and the range."""
    value = spec.get(key, default)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParamError(f"{where}.{key}: expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise ParamError(f"{where}.{key}: {value:,} is outside {low:,}..{high:,}")
    return value


def _range(spec: dict[str, Any], kind: str, lo: int, hi: int, where: str) -> tuple[int, int]:
    low, high = RANGES.get(kind, (-MAX_WHOLE, MAX_WHOLE))
    first, last = whole(spec, "min", lo, where, low, high), whole(spec, "max", hi, where, low, high)
    if first > last:
        raise ParamError(f"{where}: min {first} is above max {last}")
    return first, last


def _date(rng: random.Random, spec: dict[str, Any], where: str) -> str:
    day = TODAY + dt.timedelta(days=rng.randint(*_range(spec, "date", 1, 40, where)))
    fmt = spec.get("format", "%B %-d")
    return day.strftime(fmt)


def draw(spec: Any, rng: random.Random, where: str = "param") -> Any:
    """One value for ``spec`` (a type name or a mapping with ``type``); ParamError when invalid."""
    if isinstance(spec, str):
        spec = {"type": spec}
    if not isinstance(spec, dict) or spec.get("type") not in TYPES:
        got = spec.get("type") if isinstance(spec, dict) else spec
        raise ParamError(f"{where}: unknown parameter type {got!r}; use one of {', '.join(TYPES)}")
    kind = spec["type"]
    try:
        if kind == "first_name":
            return rng.choice(FIRST)
        if kind == "last_name":
            return rng.choice(LAST)
        if kind == "full_name":
            return f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if kind == "zh_name":
            return (
                rng.choice(ZH_SURNAME)
                + rng.choice(ZH_GIVEN)
                + (rng.choice(ZH_GIVEN) if rng.random() < 0.5 else "")
            )
        if kind == "phone":
            return f"555-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}"
        if kind == "email":
            return f"{rng.choice(FIRST).lower()}.{rng.choice(LAST).lower()}@example.com"
        if kind == "int":
            return rng.randint(*_range(spec, kind, 1, 99, where))
        if kind == "amount":
            first, last = _range(spec, kind, 2, 90, where)
            cents = rng.randint(first * 4, last * 4)
            return f"{cents / 4:.2f}"
        if kind == "date":
            return _date(rng, spec, where)
        if kind == "time":
            hour = rng.randint(*_range(spec, kind, 6, 21, where))
            return f"{hour:02d}:{rng.choice((0, 15, 30, 45)):02d}"
        if kind == "word":
            return rng.choice(tuple(spec.get("from") or WORDS))
        if kind == "words":
            pool = tuple(spec.get("from") or WORDS)
            return " ".join(rng.sample(pool, whole(spec, "count", 2, where, 0, len(pool)))).capitalize()
        if kind == "city":
            return rng.choice(CITIES)
        if kind == "choice":
            options = spec.get("from")
            if not isinstance(options, list) or not options:
                raise ParamError(f"{where}: choice needs `from: [...]` with at least one value")
            return copy_value(rng.choice(options))
        if kind == "const":
            return copy_value(spec.get("value"))
        if kind == "record":
            fields = spec.get("fields")
            if not isinstance(fields, dict) or not fields:
                raise ParamError(f"{where}: record needs `fields: {{name: spec}}`")
            return {k: draw(v, rng, f"{where}.fields.{k}") for k, v in fields.items()}
        return _records(spec, rng, where)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ParamError(f"{where}: bad value in {spec!r}: {exc}") from None


def _records(spec: dict[str, Any], rng: random.Random, where: str) -> list[dict[str, Any]]:
    """``count`` records whose ``unique`` field differs, sorted by ``sort`` when given."""
    raw = spec.get("count", 10)
    drawn = {"count": draw(raw, rng, f"{where}.count")} if isinstance(raw, dict) else spec
    count = whole(drawn, "count", 10, where, 0, MAX_RECORDS)
    unique = spec.get("unique")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for _ in range(count * 20):
        if len(out) == count:
            break
        item = draw({"type": "record", "fields": spec.get("fields")}, rng, where)
        key = str(item.get(unique)) if unique else None
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        out.append(item)
    if len(out) < count:
        raise ParamError(f"{where}: cannot draw {count} records with distinct {unique!r}; lower count")
    if spec.get("sort"):
        out.sort(key=lambda r: str(r.get(spec["sort"])))
    return out


def copy_value(value: Any) -> Any:
    """A deep copy of plain data (so instances never share mutable values)."""
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_value(v) for v in value]
    return value
