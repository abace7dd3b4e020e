"""Checkers of the agent's text (its reasoning, action and parameters): ``text_match`` and ``regex_match``.

Both read ``frame.text`` and pin to the action event, because that text describes what the agent did.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.verify.checkers._keywords import keyword_problems, match_keywords
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
    unless ``ignore_case: false``."""

    reads = "action"
    cost = 1
    params_spec: ClassVar[dict[str, Param]] = {
        "any": Param("str_or_list", help="one of these keywords must appear"),
        "all": Param("str_or_list", help="every one of these keywords must appear"),
        "ignore_case": Param("bool", help="compare case-insensitively (default true)"),
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        return keyword_problems(params, "text_match")

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        text = frame_text(frame)
        if not text:
            return CheckResult(Verdict.NO, self.name, self.reads, reason="the frame has no text")
        match = match_keywords([text], params.get("any"), params.get("all"),
                               bool(params.get("ignore_case", True)))
        verdict = Verdict.YES if match.ok else Verdict.NO
        reason = f"text contains {match.found}" if match.ok else f"text: {match.reason}"
        return CheckResult(verdict, self.name, self.reads, reason=reason, details=match.details())


@functools.lru_cache(maxsize=512)
def compile_pattern(pattern: str, ignore_case: bool) -> re.Pattern[str]:
    """Compile once per (pattern, flags): the same rule is checked against many frames."""
    return re.compile(pattern, re.IGNORECASE if ignore_case else 0)


@register_condition("regex_match")
class RegexMatch(ConditionChecker):
    """A regular expression searched in the frame's text (``pattern``, ``ignore_case`` default false)."""

    reads = "action"
    cost = 2
    params_spec: ClassVar[dict[str, Param]] = {
        "pattern": Param("str", required=True, help="a Python regular expression, searched anywhere"),
        "ignore_case": Param("bool", help="case-insensitive search (default false)"),
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        pattern = params.get("pattern")
        if not isinstance(pattern, str):
            return []
        try:
            compile_pattern(pattern, bool(params.get("ignore_case", False)))
        except re.error as exc:
            return [f"invalid regular expression {pattern!r}: {exc}"]
        return []

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        pattern = compile_pattern(params["pattern"], bool(params.get("ignore_case", False)))
        text = frame_text(frame)
        found = pattern.search(text)
        if found is None:
            why = (f"pattern {pattern.pattern!r} not found in the text" if text
                   else "the frame has no text")
            return CheckResult(Verdict.NO, self.name, self.reads, reason=why)
        return CheckResult(Verdict.YES, self.name, self.reads,
                           reason=f"pattern {pattern.pattern!r} matched {found.group(0)!r}",
                           details={"match": found.group(0), "span": list(found.span())})
