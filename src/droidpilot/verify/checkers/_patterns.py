"""The undecided answer of a checker whose regular expression ran out of time (``regexguard``)."""

from __future__ import annotations

from droidpilot.regexguard import PatternTimeout
from droidpilot.verify.checkers.base import CheckResult, Event, Verdict

TIMED_OUT = "timed_out"  # the details key the engine looks for to add the rule file, line and node


def timed_out(checker: str, event: Event, exc: PatternTimeout) -> CheckResult:
    """Undecided (so a verdict it could change asks for review), saying which pattern and why."""
    return CheckResult(Verdict.UNDECIDED, checker, event, reason=str(exc),
                       details={TIMED_OUT: {"pattern": exc.pattern, "seconds": exc.seconds,
                                            "text_length": exc.text_length}})
