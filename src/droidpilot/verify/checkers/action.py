"""``action_match``: the frame's action has a given type and its fields contain given values.

``contains`` is a real containment test, field by field: a string must be a substring of the action's
field (case-insensitive), a list a subset of it, a number or boolean equal to it, a mapping contained
recursively. Dotted names reach nested fields (``parameters.text``).

Typed reading of one text field (``field``, default ``text``: an ``answer`` action's reply): ``value``
({type: money, equals: "181"}) must be the one value of its type the field states, so "$1810" and
"$181 or $1810" fail for $181 and "$181.00" passes; ``declares: infeasible`` holds when the field plainly
declares the task impossible ("This cannot be done in the app"), not when it negates or hedges that
("It is not infeasible, I applied."). ``exact`` (one text or a list): the field is, whole, one of them
(case, spacing and final punctuation aside), so ``exact: Send`` is a tap on "Send", not on "Send money".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.verify.checkers._fields import MISSING, lookup_path
from droidpilot.verify.checkers._keywords import as_list
from droidpilot.verify.checkers._typed import VALUE_PARAM, reply_states, value_problems, value_specs
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Param, Verdict, register_condition

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions


def contains(actual: Any, expected: Any) -> bool:
    """Does ``actual`` contain ``expected``? (substring / subset / equality / recursive mapping)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and contains(actual[key], value) for key, value in expected.items())
    if isinstance(expected, list):
        if isinstance(actual, list):
            return all(any(_equal_or_within(a, e) for a in actual) for e in expected)
        if isinstance(actual, str):
            return all(isinstance(e, str) and e.casefold() in actual.casefold() for e in expected)
        return False
    if isinstance(expected, str):
        if isinstance(actual, str):
            return expected.casefold() in actual.casefold()
        if isinstance(actual, list):
            return any(isinstance(a, str) and expected.casefold() in a.casefold() for a in actual)
        return actual is not None and not isinstance(actual, (dict, bool)) and str(actual) == expected
    if isinstance(expected, bool) or expected is None:
        return actual is expected or (isinstance(actual, bool) and actual == expected)
    if isinstance(expected, (int, float)):
        if isinstance(actual, bool):
            return False
        if isinstance(actual, (int, float)):
            return actual == expected
        if isinstance(actual, str):
            try:
                return float(actual) == float(expected)
            except ValueError:
                return False
        return False
    return actual == expected


def _equal_or_within(actual: Any, expected: Any) -> bool:
    if isinstance(expected, str) and isinstance(actual, str):
        return actual.casefold() == expected.casefold()
    return contains(actual, expected)


DECLARATIONS = ("infeasible",)


def frame_action(frame: Any) -> dict[str, Any] | None:
    """The action dict of a Frame or a MobiFlow frame dict, or None when the frame has none."""
    action = frame.get("action") if hasattr(frame, "get") else getattr(frame, "action", None)
    return action if isinstance(action, dict) and action else None


