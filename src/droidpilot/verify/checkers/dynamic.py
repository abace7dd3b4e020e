"""``dynamic_match``: the condition is chosen by trigger keywords in the task description.

One rule file can then serve a family of tasks ("search for X" / "add X to the cart"). Parameters::

    type: dynamic_match
    params:
      fields: [text, reasoning, action.text]   # where keywords are looked for (default: [text])
      ignore_case: true                         # default true
      rules:                                    # tried in order; the first whose trigger matches decides
        - trigger: [搜索, search]               # any of these in the task description selects the rule
          any: [搜索]                           # then: one of these keywords in the fields ...
          all: [结果]                           # ... and every one of these (either or both)
          fields: [text]                        # optional, overrides the top-level fields
      default: {any: [完成]}                    # used when no trigger matches (optional)

With no trigger matched and no ``default`` the answer is no, saying so. Fields are dotted paths into
the frame (``text``, ``reasoning``, ``action.text``, ``action.type``, ``app``, ``ui.screen``); lists
and numbers are searched as text.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.verify.checkers._fields import MISSING, frame_field
from droidpilot.verify.checkers._keywords import as_list, fold, keyword_problems, match_keywords
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Param, Verdict, register_condition

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions

DEFAULT_FIELDS = ("text",)
_RULE_KEYS = ("trigger", "any", "all", "fields")
_DEFAULT_KEYS = ("any", "all", "fields")


def _field_texts(frame: Any, fields: list[str]) -> list[str]:
    texts: list[str] = []
    for path in fields:
        value = frame_field(frame, path)
        if value is MISSING:
            continue
        if isinstance(value, (list, tuple)):
            texts.extend(str(v) for v in value if v is not None)
        else:
            texts.append(str(value))
    return texts


def _task_description(frame: Any, options: Any) -> str:
    desc = frame.get("task_description") if hasattr(frame, "get") else getattr(frame, "task_description", "")
    if not desc and options is not None:
        desc = getattr(options, "extra", {}).get("task_description", "")
    return str(desc or "")


@register_condition("dynamic_match")
class DynamicMatch(ConditionChecker):
    """Keywords chosen by the task description (see the module docstring for the parameters)."""

    reads = "action"
    cost = 2
    params_spec: ClassVar[dict[str, Param]] = {
        "rules": Param("list", help="[{trigger, any|all, fields}] tried in order"),
        "default": Param("dict", help="{any|all, fields} used when no trigger matches"),
        "fields": Param("str_list", help="frame fields searched (default [text])"),
        "ignore_case": Param("bool", help="compare case-insensitively (default true)"),
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        problems: list[str] = []
        rules = params.get("rules") or []
        if not rules and not params.get("default"):
            problems.append("dynamic_match needs 'rules' (a list of {trigger, any|all}) and/or 'default'")
        for i, rule in enumerate(rules if isinstance(rules, list) else []):
            where = f"rules[{i}]"
            if not isinstance(rule, dict):
                problems.append(f"{where} must be a mapping like {{trigger: [...], any: [...]}}")
                continue
            problems += _part_problems(rule, where, _RULE_KEYS)
            if not as_list(rule.get("trigger")):
                problems.append(f"{where} needs 'trigger': keywords of the task description")
        if isinstance(params.get("default"), dict):
            problems += _part_problems(params["default"], "default", _DEFAULT_KEYS)
        return problems

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        ignore_case = bool(params.get("ignore_case", True))
        description = _task_description(frame, options)
        chosen: dict[str, Any] | None = None
        details: dict[str, Any] = {}
        for i, rule in enumerate(params.get("rules") or []):
            hit = next((t for t in as_list(rule.get("trigger"))
                        if fold(t, ignore_case) in fold(description, ignore_case)), None)
            if hit is not None:
                chosen, details = rule, {"rule": i, "trigger": hit}
                break
        if chosen is None:
            chosen = params.get("default")
            if not chosen:
                return CheckResult(Verdict.NO, self.name, self.reads,
                                   reason=f"no trigger matched the task description {description!r} "
                                          "and there is no default")
            details = {"rule": "default"}
        fields = list(chosen.get("fields") or params.get("fields") or DEFAULT_FIELDS)
        texts = _field_texts(frame, fields)
        match = match_keywords(texts, chosen.get("any"), chosen.get("all"), ignore_case)
        details.update(fields=fields, **match.details())
        verdict = Verdict.YES if match.ok else Verdict.NO
        which = f"rule {details['rule']}"
        reason = f"{which}: {fields} contain {match.found}" if match.ok else f"{which}: {match.reason}"
        return CheckResult(verdict, self.name, self.reads, reason=reason, details=details)


def _part_problems(part: dict[str, Any], where: str, allowed: tuple[str, ...]) -> list[str]:
    problems = []
    for key in part:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            problems.append(f"{where} has unknown key '{key}'{hint}; allowed: {', '.join(allowed)}")
    for key in ("trigger", "any", "all"):
        value = part.get(key)
        if value is not None and not (isinstance(value, str) or (
                isinstance(value, list) and all(isinstance(v, str) for v in value))):
            problems.append(f"{where}.{key} must be a string or a list of strings")
    fields = part.get("fields")
    if fields is not None and not (isinstance(fields, list) and all(isinstance(v, str) for v in fields)):
        problems.append(f"{where}.fields must be a list of field names such as [text, action.text]")
    if not problems:
        problems += [f"{where}: {p}" for p in keyword_problems(part, "the rule")]
    return problems
