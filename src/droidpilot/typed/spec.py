"""Typed matching: ``{type: money, equals: "181"}`` read against a text, one value only.

A spec names a type (``TYPES``) and the right value (``equals``, or several acceptable ones with ``in``,
or for a type that orders its values a closed range with ``between: [low, high]``: a playlist's total
length between 46:00 and 48:00); free text may add ``aliases``; a set names its items' type with ``of``.
``match`` reads every value of the type that the text states: the text passes when it states exactly one
value and that value is right, so "$1,204.10" passes for 1204.10 and "$1810" fails for 181, and "6 or 7"
fails for 6 (a reply that offers several candidates is not an answer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from droidpilot.errors import InputError
from droidpilot.typed import phrases, scalars, table

TYPES = ("count", "number", "money", "time", "date", "duration", "phone", "name", "place", "text", "set",
         "table")
WORD_TYPES = ("name", "place", "text")
KEYS = ("type", "equals", "in", "between", "aliases", "of")
RIGHT = ("equals", "in", "between")  # the ways a spec gives its right value(s): exactly one of them
ORDERED = ("count", "number", "money", "duration")  # types whose values a range `between` can hold


class TypedSpecError(InputError):
    """A typed-value spec that cannot be used; the message names where and how to fix it."""


@dataclass(frozen=True)
class Match:
    """The outcome of reading a text against a spec: ``ok``, why, and the values read and expected."""

    ok: bool
    reason: str
    read: tuple[Any, ...] = ()
    want: tuple[Any, ...] = ()

    def __bool__(self) -> bool:
        return self.ok


def validate_spec(spec: Any, where: str = "value") -> list[str]:
    """Problems with ``spec`` (empty when it is usable), each naming ``where``."""
    if not isinstance(spec, Mapping):
        got = type(spec).__name__
        return [f"{where}: expected a mapping such as {{type: money, equals: '181'}}, got {got}"]
    problems = []
    unknown = sorted(str(k) for k in spec if k not in KEYS)
    if unknown:
        problems.append(f"{where}: unknown key(s) {unknown}; use {', '.join(KEYS)}")
    kind = spec.get("type")
    if kind not in TYPES:
        problems.append(f"{where}.type: {kind!r} is not a value type; use one of {', '.join(TYPES)}")
    if sum(k in spec for k in RIGHT) != 1:
        problems.append(f"{where}: give exactly one of `equals` (the right value), `in` (a list of them) or "
                        f"`between` ([low, high], for {', '.join(ORDERED)})")
    if "in" in spec and (not isinstance(spec["in"], list) or not spec["in"]):
        problems.append(f"{where}.in: expected a non-empty list of values")
    if "between" in spec:
        problems += _check_range(spec, kind, where)
    if "aliases" in spec and (kind not in WORD_TYPES or not isinstance(spec["aliases"], list)):
        problems.append(f"{where}.aliases: a list of other spellings, for the types {', '.join(WORD_TYPES)}")
    if kind == "set":
        of = spec.get("of", "text")
        if of not in TYPES or of in ("set", "table"):
            problems.append(f"{where}.of: {of!r} is not an item type; use one of {', '.join(TYPES[:-2])}")
    elif kind == "table":
        if not problems:
            problems += table.validate(spec, where)
        return problems
    elif "of" in spec:
        problems.append(f"{where}.of: only a set or a table names the type of its items")
    if not problems and "between" not in spec:
        for value in _wanted(spec):
            if kind != "set" and kind not in WORD_TYPES and not _read(kind, str(value)):
                problems.append(f"{where}: the right value {value!r} does not read as a {kind}")
    return problems


def _check_range(spec: Mapping[str, Any], kind: Any, where: str) -> list[str]:
    """Problems with a ``between`` range: an ordered type, two values of it, the low one first."""
    bounds = spec["between"]
    if kind not in ORDERED:
        return [f"{where}.between: a range needs a type whose values are ordered ({', '.join(ORDERED)}), "
                f"not {kind!r}"]
    if not isinstance(bounds, list) or len(bounds) != 2:
        return [f"{where}.between: expected [low, high], two values of type {kind}"]
    read = [_read(kind, str(b)) for b in bounds]
    bad = [repr(b) for b, r in zip(bounds, read, strict=True) if len(r) != 1]
    if bad:
        return [f"{where}.between: {', '.join(bad)} does not read as one {kind}"]
    if read[0][0] > read[1][0]:
        return [f"{where}.between: the low end {bounds[0]!r} is above the high end {bounds[1]!r}"]
    return []


def in_range(spec: Mapping[str, Any], value: Any) -> bool:
    """Whether a canonical value of the spec's type lies in its ``between`` range (ends included)."""
    low, high = (_read(spec["type"], str(b))[0] for b in spec["between"])
    return bool(low <= value <= high)