@register_condition("action_match")
class ActionMatch(ConditionChecker):
    """The action's ``type`` (one name or a list of names) and/or the values its fields ``contains``."""

    reads = "action"
    cost = 1
    params_spec: ClassVar[dict[str, Param]] = {
        "type": Param("str_or_list", help="action type(s): click, input, swipe, wait, done, ..."),
        "contains": Param("dict", help="field -> value the action's field must contain"),
        "value": VALUE_PARAM,
        "declares": Param("str", help="infeasible: the field plainly declares the task impossible"),
        "exact": Param("str_or_list", help="the field is, whole, one of these texts (a tap on 'Send', "
                                           "not on 'Send money')"),
        "field": Param("str", help="the action field that value / declares / exact read (default text)"),
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        problems = value_problems(params)
        if not any(key in params for key in ("type", "contains", "value", "declares", "exact")):
            problems.append("action_match needs 'type', 'contains', 'value', 'declares' or 'exact'")
        if "exact" in params and not [t for t in as_list(params["exact"]) if t.strip()]:
            problems.append("'exact' names no text; give the whole text the field must be")
        if "declares" in params and params["declares"] not in DECLARATIONS:
            problems.append(f"'declares' is {params['declares']!r}; the one declaration read is "
                            f"{', '.join(DECLARATIONS)}")
        if "field" in params and not any(k in params for k in ("value", "declares", "exact")):
            problems.append("'field' names the field that 'value', 'declares' or 'exact' read; "
                            "give one of them")
        if "field" in params and not str(params["field"]).strip():
            problems.append("'field' is empty; name an action field such as text")
        if "type" in params and not as_list(params["type"]):
            problems.append("'type' names no action type")
        if isinstance(params.get("contains"), dict) and not params["contains"]:
            problems.append("'contains' is empty")
        return problems

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        problems = value_problems(params)
        if problems:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason="; ".join(problems))
        action = frame_action(frame)
        if action is None:
            return CheckResult(Verdict.NO, self.name, self.reads, reason="the frame has no action")
        details: dict[str, Any] = {"action_type": action.get("type")}
        if "type" in params:
            wanted = [t.casefold() for t in as_list(params["type"])]
            actual_type = str(action.get("type", "")).casefold()
            if actual_type not in wanted:
                why = f"action type {action.get('type')!r} is not {as_list(params['type'])}"
                return CheckResult(Verdict.NO, self.name, self.reads, details=details, reason=why)
        failed = {}
        for field_name, expected in (params.get("contains") or {}).items():
            actual = lookup_path(action, str(field_name))
            if actual is MISSING or not contains(actual, expected):
                failed[field_name] = None if actual is MISSING else actual
        if failed:
            details["mismatched"] = failed
            return CheckResult(Verdict.NO, self.name, self.reads, details=details,
                               reason=f"action fields {sorted(failed)} do not contain the expected values")
        if "contains" in params:
            details["contains"] = params["contains"]
        refusal, note = self._read_field(action, params, details)
        if refusal is not None:
            return refusal
        return CheckResult(Verdict.YES, self.name, self.reads, details=details,
                           reason=f"action {action.get('type')!r} matches" + note)

    def _read_field(self, action: dict[str, Any], params: dict[str, Any],
                    details: dict[str, Any]) -> tuple[CheckResult | None, str]:
        """The typed checks of the ``field`` (``value``, ``declares``): (a "no" result or None when they
        hold or none is asked for, what was read for the "yes" reason)."""
        specs = value_specs(params)
        declares = params.get("declares")
        exact = as_list(params.get("exact"))
        if not specs and declares is None and not exact:
            return None, ""
        name = str(params.get("field", "text"))
        raw = lookup_path(action, name)
        text = "" if raw is MISSING or raw is None else str(raw)
        reasons = []
        if exact:
            from droidpilot.typed.phrases import fold

            if fold(text) not in {fold(t) for t in exact}:
                return CheckResult(Verdict.NO, self.name, self.reads, details=details,
                                   reason=f"action field {name!r} ({text[:80]!r}) is not {exact}"), ""
            reasons.append(f"is {text!r}")
        if specs:
            typed = reply_states(specs, text)
            details["value"] = typed.details
            reasons.append(typed.reason)
            if not typed.ok:
                return CheckResult(Verdict.NO, self.name, self.reads, details=details,
                                   reason=f"action field {name!r}: {typed.reason}"), ""
        if declares is not None:
            from droidpilot.typed import declares_infeasible

            if not declares_infeasible(text):
                return CheckResult(Verdict.NO, self.name, self.reads, details=details,
                                   reason=f"action field {name!r} ({text[:80]!r}) does not plainly declare "
                                          "the task infeasible"), ""
            reasons.append("declares the task infeasible")
        return None, f"; field {name!r}: " + "; ".join(reasons)
