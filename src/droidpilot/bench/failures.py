"""Why a task failed: one cause per failed row (for the report's breakdown) and a one-line reason.

Causes, in the order they are decided:

- ``device error``: the task could not run to the end (a device error, a crashed worker);
- ``model error``: the model endpoint failed (unreachable, refused, timed out);
- ``verifier/oracle disagreement``: the agent stopped, and the rule and SimPhone's state disagree;
- ``wrong stop``: the agent stopped, but the task is not done (rule and oracle agree on it);
- ``reply unparseable`` / ``could not ground``: the run was cut off by a limit and most of its failed
  steps were unparseable replies / actions that could not be grounded on the screen;
- ``max steps``: cut off by the step limit otherwise; ``other limit``: by another limit (model calls,
  time, repeated failures) otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

CAUSES = ("could not ground", "reply unparseable", "max steps", "wrong stop", "device error", "model error",
          "verifier/oracle disagreement", "other limit")


def _counts(steps: Sequence[Mapping[str, Any]]) -> tuple[int, int, int]:
    steps = [s for s in steps if s.get("phase") != "experience"]  # E's learning after the task
    parse = sum(1 for s in steps if s.get("outcome") == "parse_error")
    ground = sum(1 for s in steps if str(s.get("outcome") or "").startswith("grounding_"))
    return parse, ground, len(steps)


def passed(row: Mapping[str, Any]) -> bool:
    """The row counts as a success (Su, and Su-oracle where there is an oracle)."""
    return bool(row.get("su")) and row.get("su_oracle") in (1, None, True) and not row.get("error")


def failure_cause(row: Mapping[str, Any], steps: Sequence[Mapping[str, Any]]) -> str:
    """The cause (one of CAUSES) of a failed or disputed row; "" for a clean success."""
    termination = str(row.get("termination") or "")
    if termination in ("error", "device_error") or (row.get("error") and termination != "brain_error"):
        return "device error"
    if termination == "brain_error":
        return "model error"
    rule, oracle = row.get("rule_ok", row.get("su")), row.get("oracle_ok", row.get("su_oracle"))
    if termination == "completed":
        if oracle is not None and bool(rule) != bool(oracle):
            return "verifier/oracle disagreement"
        return "" if rule else "wrong stop"
    parse, ground, total = _counts(steps)
    if parse and parse * 2 >= max(1, total) and parse >= ground:
        return "reply unparseable"
    if ground and ground * 2 >= max(1, total):
        return "could not ground"
    return "max steps" if termination == "max_steps" else "other limit"


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def verifier_gist(reason: str) -> str:
    """The part of the verifier's reason a reader needs first: which milestones were never met (without
    the per-frame details), else its first clause."""
    parts = [p.strip() for p in str(reason or "").split(";") if p.strip()]
    unmet = next((p for p in parts if p.startswith("never met")), "")
    unmet = re.split(r",\s*(?:enabled|checked|no event|first enabled)", unmet)[0].strip()
    return _short(unmet or (parts[0] if parts else ""))


def failure_reason(row: Mapping[str, Any], steps: Sequence[Mapping[str, Any]]) -> str:
    """One line saying why the row failed ("" for a clean success), for the task table."""
    cause = failure_cause(row, steps)
    if not cause:
        return ""
    parse, ground, total = _counts(steps)
    termination = str(row.get("termination") or "")
    if cause in ("device error", "model error"):
        first = str(row.get("error") or termination).strip().splitlines()
        return f"{cause}: {_short(first[0]) if first else termination}"
    if cause == "verifier/oracle disagreement":
        rule = "passes" if row.get("rule_ok", row.get("su")) else "fails"
        oracle = "passes" if row.get("oracle_ok", row.get("su_oracle")) else "fails"
        gist = verifier_gist(str(row.get("reason") or ""))
        return f"the rule {rule} but the oracle {oracle}: {gist}".rstrip(": ")
    if cause == "wrong stop":
        return f"stopped before the task was done: {verifier_gist(str(row.get('reason') or ''))}".rstrip(": ")
    detail = f"ended by {termination} after {total} steps"
    if parse:
        detail += f"; {parse} unparseable replies"
    if ground:
        detail += f"; {ground} actions not grounded"
    if row.get("rule_ok"):
        detail += "; the milestones were reached but the agent never stopped"
    return f"{cause}: {detail}"