def check_spec(spec: Any, where: str = "value") -> dict[str, Any]:
    """``spec`` as a plain dict, or TypedSpecError listing its problems."""
    problems = validate_spec(spec, where)
    if problems:
        raise TypedSpecError("; ".join(problems))
    return dict(spec)


def _wanted(spec: Mapping[str, Any]) -> list[Any]:
    return list(spec["in"]) if "in" in spec else [spec["equals"]]


def _read(kind: str, text: str) -> list[Any]:
    """Every distinct value of ``kind`` the text states, in order (word types: the folded text)."""
    if kind == "count":
        values: list[Any] = list(scalars.read_counts(text))
    elif kind == "number":
        values = [v.normalize() for v in scalars.read_numbers(text)]
    elif kind == "money":
        values = [v.quantize(Decimal("0.01")) for v in scalars.read_numbers(text, money=True)]
    elif kind == "time":
        values = scalars.read_times(text)[0]
    elif kind == "date":
        values = scalars.read_dates(text)[0]
    elif kind == "duration":
        values = scalars.read_durations(text)[0]
    elif kind == "phone":
        values = scalars.read_phones(text)[0]
    else:
        values = [phrases.fold(text)] if phrases.fold(text) else []
    return list(dict.fromkeys(values))


def _same_date(a: tuple[int, int, int | None], b: tuple[int, int, int | None]) -> bool:
    return a[:2] == b[:2] and (a[2] is None or b[2] is None or a[2] == b[2])


def _equal(kind: str, got: Any, want: Any) -> bool:
    return _same_date(got, want) if kind == "date" else bool(got == want)


def _match_words(kind: str, text: str, wants: list[str]) -> Match:
    norm = phrases.words if kind == "place" else phrases.fold
    said = norm(text)
    for want in wants:
        if said == norm(want):
            return Match(True, f"reads {want!r}", (said,), tuple(wants))
    if phrases.hedged(text):
        why = f"{text!r} hedges between answers; expected one: {wants[0]!r}"
        return Match(False, why, (said,), tuple(wants))
    hits = [(w, pos) for w in wants for pos in phrases.phrase_positions(w, text)]
    if not hits:
        return Match(False, f"{text!r} is not {wants[0]!r}", (said,), tuple(wants))
    want, pos = hits[0]
    if phrases.negated_before(text, pos):
        return Match(False, f"{text!r} negates {want!r}", (said,), tuple(wants))
    return Match(True, f"states {want!r}", (said,), tuple(wants))


def _match_set(spec: Mapping[str, Any], text: str) -> Match:
    of = spec.get("of", "text")
    want_items = spec["equals"] if "equals" in spec else spec["in"][0]
    if isinstance(want_items, list):
        wants = [str(w) for w in want_items]
    else:
        wants = phrases.split_items(str(want_items))
    items = phrases.split_items(text)
    if len(items) != len(wants):
        return Match(False, f"{text!r} lists {len(items)} item(s); expected {len(wants)}: {wants}",
                     tuple(items), tuple(wants))
    left = list(wants)
    for item in items:
        hit = next((w for w in left if match({"type": of, "equals": w}, item).ok), None)
        if hit is None:
            return Match(False, f"item {item!r} is none of {left}", tuple(items), tuple(wants))
        left.remove(hit)
    return Match(True, f"lists {wants} (any order)", tuple(items), tuple(wants))


