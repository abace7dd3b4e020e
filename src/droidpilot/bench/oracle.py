"""The oracle language: a small DATA predicate over SimPhone's ``state()``, written in task files.

A predicate is ``{all: [...]}``, ``{any: [...]}``, ``{not: predicate}`` or a leaf
``{path: a.b.0.c, <operator>: value}`` with exactly one operator:

- ``equals``: the value equals it as a stored field is compared (``bench/fields.py``): flags as flags,
  numbers as numbers (``3`` / ``3.0``, ``"65"`` / ``"65.00"``), text with case, spacing, quotes and the final
  full stop folded away ("我到了。" equals "我到了", "home" equals "Home");
- ``contains``: case-insensitive, deep and whole-token: a string holds the text as whole words
  (punctuation and underscores break words, CJK needs no break); a list or mapping holds it in any of
  its items or values (so ``{path: notes.notes, contains: "meeting at 3pm"}`` finds it in any note,
  while "Total 145.755" does not hold "Total 145.75" and "Atlantas" does not hold "Atlanta");
- ``in``: the value is one of the listed values;
- ``exists``: ``true`` when the path resolves to a value other than null, ``false`` for the opposite;
- ``matches``: a regular expression searched in the string (or, deeply, in any string inside);
- ``length_at_least``: the list, mapping or string has at least that many items or characters;
- ``value``: a typed spec ``{type: money, equals: "181"}`` (``in`` for several right values, ``aliases``
  for other spellings of a name / place / text, ``of`` for a set's items; see ``droidpilot.typed``). A
  stored field is compared whole and as its type ("$1,204.10" is 1204.10, "1810" is not 181, "Paige
  Parkerson" is not "Paige Parker"); the agent's reply (a path under ``agent``) is read as a sentence
  that must state exactly one value, the right one ("It was $181.00." passes, "$181 or $18" fails);
- ``declares_infeasible``: ``true`` when the text plainly declares the task impossible (a negated or
  hedged claim such as "It is not infeasible, I applied." does not), ``false`` for the opposite.

Path segments are mapping keys or list indices (``-1`` is the last item). No Python is ever evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from droidpilot import typed
from droidpilot.bench import fields
from droidpilot.bench.effects import EffectsResult, judge
from droidpilot.errors import InputError
from droidpilot.regexguard import PatternTimeout, guarded
from droidpilot.typed.phrases import phrase_positions, words

OPERATORS = (
    "equals", "contains", "in", "exists", "matches", "length_at_least", "value", "declares_infeasible"
)
REPLY_ROOT = "agent"  # paths under it hold the agent's own text (a reply), not stored fields
COMBINATORS = ("all", "any", "not")
_MISSING = object()


class OracleError(InputError):
    """A predicate that is not valid oracle language; the message names where and how to fix it."""


@dataclass
class OracleResult:
    """The verdict and one line per leaf that was evaluated (what the path held and whether it passed)."""

    ok: bool
    checks: list[dict[str, Any]] = field(default_factory=list)
    effects: EffectsResult | None = None

    def to_dict(self) -> dict[str, Any]:
        """What ``oracle.json`` holds (``effects``: the changes found and what was wrong with them)."""
        out: dict[str, Any] = {"ok": self.ok, "checks": self.checks}
        if self.effects is not None:
            out["effects"] = self.effects.to_dict()
        return out


def validate(pred: Any, where: str = "oracle") -> None:
    """Raise OracleError naming ``where`` (e.g. ``oracle.all[1]``) for anything not in the language."""
    if not isinstance(pred, Mapping):
        raise OracleError(f"{where}: a predicate must be a mapping (all / any / not / a leaf with path), "
                          f"not {type(pred).__name__}")
    keys = set(pred)
    combos = keys & set(COMBINATORS)
    if combos:
        if len(keys) != 1:
            raise OracleError(f"{where}: '{sorted(combos)[0]}' must be the only key of its mapping; "
                              f"found also {sorted(keys - {sorted(combos)[0]})}")
        (name,) = combos
        value = pred[name]
        if name == "not":
            validate(value, f"{where}.not")
            return
        if not isinstance(value, list) or not value:
            raise OracleError(f"{where}.{name}: expected a non-empty list of predicates")
        for i, item in enumerate(value):
            validate(item, f"{where}.{name}[{i}]")
        return
    if "path" not in keys:
        raise OracleError(f"{where}: unknown keys {sorted(map(str, keys))}; use all, any, not, or a "
                          f"leaf {{path: ..., one of {', '.join(OPERATORS)}: ...}}")
    path = pred["path"]
    if not isinstance(path, str) or not path.strip() or any(not p for p in path.split(".")):
        raise OracleError(f"{where}.path: expected a dotted path such as settings.dark_mode, got {path!r}")
    ops = [k for k in keys if k != "path"]
    unknown = [k for k in ops if k not in OPERATORS]
    if unknown:
        raise OracleError(f"{where}: unknown operator {unknown[0]!r}; use one of {', '.join(OPERATORS)}")
    if len(ops) != 1:
        raise OracleError(f"{where}: a leaf needs exactly one operator (one of {', '.join(OPERATORS)}), "
                          f"found {len(ops)}")
    op, value = ops[0], pred[ops[0]]
    if op == "in" and not isinstance(value, list):
        raise OracleError(f"{where}.in: expected a list of values")
    if op == "exists" and not isinstance(value, bool):
        raise OracleError(f"{where}.exists: expected true or false")
    if op == "length_at_least" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise OracleError(f"{where}.length_at_least: expected a whole number >= 0")
    if op == "contains" and (value is None or isinstance(value, (list, dict))):
        raise OracleError(f"{where}.contains: expected a text or number to look for")
    if op == "value":
        problems = typed.validate_spec(value, f"{where}.value")
        if problems:
            raise OracleError("; ".join(problems))
    if op == "declares_infeasible" and not isinstance(value, bool):
        raise OracleError(f"{where}.declares_infeasible: expected true or false")
    if op == "matches":
        if not isinstance(value, str):
            raise OracleError(f"{where}.matches: expected a regular expression as text")
        try:
            guarded(value)
        except re.error as exc:
            raise OracleError(f"{where}.matches: invalid regular expression {value!r}: {exc}") from None


def resolve(state: Any, path: str) -> Any:
    """The value at dotted ``path`` in ``state`` (list indices allowed), or the module's MISSING marker."""
    node = state
    for part in path.split("."):
        if isinstance(node, Mapping):
            if part not in node:
                return _MISSING
            node = node[part]
        elif isinstance(node, list):
            try:
                index = int(part)
            except ValueError:
                return _MISSING
            if not -len(node) <= index < len(node):
                return _MISSING
            node = node[index]
        else:
            return _MISSING
    return node


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)
    elif value is not None:
        yield str(value).lower() if isinstance(value, bool) else str(value)


