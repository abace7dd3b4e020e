"""Checkers of the screen's structure: ``ui_flag`` (the frame's UI state dict) and ``xml_text_match``
(the texts and content descriptions of the uiautomator dump's elements). Both pin to the screen event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.errors import InputError
from droidpilot.verify.checkers._exact import EXACT_PARAM, exact_problems, missing_exact
from droidpilot.verify.checkers._fields import MISSING, lookup_path
from droidpilot.verify.checkers._keywords import (
    as_list,
    contains_whole,
    fold,
    keyword_problems,
    match_keywords,
)
from droidpilot.verify.checkers._typed import (
    VALUE_PARAM,
    WHOLE_NUMBERS_PARAM,
    screen_shows,
    value_problems,
    value_specs,
)
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Param, Verdict, register_condition
from droidpilot.verify.frame import parse_ui_xml

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions

@register_condition("ui_flag")
class UiFlag(ConditionChecker):
    """A value of the frame's UI state: ``key`` (dotted paths reach nested values) and ``equals`` a value
    or is ``in`` a list; with neither, the value must be truthy (a boolean flag)."""

    reads = "screen"
    cost = 1
    params_spec: ClassVar[dict[str, Param]] = {
        "key": Param("str", required=True, help="the UI state key, e.g. screen or dialog.open"),
        "equals": Param("any", help="the value it must equal"),
        "in": Param("list", help="values it may take"),
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        if "equals" in params and "in" in params:
            return ["give either 'equals' or 'in', not both"]
        return []

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        key = params["key"]
        if hasattr(frame, "ui_state"):  # the one definition of the UI state (verify/uistate.py)
            ui = frame.ui_state()
        else:
            ui = frame.get("ui") if hasattr(frame, "get") else getattr(frame, "ui", None)
        value = lookup_path(ui or {}, key)
        if value is MISSING:
            return CheckResult(Verdict.NO, self.name, self.reads, reason=f"the UI state has no {key!r}")
        details = {"key": key, "value": value}
        if "equals" in params:
            ok, wanted = _same(value, params["equals"]), f"== {params['equals']!r}"
        elif "in" in params:
            ok, wanted = any(_same(value, v) for v in params["in"]), f"in {params['in']!r}"
        else:
            ok, wanted = bool(value), "truthy"
        verdict = Verdict.YES if ok else Verdict.NO
        return CheckResult(verdict, self.name, self.reads,
                           reason=f"ui[{key!r}] = {value!r} {'is' if ok else 'is not'} {wanted}",
                           details=details)


def _same(actual: Any, expected: Any) -> bool:
    # YAML may write a flag as true or "true"; a number as 3 or 3.0.
    if isinstance(actual, bool) or isinstance(expected, bool):
        return str(actual).lower() == str(expected).lower()
    return actual == expected


@register_condition("xml_text_match")
class XmlTextMatch(ConditionChecker):
    """Keywords (``any`` / ``all``) among the texts and content descriptions of the UI XML's elements.

    Only what an element shows is searched, never the raw markup, so attribute names and ids cannot
    match. A frame without a usable dump is undecided, since the screen may well show the keywords.
    ``whole_numbers`` keeps "181" from matching "1810"; ``value`` ({type: money, equals: "181"}) must be
    stated by some element's text or content description, read on its own, as a whole token. ``exact``
    texts must each be some element's entire label (a typed value shown whole, not inside a longer text).
    """

    reads = "screen"
    cost = 3
    params_spec: ClassVar[dict[str, Param]] = {
        "any": Param("str_or_list", help="one of these keywords must be shown"),
        "all": Param("str_or_list", help="every one of these keywords must be shown"),
        "ignore_case": Param("bool", help="compare case-insensitively (default true)"),
        "whole_numbers": WHOLE_NUMBERS_PARAM,
        "value": VALUE_PARAM,
        "exact": EXACT_PARAM,
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        problems = exact_problems(params, "xml_text_match") + value_problems(params)
        if "exact" not in params or "any" in params or "all" in params:  # exact alone is a whole check
            problems = keyword_problems(params, "xml_text_match", typed=True) + problems
        return problems

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        problems = value_problems(params)
        if problems:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason="; ".join(problems))
        xml_text = (frame.get("xml_text") or frame.get("xml")) if hasattr(frame, "get") else None
        if not xml_text or not str(xml_text).strip() or "hierarchy_dump_failed" in str(xml_text)[:200]:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads,
                               reason="the frame has no UI XML dump")
        try:
            elements = (frame.elements() if hasattr(frame, "elements")
                        else parse_ui_xml(str(xml_text), source="frame XML"))
        except InputError as exc:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason=str(exc))
        labels = [label for el in elements for label in (el.text, el.content_desc) if label]
        ignore_case = bool(params.get("ignore_case", True))
        whole = bool(params.get("whole_numbers"))
        details: dict[str, Any] = {}
        reasons: list[str] = []
        ok = True
        if params.get("any") or params.get("all"):
            match = match_keywords(labels, params.get("any"), params.get("all"), ignore_case, whole)
            details = match.details()

            def has(word: str, label: str) -> bool:
                needle, hay = fold(word, ignore_case), fold(label, ignore_case)
                return contains_whole(needle, hay) if whole else needle in hay

            if match.found:
                details["elements"] = [
                    {"label": el.label, "bounds": list(el.bounds) if el.bounds else None}
                    for el in elements
                    if any(has(w, el.text) or has(w, el.content_desc) for w in match.found)
                ][:10]
            ok = match.ok
            reasons.append(f"XML shows {match.found}" if match.ok else f"XML: {match.reason}")
        specs = value_specs(params)
        if specs:
            typed = screen_shows(specs, labels)
            ok = ok and typed.ok
            reasons.append(f"XML: {typed.reason}")
            details["value"] = typed.details
        if "exact" in params:
            missing = missing_exact(as_list(params["exact"]), labels)
            ok = ok and not missing
            reasons.append(f"XML: no element's whole label is {missing}" if missing
                           else f"XML shows whole {as_list(params['exact'])}")
            details["exact_missing"] = missing
        verdict = Verdict.YES if ok else Verdict.NO
        return CheckResult(verdict, self.name, self.reads, reason="; ".join(reasons), details=details)
