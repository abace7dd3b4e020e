"""A template instance's judging parts: its side-effect declarations and its typed answer check.

``effects`` (``bench/effects.py``) are filled like the oracle and checked against the state's top-level
keys; a list declared with ``added`` is judged record by record in any order, so the oracle's positional
leaves into it (``bank.transfers.-1.to``) are dropped (two records created in the other order pass).
The answer of a retrieval task is read as the template's ``answer_type`` (``{type: text}`` when none).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from droidpilot import typed
from droidpilot.bench.effects import EffectsError, effective, validate_effects
from droidpilot.bench.task import SuiteError
from droidpilot.bench.world.fill import fill
from droidpilot.bench.world.template import Template


@functools.cache
def state_roots() -> frozenset[str]:
    """The top-level keys of SimPhone's ``state()`` (apps, ``system``, ``foreground``)."""
    from droidpilot.device.sim.phone import SimDevice

    return frozenset(SimDevice().state()) | {"agent"}


def task_effects(template: Template, ctx: dict[str, Any], oracle: Any, where: str) -> dict[str, Any]:
    """The filled, validated declarations the instance is judged by (its own plus the defaults)."""
    raw = getattr(template, "effects", None) or {}
    declared = fill(raw, ctx, f"{where} effects")
    try:
        validate_effects(declared, f"{where} effects", roots=state_roots())
    except EffectsError as exc:
        raise SuiteError(str(exc)) from None
    return effective(declared, oracle, template.kind)


def _positional(path: str, lists: list[str]) -> bool:
    return any(re.fullmatch(re.escape(p) + r"\.-?\d+(\..+)?", path) for p in lists)


def drop_positional(oracle: Any, effects: Mapping[str, Any]) -> Any:
    """``oracle`` without its leaves (in the top-level ``all`` chain) that index into a list whose added
    records the effects declare; a leaf that the declarations make redundant is not kept to fail a run
    that created the records in another order."""
    lists = [p for p, e in effects.items() if isinstance(e, Mapping) and e.get("added")]
    if not lists or not isinstance(oracle, Mapping):
        return oracle

    def prune(pred: Any) -> Any:
        if isinstance(pred, Mapping) and "all" in pred:
            kept = [q for q in (prune(p) for p in pred["all"]) if q]
            return {"all": kept} if len(kept) > 1 else (kept[0] if kept else {})
        if isinstance(pred, Mapping) and "path" in pred and _positional(str(pred["path"]), lists):
            return {}
        return pred

    pruned = prune(oracle)
    if pruned:
        return pruned
    first = lists[0]  # everything was positional: the declarations judge it; keep a leaf that says where
    return {"path": first, "length_at_least": len(effects[first]["added"])}


def answer_spec(template: Template, ctx: dict[str, Any], answer: str, where: str) -> dict[str, Any]:
    """The typed spec the agent's reply is read with: the template's ``answer_type`` and the answer."""
    declared = getattr(template, "answer_type", None) or {"type": "text"}
    if isinstance(declared, str):
        declared = {"type": declared}
    spec = {**fill(dict(declared), ctx, f"{where} answer_type"), "equals": answer}
    problems = typed.validate_spec(spec, f"{where} answer_type")
    if problems:
        raise SuiteError("; ".join(problems))
    return spec


__all__ = ["answer_spec", "drop_positional", "state_roots", "task_effects"]
