"""Checking a checker's parameters against its ``params_spec`` and its own ``validate()``.

Unknown names get a did-you-mean; a key that is a known name with a stray ':' (YAML ``all:: [...]``
reads as the key ``all:``) is repaired with a warning, since the author's intent is plain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from droidpilot.datalimits import finite_number
from droidpilot.verify.checkers.base import ConditionChecker, Param
from droidpilot.verify.problems import did_you_mean

# (message, fix, offending key or None)
ParamProblem = tuple[str, str, Any]
WarnFn = Callable[[str, str, str], None]

_KIND_TEXT = {
    "str": "text",
    "str_list": "a list of strings",
    "str_or_list": "a string or a list of strings",
    "bool": "true or false",
    "number": "a finite number",
    "int": "a whole number",
    "dict": "a mapping",
    "list": "a list",
    "any": "any value",
}

_KIND_EXAMPLE = {
    "str": 'write it in quotes: "..."',
    "str_list": 'write a list: ["a", "b"]',
    "str_or_list": 'write "a" or ["a", "b"]',
    "bool": "write true or false",
    "number": "write a number such as 0.8",
    "int": "write a whole number such as 3",
    "dict": "write a mapping: {key: value}",
    "list": "write a list: [...]",
    "any": "",
}


def kind_of(value: Any) -> str:
    """A human name for the YAML type of ``value``."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    if value is None:
        return "null"
    return type(value).__name__


def matches_kind(value: Any, kind: str) -> bool:
    """Whether ``value`` has the declared Param kind."""
    if kind == "any":
        return True
    if kind == "str":
        return isinstance(value, str)
    if kind == "str_list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "str_or_list":
        return isinstance(value, str) or matches_kind(value, "str_list")
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "number":  # NaN and infinities compare with nothing and print as invalid JSON
        return finite_number(value)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "dict":
        return isinstance(value, dict)
    if kind == "list":
        return isinstance(value, list)
    return True


def check_params(checker: ConditionChecker, params: dict[str, Any], warn: WarnFn) -> list[ParamProblem]:
    """Every problem with ``params`` for ``checker``; repairs stray-colon keys in place (warning)."""
    spec: dict[str, Param] | None = dict(checker.params_spec) if checker.params_spec is not None else None
    problems: list[ParamProblem] = []
    if spec is not None:
        for key in list(params):
            if key in spec:
                continue
            repaired = key.strip().rstrip(":").strip() if isinstance(key, str) else None
            if repaired in spec and repaired not in params:
                _rename_key(params, key, repaired)
                warn(repaired, f"parameter '{key}' has a stray ':' and is read as '{repaired}'",
                     f"write '{repaired}:' with a single colon")
                continue
            problems.append((f"unknown parameter '{key}'{did_you_mean(str(key), spec)}",
                             f"{checker.name} takes: {', '.join(spec) or 'no parameters'}", key))
        for name, param in spec.items():
            if param.required and name not in params:
                hint = f" ({param.help})" if param.help else ""
                problems.append((f"missing required parameter '{name}'{hint}",
                                 f"add {name}: ...", None))
            elif name in params and not matches_kind(params[name], param.kind):
                value = params[name]
                problems.append((f"parameter '{name}' must be {_KIND_TEXT[param.kind]}, "
                                 f"not {kind_of(value)} {value!r}", _KIND_EXAMPLE[param.kind], name))
    if problems:
        return problems  # validate() may assume the declared types
    try:
        extra = checker.validate(params)
    except Exception as exc:  # a third-party validate() must not crash loading
        extra = [f"{checker.name} could not validate its parameters ({type(exc).__name__}: {exc})"]
    return [(message, "fix the parameters as described", None) for message in extra]


def _rename_key(params: dict[str, Any], old: Any, new: str) -> None:
    value = params.pop(old)
    params[new] = value
    lines = getattr(params, "key_lines", None)
    if lines is not None and old in lines:
        lines[new] = lines.pop(old)
