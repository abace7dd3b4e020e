"""Regular expressions that people write (rule checkers, world oracles, UiSelector ``...Matches``, the
simulated shell's grep), run with a deadline.

Python's ``re`` has no timeout: a pattern with a repeat inside a repeat (``(a|aa)+$`` against thirty 'a's
and a '!') backtracks for minutes. ``re`` still judges a pattern's syntax, so what it rejects, and its
messages, stay as they were; the ``regex`` package, in its re-compatible VERSION0, runs the pattern with a
timeout and ``PatternTimeout`` says so, for each caller to turn into its own clear answer.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from droidpilot.errors import DroidpilotError

if TYPE_CHECKING:
    import regex

# Ordinary patterns answer in microseconds on a screen's text; half a second is ~10^4 times that. The
# regex package checks its clock as it backtracks, so a timeout fires within a few times this under load.
MATCH_SECONDS = 0.5
# A pattern that timed out once gets this much for each later match: a trace of 100 frames then costs
# seconds, not 100 timeouts, while a pattern that is merely slow on one text still judges the others.
AFTER_TIMEOUT_SECONDS = 0.05

_FLAG_NAMES = ("IGNORECASE", "MULTILINE", "DOTALL", "VERBOSE", "ASCII", "UNICODE")


class PatternTimeout(DroidpilotError):
    """A pattern found no answer within its deadline on a text (it backtracks catastrophically)."""

    def __init__(self, pattern: str, seconds: float, text_length: int) -> None:
        self.pattern, self.seconds, self.text_length = pattern, seconds, text_length
        super().__init__(
            f"regular expression {pattern!r} timed out after {seconds:g} s on {text_length} characters of "
            "text: it backtracks without end (a repeat inside a repeat, such as (a+)+ or (a|aa)+); rewrite "
            "it so each part of the text can be matched only one way (e.g. a+ instead of (a+)+)")


def _regex_flags(flags: int) -> int:
    import regex  # only a rule or oracle that runs a pattern needs it: a verify without one never imports it

    out = regex.VERSION0
    for name in _FLAG_NAMES:
        if flags & getattr(re, name):
            out |= getattr(regex, name)
    return out


class GuardedPattern:
    """A compiled pattern whose searches give up after ``seconds`` with PatternTimeout."""

    def __init__(self, pattern: str, flags: int = 0, seconds: float | None = None) -> None:
        self.groups = re.compile(pattern, flags).groups  # re.error for what re rejects, as before
        self.pattern, self.flags = pattern, flags
        self.seconds = MATCH_SECONDS if seconds is None else seconds
        import regex

        try:
            self._rx = regex.compile(pattern, _regex_flags(flags))
        except regex.error as exc:  # re accepted it; say so in re's terms for the callers that catch re.error
            raise re.error(f"{exc} (accepted by re but not by the regex package)", pattern) from None
        self.timed_out = False

    def _budget(self) -> float:
        return min(self.seconds, AFTER_TIMEOUT_SECONDS) if self.timed_out else self.seconds

    def _run(self, method: str, text: str) -> object:
        budget = self._budget()
        try:
            return getattr(self._rx, method)(text, timeout=budget)
        except TimeoutError:
            self.timed_out = True
            raise PatternTimeout(self.pattern, budget, len(text)) from None

    def search(self, text: str) -> regex.Match[str] | None:
        """The first match anywhere in ``text`` (None if none); PatternTimeout past the deadline."""
        return self._run("search", text)  # type: ignore[return-value]

    def fullmatch(self, text: str) -> regex.Match[str] | None:
        """The match of all of ``text`` (None if it does not match); PatternTimeout past the deadline."""
        return self._run("fullmatch", text)  # type: ignore[return-value]

    def findall_matches(self, text: str) -> list[regex.Match[str]]:
        """Every non-overlapping match, left to right; PatternTimeout past the deadline (for all of them)."""
        budget = self._budget()
        try:
            return list(self._rx.finditer(text, timeout=budget))
        except TimeoutError:
            self.timed_out = True
            raise PatternTimeout(self.pattern, budget, len(text)) from None


@functools.lru_cache(maxsize=512)
def guarded(pattern: str, flags: int = 0) -> GuardedPattern:
    """``pattern`` compiled once per (pattern, flags); raises ``re.error`` for what ``re`` rejects."""
    return GuardedPattern(pattern, flags)
