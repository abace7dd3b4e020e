"""Checkers of the agent's text (its reasoning, action and parameters): ``text_match`` and ``regex_match``.

Both read ``frame.text`` and pin to the action event, because that text describes what the agent did.
A typed ``value`` (see ``_typed``) is read as a reply: the text (for ``regex_match`` the match's first
group, or the whole match) must state exactly that one value of its type.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.regexguard import GuardedPattern, PatternTimeout, guarded
from droidpilot.verify.checkers._keywords import keyword_problems, match_keywords
from droidpilot.verify.checkers._patterns import timed_out
from droidpilot.verify.checkers._typed import (
    VALUE_PARAM,
    WHOLE_NUMBERS_PARAM,
    reply_states,
    value_problems,
    value_specs,
)
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Param, Verdict, register_condition

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions


def frame_text(frame: Any) -> str:
    """The free text of a frame (a Frame or a MobiFlow frame dict); "" when it has none."""
    value = frame.get("text") if hasattr(frame, "get") else getattr(frame, "text", "")
    return value if isinstance(value, str) else ("" if value is None else str(value))


@register_condition("text_match")
class TextMatch(ConditionChecker):
    """Keywords in the frame's text: ``any`` (one suffices) and/or ``all`` (every one); case-insensitive
    unless ``ignore_case: false``; ``whole_numbers`` keeps "181" from matching "1810". ``value``: the
    text states exactly this one typed value ({type: money, equals: "181"})."""

    reads = "action"
    cost = 1
    params_spec: ClassVar[dict[str, Param]] = {
        "any": Param("str_or_list", help="one of these keywords must appear"),
        "all": Param("str_or_list", help="every one of these keywords must appear"),
        "ignore_case": Param("bool", help="compare case-insensitively (default true)"),
        "whole_numbers": WHOLE_NUMBERS_PARAM,
        "value": VALUE_PARAM,
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        return keyword_problems(params, "text_match", typed=True) + value_problems(params)

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        problems = value_problems(params)
        if problems:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason="; ".join(problems))
        text = frame_text(frame)
        if not text:
            return CheckResult(Verdict.NO, self.name, self.reads, reason="the frame has no text")
        reasons: list[str] = []
        details: dict[str, Any] = {}
        ok = True
        if params.get("any") or params.get("all"):
            match = match_keywords([text], params.get("any"), params.get("all"),
                                   bool(params.get("ignore_case", True)), bool(params.get("whole_numbers")))
            ok = match.ok
            reasons.append(f"text contains {match.found}" if match.ok else f"text: {match.reason}")
            details.update(match.details())
        specs = value_specs(params)
        if specs:
            typed = reply_states(specs, text)
            ok = ok and typed.ok
            reasons.append(f"text: {typed.reason}")
            details["value"] = typed.details
        verdict = Verdict.YES if ok else Verdict.NO
        return CheckResult(verdict, self.name, self.reads, reason="; ".join(reasons), details=details)


def compile_pattern(pattern: str, ignore_case: bool) -> GuardedPattern:
    """Compile once per (pattern, flags) (the same rule is checked against many frames), with a deadline
    on each search: a pattern that backtracks without end is undecided, not a hung verifier."""
    return guarded(pattern, re.IGNORECASE if ignore_case else 0)


@register_condition("regex_match")
class RegexMatch(ConditionChecker):
    """A regular expression searched in the frame's text (``pattern``, ``ignore_case`` default false).
    ``value``: what it matched (its first group, else the whole match) states exactly this typed value;
    every match is tried, so ``Total: (.+)`` finds the total wherever it is said."""

    reads = "action"
    cost = 2
    params_spec: ClassVar[dict[str, Param]] = {
        "pattern": Param("str", required=True, help="a Python regular expression, searched anywhere"),
        "ignore_case": Param("bool", help="case-insensitive search (default false)"),
        "value": VALUE_PARAM,
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        problems = value_problems(params)
        pattern = params.get("pattern")
        if not isinstance(pattern, str):
            return problems
        try:
            compile_pattern(pattern, bool(params.get("ignore_case", False)))
        except re.error as exc:
            return [f"invalid regular expression {pattern!r}: {exc}", *problems]
        return problems

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        problems = value_problems(params)
        if problems:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason="; ".join(problems))
        pattern = compile_pattern(params["pattern"], bool(params.get("ignore_case", False)))
        text = frame_text(frame)
        try:
            found = pattern.search(text)
            specs = value_specs(params)
            if found is not None and specs:
                return self._typed(pattern, text, specs)
        except PatternTimeout as exc:
            return timed_out(self.name, self.reads, exc)
        if found is None:
            why = (f"pattern {pattern.pattern!r} not found in the text" if text
                   else "the frame has no text")
            return CheckResult(Verdict.NO, self.name, self.reads, reason=why)
        return CheckResult(Verdict.YES, self.name, self.reads,
                           reason=f"pattern {pattern.pattern!r} matched {found.group(0)!r}",
                           details={"match": found.group(0), "span": list(found.span())})

    def _typed(self, pattern: GuardedPattern, text: str, specs: list[dict[str, Any]]) -> CheckResult:
        """Yes when some match's first group (or the whole match) states every value of ``specs``."""
        tried = []
        for found in pattern.findall_matches(text):
            said = found.group(1) if pattern.groups and found.group(1) is not None else found.group(0)
            typed = reply_states(specs, said)
            if typed.ok:
                return CheckResult(Verdict.YES, self.name, self.reads,
                                   reason=f"pattern {pattern.pattern!r} matched {said!r}: {typed.reason}",
                                   details={"match": said, "span": list(found.span()),
                                            "value": typed.details})
            tried.append(typed.reason)
        return CheckResult(Verdict.NO, self.name, self.reads,
                           reason=f"pattern {pattern.pattern!r} matched, but {tried[0]}"
                           + (f" (and {len(tried) - 1} other match(es))" if len(tried) > 1 else ""),
                           details={"tried": tried[:5]})
