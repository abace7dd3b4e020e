"""Typed values read out of text, shared by the benchmark's oracle and the verifier's checkers.

``match({type: money, equals: "181"}, "$1,810")`` fails and ``match(..., "It was $181.00.")`` passes: both
judges compare what a reply or a screen states as a value of its type, never as a substring. The
normalisation table is in ``bench/README.md``; ``declares_infeasible`` tells a plain "this cannot be done"
from a negated or hedged one.
"""

from __future__ import annotations

from droidpilot.typed.phrases import declares_infeasible, fold
from droidpilot.typed.spec import (
    KEYS,
    TYPES,
    Match,
    TypedSpecError,
    check_spec,
    match,
    read_value,
    validate_spec,
)

__all__ = [
    "KEYS",
    "TYPES",
    "Match",
    "TypedSpecError",
    "check_spec",
    "declares_infeasible",
    "fold",
    "match",
    "read_value",
    "validate_spec",
]