def match(spec: Mapping[str, Any], text: Any) -> Match:
    """Whether ``text`` states the spec's value, exactly one, of the spec's type (spec already checked)."""
    kind = spec["type"]
    text = "" if text is None else str(text)
    if kind == "set":
        return _match_set(spec, text)
    if kind == "table":
        results = [table.match_rows(spec["of"], text, str(w)) for w in _wanted(spec)]
        hit = next((r for r in results if r[0]), results[0])
        return Match(hit[0], hit[1])
    if "between" in spec:
        return _match_range(spec, text)
    wants_raw = [str(w) for w in _wanted(spec)]
    if kind in WORD_TYPES:
        return _match_words(kind, text, wants_raw + [str(a) for a in spec.get("aliases", [])])
    wants = [v for w in wants_raw for v in _read(kind, w)[:1]]
    got = _read(kind, text)
    if not got:
        return Match(False, f"{text!r} states no {kind}", (), tuple(wants))
    if len(got) > 1:
        return Match(False, f"{text!r} states {len(got)} different {kind} values ({_show(kind, got)}); "
                     "expected one", tuple(got), tuple(wants))
    if any(_equal(kind, got[0], w) for w in wants):
        return Match(True, f"reads {_show(kind, got)}", tuple(got), tuple(wants))
    return Match(False, f"reads {_show(kind, got)}, expected {_show(kind, wants)}", tuple(got), tuple(wants))


def _match_range(spec: Mapping[str, Any], text: str) -> Match:
    kind, (low, high) = spec["type"], spec["between"]
    got = _read(kind, text)
    if len(got) != 1:
        said = "no" if not got else f"{len(got)} different"
        return Match(False, f"{text!r} states {said} {kind} value(s); expected one between {low} and {high}",
                     tuple(got), (low, high))
    if in_range(spec, got[0]):
        return Match(True, f"reads {_show(kind, got)}, between {low} and {high}", tuple(got), (low, high))
    return Match(False, f"reads {_show(kind, got)}, not between {low} and {high}", tuple(got), (low, high))


def _show(kind: str, values: list[Any]) -> str:
    def one(v: Any) -> str:
        if kind == "time":
            return f"{v // 60:02d}:{v % 60:02d}"
        if kind == "date":
            return f"{v[0]:02d}-{v[1]:02d}" + (f" {v[2]}" if v[2] else "")
        if kind == "duration":
            return f"{v}s"
        return str(v)

    return ", ".join(one(v) for v in values)


def read_values(kind: str, text: Any) -> list[Any]:
    """Every distinct value of ``kind`` that ``text`` states, in canonical form and in order (word types:
    the folded text): what a screen line shows, where several values are no hedge."""
    return _read(kind, "" if text is None else str(text))


def same_value(kind: str, got: Any, want: Any) -> bool:
    """Whether two canonical values of ``kind`` are the same (a date without a year matches any year)."""
    return _equal(kind, got, want)


def read_value(kind: str, text: Any) -> Any:
    """The one value of ``kind`` that ``text`` states (canonical form), or None when it states none or
    several: for comparing stored fields (an amount "1,204.10" and a typed 1204.1 read the same)."""
    values = _read(kind, "" if text is None else str(text))
    return values[0] if len(values) == 1 else None


__all__ = [
    "KEYS", "ORDERED", "RIGHT", "TYPES", "WORD_TYPES", "Match", "TypedSpecError", "check_spec", "in_range",
    "match", "read_value",
    "read_values", "same_value", "validate_spec",
]