def _same(value: Any, want: Any) -> bool:
    """``equals``: records and lists exactly, a scalar as a stored field (``fields.plain_equal``)."""
    if isinstance(value, (Mapping, list)) or isinstance(want, (Mapping, list)):
        return bool(value == want)
    return fields.plain_equal(want, value)


def _holds(text: str, needle: str) -> bool:
    """``contains`` on one string: the needle as whole words, an underscore breaking words as in ids and
    URLs ("curry" in "curry_mix", "lakers" in "wiki/Los_Angeles_Lakers"); a needle of punctuation alone
    is looked for as text."""
    if not words(needle):
        return needle.lower() in text.lower()
    return bool(phrase_positions(needle.replace("_", " "), text.replace("_", " ")))


def _typed_leaf(path: str, spec: Mapping[str, Any], value: Any) -> tuple[bool, str]:
    """A ``value`` leaf: the agent's reply read as a sentence, any other field compared whole."""
    if path.split(".")[0] == REPLY_ROOT:
        result = typed.match(spec, value)
        return result.ok, result.reason
    return fields.typed_field(spec, value)


def _explained_leaf(pred: Mapping[str, Any], state: Any) -> tuple[bool, Any, str]:
    """(verdict, the value at the path, why) for any leaf; only typed leaves say why."""
    op = next(k for k in pred if k != "path")
    if op not in ("value", "declares_infeasible"):
        ok, value = _plain_leaf(pred, state)
        return ok, value, ""
    value = resolve(state, pred["path"])
    if op == "declares_infeasible":
        said = None if value is _MISSING else value
        declared = typed.declares_infeasible(None if said is None else str(said))
        why = "declares the task infeasible" if declared else "does not plainly declare the task infeasible"
        return declared == pred[op], value, why
    if value is _MISSING:
        return False, value, "the path holds nothing"
    ok, why = _typed_leaf(pred["path"], pred[op], value)
    return ok, value, why


