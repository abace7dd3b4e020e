"""The ``value`` parameter of the text-reading checkers: a typed value (``droidpilot.typed``) to read.

``value: {type: money, equals: "181"}`` (or several, as a list: every one must hold). A reply (the
agent's text, an action's field) must state exactly that one value of the type, so a hedge ("$181 or
$1810") fails; a screen (UI dump, OCR) shows it when one of its lines states it among others, as a
whole token (see ``typed.screen``). ``droidpilot.typed`` is imported only when a rule uses ``value``,
so a cold verify of a plain rule never loads it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from droidpilot.verify.checkers.base import Param

VALUE_PARAM = Param("any", help="a typed value: {type: money|time|count|..., equals: V} (or in, aliases, "
                                "of); a list of them: every one")
WHOLE_NUMBERS_PARAM = Param("bool", help="a number at either end of a keyword must stand whole: "
                                         "'181' does not match '1810' or '181.50' (default false)")


def value_specs(params: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``value`` parameter as a list of specs ([] when absent)."""
    value = params.get("value")
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def value_problems(params: dict[str, Any]) -> list[str]:
    """Rule-load problems with ``value`` (each naming ``value`` or ``value[i]`` and how to fix it)."""
    if "value" not in params:
        return []
    from droidpilot.typed import validate_spec

    value = params["value"]
    if isinstance(value, list):
        if not value:
            return ["'value' is an empty list; give a mapping such as {type: money, equals: '181'}"]
        return [p for i, spec in enumerate(value) for p in validate_spec(spec, f"value[{i}]")]
    return validate_spec(value, "value")


@dataclass
class TypedOutcome:
    """Whether every value spec held, the reasons and what was read, for a CheckResult's details."""

    ok: bool
    reasons: list[str] = field(default_factory=list)
    details: list[dict[str, Any]] = field(default_factory=list)

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)


def _outcome(specs: list[dict[str, Any]], judge: Any) -> TypedOutcome:
    out = TypedOutcome(True)
    for spec in specs:
        result = judge(spec)
        out.ok = out.ok and result.ok
        out.reasons.append(result.reason)
        out.details.append({"type": spec.get("type"), "ok": result.ok, "read": [str(v) for v in result.read]})
    return out


def reply_states(specs: list[dict[str, Any]], text: str) -> TypedOutcome:
    """Does a reply state each spec's value, exactly one of its type? (``typed.match``)"""
    from droidpilot.typed import match

    return _outcome(specs, lambda spec: match(spec, text))


def screen_shows(specs: list[dict[str, Any]], lines: Iterable[str]) -> TypedOutcome:
    """Does some line of the screen show each spec's value, as a whole token? (``typed.shown``)"""
    from droidpilot.typed import shown

    texts = list(lines)
    return _outcome(specs, lambda spec: shown(spec, texts))


__all__ = [
    "VALUE_PARAM",
    "WHOLE_NUMBERS_PARAM",
    "TypedOutcome",
    "reply_states",
    "screen_shows",
    "value_problems",
    "value_specs",
]
