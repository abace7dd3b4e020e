"""Validation of one node's ``condition``: its checker type and parameters, combinators' sub-checkers.

Mixed into the rule validator of ``verify.spec``; reports through its ``problem`` / ``warn`` methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from droidpilot.verify.checkers import get_checker, registered_names
from droidpilot.verify.checkers.base import SUBCHECKER_ALIASES, canonical_name
from droidpilot.verify.checkers.combinators import OPTION_KEYS, SUB_NAMES, order_problems, split_params
from droidpilot.verify.problems import did_you_mean
from droidpilot.verify.spec.params import check_params
from droidpilot.verify.spec.params import kind_of as _kind
from droidpilot.verify.spec.yaml_text import LineDict
from droidpilot.verify.spec.yaml_text import key_line as _key_line

# Checker types the perception layer provides; valid even while its modules are not installed.
PERCEPTION_TYPES: tuple[str, ...] = ("ocr_match", "icons_match", "llm")
COMBINATORS: tuple[str, ...] = ("escalate", "juxtaposition")


class ConditionChecks:
    """Condition checks of the rule validator (which supplies ``problem`` and ``warn``)."""

    # (line, node, message, fix): supplied by the validator this is mixed into
    problem: Callable[..., None]
    warn: Callable[..., None]

    def _condition(self, node: dict[str, Any], label: str | None) -> None:
        cond = node.get("condition")
        if cond is None:
            return
        line = _key_line(node, "condition")
        if not isinstance(cond, dict):
            self.problem(line, label, f"condition must be a mapping, not a {_kind(cond)}",
                         "write condition: {type: <checker>, params: {...}}")
            return
        self._duplicate_keys(cond, label)
        ctype = cond.get("type")
        if not isinstance(ctype, str) or not ctype:
            self.problem(_key_line(cond, "type") or line, label, "condition has no checker type",
                         "add type: escalate (or text_match, ocr_match, llm, ...)")
            return
        params = cond.get("params")
        if params is None:
            params = cond["params"] = LineDict()
        if not isinstance(params, dict):
            self.problem(_key_line(cond, "params"), label,
                         f"params must be a mapping, not a {_kind(params)}", "write params: {key: value}")
            return
        for key in [k for k in cond if k not in ("type", "params")]:
            if _belongs_in_params(ctype, key) and key not in params:
                self.warn(_key_line(cond, key), label,
                          f"'{key}' stands beside type: instead of under params:; read as params.{key}",
                          f"indent '{key}' under params:")
                _move_key(cond, params, key)
            else:
                self.problem(_key_line(cond, key), label, f"condition has an unknown key '{key}'"
                             f"{did_you_mean(str(key), ('type', 'params'))}",
                             "a condition has only type: and params:")
        self._checker(ctype, params, label, _key_line(cond, "type") or line, _key_line(cond, "params"))

    def _checker(self, ctype: str, params: dict[str, Any], label: str | None, type_line: int | None,
                 params_line: int | None) -> None:
        name = canonical_name(ctype)
        known = set(registered_names()) | set(PERCEPTION_TYPES)
        if name not in known:
            choices = sorted(known | set(SUBCHECKER_ALIASES))
            self.problem(type_line, label, f"unknown checker type '{ctype}'{did_you_mean(ctype, choices)}",
                         f"use one of: {', '.join(sorted(known))}")
            return
        if name in COMBINATORS:
            self._combinator(name, params, label, params_line)
            return
        self._leaf(name, params, label, params_line, prefix=name)

    def _combinator(self, name: str, params: dict[str, Any], label: str | None,
                    params_line: int | None) -> None:
        split = split_params(params, name)
        keys = sorted(SUBCHECKER_ALIASES)
        choices = [*keys, *SUBCHECKER_ALIASES.values(), *OPTION_KEYS[name]]
        for key in split.unknown:
            if any(key in keys_ for other, keys_ in OPTION_KEYS.items() if other != name):
                self.problem(_key_line(params, key, params_line), label,
                             f"'{key}' applies only to escalate, not to {name}", f"remove '{key}'")
                continue
            self.problem(_key_line(params, key, params_line), label,
                         f"{name} has an unknown sub-checker '{key}'{did_you_mean(str(key), choices)}",
                         f"use one of: {', '.join(keys)}")
        for key, message in split.problems:
            self.problem(_key_line(params, key, params_line), label, f"{name}: {message}",
                         "keep one entry per checker, each a mapping of its parameters")
        if "escalation_order" in split.options:
            for message in order_problems(split.options["escalation_order"]):
                self.problem(_key_line(params, "escalation_order", params_line), label, message,
                             f"use keys from: {', '.join(keys)}")
        if not split.subs and not split.unknown and not split.problems:
            self.problem(params_line, label, f"{name} has no sub-checkers",
                         f"add at least one of: {', '.join(keys)}")
        for sub in split.subs:
            value = params.get(sub.key)
            sub_params = sub.params
            if isinstance(value, dict) and value is not sub.params and isinstance(value.get("params"), dict):
                sub_params = value["params"]  # the nested form {type, params}: keep its lines
            self._leaf(sub.name, sub_params, label, _key_line(params, sub.key, params_line),
                       prefix=f"{name}.{sub.key}")

    def _leaf(self, name: str, params: dict[str, Any], label: str | None, line: int | None,
              prefix: str) -> None:
        try:
            checker = get_checker(name)
        except KeyError:
            return  # a perception checker that is not installed: its parameters cannot be checked here
        for message, fix, key in check_params(checker, params, self.warn_param(label, line, params, prefix)):
            self.problem(_key_line(params, key, line) if key is not None else line, label,
                         f"{prefix}: {message}", fix)

    def warn_param(self, label: str | None, line: int | None, params: dict[str, Any], prefix: str):
        """A callback check_params uses to report a repaired key as a warning."""

        def warn(key: str, message: str, fix: str) -> None:
            self.warn(_key_line(params, key, line), label, f"{prefix}: {message}", fix)

        return warn


def _belongs_in_params(ctype: str, key: Any) -> bool:
    """Is ``key`` (found beside ``type:``) plainly a parameter of checker ``ctype``?"""
    name = canonical_name(ctype)
    if name in COMBINATORS:
        return key in SUB_NAMES or key in OPTION_KEYS[name]
    try:
        spec = get_checker(name).params_spec
    except KeyError:
        return False
    return spec is not None and key in spec


def _move_key(source: dict[str, Any], target: dict[str, Any], key: Any) -> None:
    target[key] = source.pop(key)
    if isinstance(source, LineDict) and isinstance(target, LineDict) and key in source.key_lines:
        target.key_lines[key] = source.key_lines.pop(key)
