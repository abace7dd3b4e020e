"""Typed task parameters drawn from a seed: names, phone numbers, amounts, dates, times, texts, picks.

A parameter spec is data, e.g. ``{type: int, min: 2, max: 9}`` or ``{type: choice, from: [a, b]}``; every
draw goes through one ``random.Random``, so the same seed gives the same instance. ``record`` builds a
mapping of typed fields and ``records`` a list of them (the long lists a task must scroll through).
"""

from __future__ import annotations

import datetime as dt
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


class ParamError(InputError):
    """A parameter spec that cannot be drawn; the message names the parameter and the fix."""


def _date(rng: random.Random, spec: dict[str, Any]) -> str:
    day = TODAY + dt.timedelta(days=rng.randint(int(spec.get("min", 1)), int(spec.get("max", 40))))
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
            return rng.randint(int(spec.get("min", 1)), int(spec.get("max", 99)))
        if kind == "amount":
            cents = rng.randint(int(spec.get("min", 2)) * 4, int(spec.get("max", 90)) * 4)
            return f"{cents / 4:.2f}"
        if kind == "date":
            return _date(rng, spec)
        if kind == "time":
            hour = rng.randint(int(spec.get("min", 6)), int(spec.get("max", 21)))
            return f"{hour:02d}:{rng.choice((0, 15, 30, 45)):02d}"
        if kind == "word":
            return rng.choice(tuple(spec.get("from") or WORDS))
        if kind == "words":
            return " ".join(
                rng.sample(tuple(spec.get("from") or WORDS), int(spec.get("count", 2)))
            ).capitalize()
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
    except (TypeError, ValueError) as exc:
        raise ParamError(f"{where}: bad value in {spec!r}: {exc}") from None


def _records(spec: dict[str, Any], rng: random.Random, where: str) -> list[dict[str, Any]]:
    """``count`` records whose ``unique`` field differs, sorted by ``sort`` when given."""
    raw = spec.get("count", 10)
    count = int(draw(raw, rng, f"{where}.count") if isinstance(raw, dict) else raw)
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
