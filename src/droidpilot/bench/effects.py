"""Side effects: which changes to SimPhone's state a task allows, written as data in its template.

``effects`` maps a state path (``clock.alarms``, ``settings.dark_mode``, ``maps``) to what may change
there; a change is found under the declaration with the longest path that holds it, and a change no
declaration holds fails the task, named ("clock.alarms: also removed {time: 09:30, label: Gym}"):

- ``any``: free to change; ``unchanged``: nothing may change there;
- for a list, any of ``added: [...]``, ``removed: [...]`` (exactly these records added / removed, in
  any order: each item an expectation, see ``bench/fields.py``, so ``{amount: {type: money, equals:
  "181"}}`` reads amounts as money) and ``changed: [{match: {...}, set: {...}}]`` (a record matching
  ``match`` edited so its ``set`` fields match and its other fields are kept); a form left out means
  none of that kind;
- for any other value, ``set: EXPECTATION``: its final value.

A template that declares nothing gets ``default_effects``: the fields the oracle reads (``app.field``,
such as ``settings.dark_mode``) are free to change and nothing else may, not even another field of the
same app (Wi-Fi toggled on the way to dark mode fails); an infeasible task may change nothing at all.
Declaring a path of an app replaces that app's default. The incidental state (``statediff.INCIDENTAL``)
is never compared unless declared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from droidpilot.bench import fields
from droidpilot.bench.statediff import Change, diff, multiset_diff, show
from droidpilot.errors import InputError

FREE, FROZEN = "any", "unchanged"
LIST_FORMS = ("added", "removed", "changed")
FORMS = (*LIST_FORMS, "set")
PASS_THROUGH = ("foreground", "agent")  # oracle reads there grant no app a default


class EffectsError(InputError):
    """An ``effects`` declaration that is not valid; the message names where and how to fix it."""


def validate_effects(effects: Any, where: str = "effects", *, values: bool = True,
                     roots: frozenset[str] | None = None) -> None:
    """Raise EffectsError naming ``where`` for anything not in the language; ``values=False`` skips
    reading typed values (placeholders not filled yet); ``roots`` are the state's top-level keys."""
    if not isinstance(effects, Mapping):
        raise EffectsError(f"{where}: expected a mapping state path -> any | unchanged | {{added: [...], "
                           f"removed: [...], changed: [...]}} | {{set: ...}}, got {type(effects).__name__}")
    for path, entry in effects.items():
        here = f"{where}.{path}"
        parts = str(path).split(".")
        if not isinstance(path, str) or any(not p or p.lstrip("-").isdigit() for p in parts):
            raise EffectsError(f"{here}: expected a dotted state path without list indices "
                               f"(such as clock.alarms), got {path!r}")
        if roots is not None and parts[0] not in roots:
            raise EffectsError(f"{here}: the state has no {parts[0]!r} (known: {', '.join(sorted(roots))})")
        if entry in (FREE, FROZEN):
            continue
        if not isinstance(entry, Mapping) or not entry:
            raise EffectsError(f"{here}: expected any, unchanged or a mapping with {', '.join(FORMS)}")
        unknown = sorted(str(k) for k in entry if k not in FORMS)
        if unknown:
            raise EffectsError(f"{here}: unknown form(s) {unknown}; use {', '.join(FORMS)}")
        if "set" in entry and len(entry) > 1:
            raise EffectsError(f"{here}: `set` (a value's final state) does not mix with "
                               f"{', '.join(LIST_FORMS)}")
        problems: list[str] = []
        for form in ("added", "removed", "changed"):
            if form not in entry:
                continue
            items = entry[form]
            if not isinstance(items, list):
                raise EffectsError(f"{here}.{form}: expected a list of records")
            for i, item in enumerate(items):
                if form == "changed":
                    if not isinstance(item, Mapping) or set(item) != {"match", "set"}:
                        raise EffectsError(f"{here}.changed[{i}]: expected {{match: {{...}}, set: {{...}}}}")
                    if not isinstance(item["set"], Mapping) or not item["set"]:
                        raise EffectsError(f"{here}.changed[{i}].set: expected the edited fields")
                    problems += fields.check_expectation(item["match"], f"{here}.changed[{i}].match")
                    problems += fields.check_expectation(item["set"], f"{here}.changed[{i}].set")
                else:
                    problems += fields.check_expectation(item, f"{here}.{form}[{i}]")
        if "set" in entry:
            problems += fields.check_expectation(entry["set"], f"{here}.set")
        if values and problems:
            raise EffectsError("; ".join(problems))


def _oracle_paths(pred: Any) -> Iterator[str]:
    if isinstance(pred, Mapping):
        if "path" in pred:
            yield str(pred["path"])
        for key in ("all", "any"):
            for sub in pred.get(key) or []:
                yield from _oracle_paths(sub)
        if "not" in pred:
            yield from _oracle_paths(pred["not"])


def default_effects(oracle: Any, kind: str = "") -> dict[str, Any]:
    """What a task that declares nothing may change: every field its oracle reads, as ``app.field`` (the
    list ``notes.notes`` for ``notes.notes.-1.body``); nothing for an infeasible task, which must leave
    the phone as it found it."""
    if kind == "infeasible":
        return {}
    out: dict[str, Any] = {}
    for path in _oracle_paths(oracle):
        parts = path.split(".")
        if parts[0] in PASS_THROUGH:
            continue
        out[".".join(parts[:2])] = FREE
    return out


