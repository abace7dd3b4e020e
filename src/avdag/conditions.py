"""``avdag.conditions``: the checker registry. Checkers returning bool (or None) register as in MobiFlow."""

from __future__ import annotations

from droidpilot.verify.checkers.base import (
    CheckResult,
    ConditionChecker,
    Verdict,
    get_checker,
    register_condition,
    registered_names,
)

__all__ = ["CheckResult", "ConditionChecker", "Verdict", "get_checker", "register_condition",
           "registered_names"]
