"""Problems found in a rule file, and the error that carries all of them at once.

Validation collects every problem in one pass so an author can fix a rule in one go; each problem names
the file, the line (when YAML gives one), the node and how to fix it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from droidpilot.errors import InputError


@dataclass(frozen=True)
class RuleProblem:
    """One thing wrong with a rule: where it is, what is wrong, and how to fix it."""

    file: str
    line: int | None
    node: str | None
    message: str
    fix: str = ""

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        text = f"{where}: "
        if self.node is not None:
            text += f"node '{self.node}': "
        text += self.message
        if self.fix:
            text += f" — {self.fix}"
        return text


class RuleError(InputError):
    """A rule that cannot be used; ``problems`` lists every problem found, in file order."""

    def __init__(self, problems: Iterable[RuleProblem]) -> None:
        self.problems: list[RuleProblem] = sorted(
            problems, key=lambda p: (p.line is None, p.line or 0))
        super().__init__("\n".join(str(p) for p in self.problems))


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or "" when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return f" (did you mean '{close[0]}'?)" if close else ""


def closest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The closest of ``choices`` to ``word``, or None."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return close[0] if close else None
