"""Checkers: the registry and the built-in checker families, one module each.

Every module of this package is imported on first use, so a new checker family is a new file with
``@register_condition`` classes in it.
"""

from __future__ import annotations

import importlib
import pkgutil

from droidpilot.verify.checkers.base import (
    DEFAULT_ESCALATION_ORDER,
    SUBCHECKER_ALIASES,
    CheckResult,
    ConditionChecker,
    Param,
    Verdict,
    canonical_name,
    get_checker,
    register_condition,
    registered_names,
)

__all__ = [
    "DEFAULT_ESCALATION_ORDER",
    "SUBCHECKER_ALIASES",
    "CheckResult",
    "ConditionChecker",
    "Param",
    "Verdict",
    "canonical_name",
    "get_checker",
    "register_condition",
    "registered_names",
]

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name != "base" and not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