def _plain_leaf(pred: Mapping[str, Any], state: Any) -> tuple[bool, Any]:
    value = resolve(state, pred["path"])
    op = next(k for k in pred if k != "path")
    want = pred[op]
    if op == "exists":
        present = value is not _MISSING and value is not None
        return present == want, value
    if value is _MISSING:
        return False, value
    if op == "equals":
        return _same(value, want), value
    if op == "in":
        return any(_same(value, w) for w in want), value
    if op == "contains":
        return any(_holds(s, str(want)) for s in _strings(value)), value
    if op == "matches":
        pattern = guarded(want)
        try:
            return any(pattern.search(s) for s in _strings(value)), value
        except PatternTimeout as exc:  # the task's author must fix it: no verdict is a guess
            raise OracleError(f"oracle leaf on {pred['path']!r}: matches: {exc}") from None
    if op == "length_at_least":
        return (isinstance(value, (list, dict, str)) and len(value) >= want), value
    raise OracleError(f"unknown operator {op!r}")  # validate() rules this out


def _short(value: Any) -> str:
    if value is _MISSING:
        return "<missing>"
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def _eval(pred: Mapping[str, Any], state: Any, checks: list[dict[str, Any]]) -> bool:
    if "all" in pred:
        results = [_eval(p, state, checks) for p in pred["all"]]
        return all(results)
    if "any" in pred:
        results = [_eval(p, state, checks) for p in pred["any"]]
        return any(results)
    if "not" in pred:
        return not _eval(pred["not"], state, checks)
    ok, value, why = _explained_leaf(pred, state)
    op = next(k for k in pred if k != "path")
    check = {"path": pred["path"], "op": op, "expected": pred[op], "actual": _short(value), "ok": ok}
    if why:
        check["why"] = why
    checks.append(check)
    return ok


def evaluate(pred: Mapping[str, Any], state: Mapping[str, Any] | None, *,
             start: Mapping[str, Any] | None = None, effects: Mapping[str, Any] | None = None
             ) -> OracleResult:
    """Evaluate a validated predicate on ``state``; with no state (a real phone) the verdict is False.
    With ``effects`` (validated declarations, ``bench/effects.py``) the changes from ``start`` to
    ``state`` must also be the ones allowed."""
    if state is None:
        return OracleResult(False, [{"path": "", "op": "state", "expected": "a SimPhone state",
                                     "actual": "<none: the device has no state()>", "ok": False}])
    checks: list[dict[str, Any]] = []
    ok = _eval(pred, state, checks) if pred else True
    if effects is None:
        return OracleResult(ok, checks)
    if start is None:
        found = EffectsResult(False, [], ["no start state was captured, so side effects cannot be judged"],
                              dict(effects))
    else:
        found = judge(effects, start, state)
    return OracleResult(ok and found.ok, checks, found)