def effective(declared: Mapping[str, Any] | None, oracle: Any, kind: str = "") -> dict[str, Any]:
    """The declarations a task is judged by: its own, plus the default for apps it declares nothing in."""
    defaults = default_effects(oracle, kind)
    if not declared:
        return defaults
    mine = {str(p).split(".")[0] for p in declared}
    return {**{p: v for p, v in defaults.items() if p.split(".")[0] not in mine}, **declared}


@dataclass
class EffectsResult:
    """The verdict on side effects: the changes found and one line per problem."""

    ok: bool
    changes: list[Change] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    declared: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """What ``oracle.json`` shows under ``effects``."""
        return {"ok": self.ok, "declared": self.declared, "changes": [c.to_dict() for c in self.changes],
                "problems": self.problems}


def _owner(path: str, declared: Mapping[str, Any]) -> str | None:
    best = None
    for p in declared:
        if (path == p or path.startswith(p + ".")) and (best is None or len(p) > len(best)):
            best = p
    return best


def _resolve(state: Any, path: str) -> Any:
    node = state
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _assign(specs: list[Any], items: list[Any]) -> tuple[list[int], list[int]]:
    """Pair expectations with records one to one (augmenting paths); (unmatched specs, unmatched items)."""
    owner: dict[int, int] = {}  # item -> spec

    def place(s: int, seen: set[int]) -> bool:
        for i, item in enumerate(items):
            if i in seen or not fields.matches(specs[s], item):
                continue
            seen.add(i)
            if i not in owner or place(owner[i], seen):
                owner[i] = s
                return True
        return False

    lonely = [s for s in range(len(specs)) if not place(s, set())]
    return lonely, [i for i in range(len(items)) if i not in owner]


def _kept(spec: Mapping[str, Any], before: Any, after: Any) -> bool:
    """Whether ``after`` is ``before`` edited as ``spec`` says: ``set`` fields match, the rest kept."""
    if not fields.matches(spec["match"], before) or not fields.matches(spec["set"], after):
        return False
    if not (isinstance(before, Mapping) and isinstance(after, Mapping)):
        return True
    others = (set(before) | set(after)) - set(spec["set"])
    return all(show(before.get(k)) == show(after.get(k)) for k in others)


def _judge_list(path: str, entry: Mapping[str, Any], start: Any, final: Any) -> list[str]:
    before = start if isinstance(start, list) else [] if start is None else None
    after = final if isinstance(final, list) else [] if final is None else None
    if before is None or after is None:
        return [f"{path}: declared as a list, but the state holds {show(final if after is None else start)}"]
    added, removed = multiset_diff(before, after)
    problems = []
    for spec in entry.get("changed", []):
        pair = next(((r, a) for r in removed for a in added if _kept(spec, r, a)), None)
        if pair is None:
            problems.append(f"{path}: expected a record matching {show(spec['match'])} changed to "
                            f"{show(spec['set'])} (other fields kept); none was")
            continue
        removed.remove(pair[0])
        added.remove(pair[1])
    for form, found, verb in (("removed", removed, "removed"), ("added", added, "added")):
        specs = list(entry.get(form, []))
        lonely, extra = _assign(specs, found)
        problems += [f"{path}: expected {verb} {show(specs[s])}; no such record was {verb}" for s in lonely]
        problems += [f"{path}: also {verb} {show(found[i])}" for i in extra]
    return problems


def judge(declared: Mapping[str, Any], start: Mapping[str, Any], final: Mapping[str, Any]) -> EffectsResult:
    """Compare ``final`` with ``start`` under validated declarations; every change must be allowed."""
    changes = diff(start, final, keep=declared)
    problems: list[str] = []
    for change in changes:
        owner = _owner(change.path, declared)
        entry = declared.get(owner) if owner else None
        if entry == FREE:
            continue
        if isinstance(entry, Mapping) and "set" in entry:
            continue  # judged below by the final value
        if isinstance(entry, Mapping) and change.path == owner and change.is_list:
            continue  # judged below, record by record
        problems.append(_unexpected(change, owner))
    for path, entry in declared.items():
        if not isinstance(entry, Mapping):
            continue
        if "set" in entry:
            ok, why = fields.explain(entry["set"], _resolve(final, path))
            if not ok:
                problems.append(f"{path}: expected {show(entry['set'])}; {why}")
        else:
            problems += _judge_list(path, entry, _resolve(start, path), _resolve(final, path))
    return EffectsResult(not problems, changes, problems, dict(declared))


def _unexpected(change: Change, owner: str | None) -> str:
    where = "" if owner is None else f" (declared {owner!r} does not allow it)"
    if change.is_list:
        said = [f"added {show(x)}" for x in change.added] + [f"removed {show(x)}" for x in change.removed]
        return f"{change.path}: also {'; '.join(said)}{where}"
    return f"{change.path}: also changed from {show(change.before)} to {show(change.after)}{where}"


__all__ = ["EffectsError", "EffectsResult", "default_effects", "effective", "judge", "validate_effects"]
