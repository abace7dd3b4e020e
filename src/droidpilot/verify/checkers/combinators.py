"""The combinators of seed 003: ``escalate`` (first yes wins) and ``juxtaposition`` (all must say yes).

Both take sub-checkers keyed by short name (``text, regex, ui, action, xml, dynamic_match, icons, ocr,
llm``) or full type name (``ocr_match``), each with its parameters, or in the nested form
``action: {type: action_match, params: {...}}``. Answers are tri-state:

- escalate: sub-checkers tried in ``escalation_order`` (options, or the node's own
  ``params.escalation_order``); the first yes wins at once; else any undecided -> undecided; else no.
  With ``options.force_llm_verification`` and an llm configured, only the llm decides.
- juxtaposition: every sub-checker must say yes; cheap ones run first and a no stops it; else any
  undecided -> undecided.

On the timeline an escalate holds at an event when a sub-checker pinned there says yes, so its events
are the union of its parts'. A juxtaposition whose parts all read the screen holds at the screen; with
any part reading the action it holds only at the action, and still needs every part (screen parts
judge the screen shown before that action). A sub-checker that is not installed is undecided, never no.
Each decision is logged at DEBUG on ``droidpilot.verify.checkers`` and kept in the CheckResult.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from droidpilot.verify.checkers.base import (
    DEFAULT_ESCALATION_ORDER,
    SUBCHECKER_ALIASES,
    CheckResult,
    ConditionChecker,
    Event,
    Verdict,
    canonical_name,
    get_checker,
    register_condition,
)

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions

log = logging.getLogger("droidpilot.verify.checkers")

# Checkers supplied by the perception layer; when their modules are absent they still pin to the screen.
PERCEPTION_READS: dict[str, Event] = {"ocr_match": "screen", "icons_match": "screen", "llm": "screen"}
OPTION_KEYS: dict[str, tuple[str, ...]] = {"escalate": ("escalation_order",), "juxtaposition": ()}
SUB_NAMES: frozenset[str] = frozenset(SUBCHECKER_ALIASES) | frozenset(SUBCHECKER_ALIASES.values())


@dataclass(frozen=True)
class SubSpec:
    """One configured sub-checker: the key as written, the registry name, and its parameters."""

    key: str
    name: str
    params: dict[str, Any]


@dataclass
class SplitParams:
    """A combinator's params taken apart: sub-checkers, option keys, unknown keys, malformed entries."""

    subs: list[SubSpec] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    unknown: list[Any] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (key, message)


def split_params(params: Mapping[str, Any], combinator: str) -> SplitParams:
    """Separate ``params`` of ``escalate`` / ``juxtaposition`` into sub-checkers and options."""
    out = SplitParams()
    seen: dict[str, str] = {}
    for key, value in (params or {}).items():
        if key in OPTION_KEYS.get(combinator, ()):
            out.options[key] = value
            continue
        if not isinstance(key, str) or key not in SUB_NAMES:
            out.unknown.append(key)
            continue
        name = canonical_name(key)
        if name in seen:
            out.problems.append((key, f"'{key}' and '{seen[name]}' are the same checker ({name})"))
            continue
        seen[name] = key
        sub_params = {} if value is None else value
        if (isinstance(value, dict) and "params" in value and set(value) <= {"type", "params"}
                and isinstance(value.get("type"), str) and canonical_name(value["type"]) == name):
            sub_params = value["params"] or {}
        if not isinstance(sub_params, dict):
            kind = "list" if isinstance(sub_params, list) else type(sub_params).__name__
            out.problems.append((key, f"'{key}' must be a mapping of {name} parameters, not {kind}"))
            continue
        out.subs.append(SubSpec(key, name, sub_params))
    return out


def order_problems(order: Any) -> list[str]:
    """Problems with an ``escalation_order`` value: it must list known sub-checker keys."""
    if not isinstance(order, list) or not all(isinstance(k, str) for k in order):
        return ["escalation_order must be a list of sub-checker keys such as [text, ocr, llm]"]
    return [f"escalation_order names unknown checker '{k}'" for k in order if k not in SUB_NAMES]


def escalation_order(params: Mapping[str, Any], options: VerifierOptions | None) -> list[str]:
    """The order escalate uses, as registry names: the node's override, the options', or the default."""
    order = params.get("escalation_order") or (options.escalation_order if options is not None else None)
    names = [canonical_name(k) for k in (order or DEFAULT_ESCALATION_ORDER)]
    return list(dict.fromkeys(names))


def _checker(sub: SubSpec) -> ConditionChecker | None:
    try:
        return get_checker(sub.name)
    except KeyError:
        return None


def sub_events(sub: SubSpec) -> frozenset[Event]:
    """The events a sub-checker can pin to (a missing perception checker: the screen)."""
    checker = _checker(sub)
    if checker is None:
        return frozenset((PERCEPTION_READS.get(sub.name, "screen"),))
    return checker.events(sub.params)


def _run_sub(sub: SubSpec, frame: Frame, options: VerifierOptions | None, event: Event | None) -> CheckResult:
    """Ask one sub-checker, at ``event`` or (None) about the frame as a whole; never raises."""
    checker = _checker(sub)
    if checker is None:
        pinned = event or PERCEPTION_READS.get(sub.name, "screen")
        return CheckResult(Verdict.UNDECIDED, sub.name, pinned, reason=f"no {sub.key} checker available")
    try:
        if event is None:
            return checker.run(frame, sub.params, options)
        return checker.evaluate(frame, sub.params, options, event)
    except Exception as exc:  # a sub-checker's crash is surfaced as undecided, never as no
        return CheckResult(Verdict.UNDECIDED, sub.name, event or checker.reads,
                           reason=f"checker raised {type(exc).__name__}: {exc}")


def _summary(results: list[tuple[str, CheckResult]]) -> str:
    return ", ".join(f"{key}: {r.verdict.value}" + (f" ({r.reason})" if r.undecided and r.reason else "")
                     for key, r in results)


@register_condition("escalate")
class Escalate(ConditionChecker):
    """Sub-checkers in escalation order; the first yes wins (see the module docstring)."""

    reads = "screen"
    cost = 0

    def events(self, params: dict[str, Any]) -> frozenset[Event]:
        subs = split_params(params, "escalate").subs
        found: set[Event] = set()
        for sub in subs:
            found |= sub_events(sub)
        return frozenset(found or {"screen"})

    def evaluate(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None,
                 event: Event) -> CheckResult:
        return self._decide(frame, params, options, event)

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        return self._decide(frame, params, options, None)

    def _decide(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None,
                event: Event | None) -> CheckResult:
        subs = split_params(params, "escalate").subs
        order = escalation_order(params, options)
        ordered = sorted((s for s in subs if s.name in order), key=lambda s: order.index(s.name))
        skipped = {s.key: "not in escalation_order" for s in subs if s.name not in order}
        details: dict[str, Any] = {"order": order, "configured": [s.key for s in subs]}
        llm = next((s for s in subs if s.name == "llm"), None)
        if (options is not None and options.force_llm_verification and llm is not None
                and (options.llm is not None or options.llm_judge is not None)):
            skipped.update({s.key: "force_llm_verification: only llm decides"
                            for s in ordered if s is not llm})
            ordered = [llm]
            details["forced"] = "llm"
        debug = log.isEnabledFor(logging.DEBUG)
        if debug:
            log.debug("[Escalate] order: %s", order)
            log.debug("[Escalate] configured: %s", details["configured"])
        attempts: list[tuple[str, CheckResult]] = []
        for sub in ordered:
            if event is not None and event not in sub_events(sub):
                skipped[sub.key] = f"cannot hold at the {event}"
                continue
            if debug:
                log.debug("[Escalate] trying: %s", sub.key)
            result = _run_sub(sub, frame, options, event)
            attempts.append((sub.key, result))
            if debug:
                log.debug("[Escalate] %s result: %s", sub.key, result.verdict.value)
            if result.yes:
                if debug:
                    log.debug("[Escalate] %s said yes, returning yes at once", sub.key)
                return self._result(Verdict.YES, event or result.event, f"{sub.key} said yes",
                                    details, attempts, skipped, early=sub.key)
        if any(r.undecided for _, r in attempts):
            verdict, reason = Verdict.UNDECIDED, f"no yes; undecided: {_summary(attempts)}"
        else:
            verdict = Verdict.NO
            reason = f"no sub-checker said yes ({_summary(attempts)})" if attempts else \
                "no sub-checker could be consulted" + (f" at the {event}" if event else "")
        if debug:
            log.debug("[Escalate] final: %s", verdict.value)
        pinned = event or (attempts[0][1].event if attempts else self.reads)
        return self._result(verdict, pinned, reason, details, attempts, skipped)

    def _result(self, verdict: Verdict, event: Event, reason: str, details: dict[str, Any],
                attempts: list[tuple[str, CheckResult]], skipped: dict[str, str],
                early: str | None = None) -> CheckResult:
        details["attempts"] = [{"checker": key, "result": r.verdict.value} for key, r in attempts]
        if skipped:
            details["skipped"] = skipped
        if early is not None:
            details["early_return"] = early
        return CheckResult(verdict, self.name, event, reason=reason, details=details,
                           children=[r for _, r in attempts])


def _cost_key(sub: SubSpec) -> tuple[int, int]:
    checker = _checker(sub)
    cost = checker.cost if checker is not None else 0  # a missing checker answers at once
    rank = {canonical_name(k): i for i, k in enumerate(DEFAULT_ESCALATION_ORDER)}
    return (cost, rank.get(sub.name, len(rank)))


@register_condition("juxtaposition")
class Juxtaposition(ConditionChecker):
    """Every sub-checker must say yes, cheapest first, a no stops it (see the module docstring)."""

    reads = "screen"
    cost = 0

    def events(self, params: dict[str, Any]) -> frozenset[Event]:
        subs = split_params(params, "juxtaposition").subs
        reads_action = any("action" in sub_events(s) for s in subs)
        return frozenset(("action",) if reads_action else ("screen",))

    def evaluate(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None,
                 event: Event) -> CheckResult:
        pinned = next(iter(self.events(params)))
        if event != pinned:
            return CheckResult(Verdict.NO, self.name, event,
                               reason=f"holds only at the {pinned}" + (
                                   " (a part reads the action)" if pinned == "action" else ""))
        return self._decide(frame, params, options, pinned)

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        return self._decide(frame, params, options, next(iter(self.events(params))))

    def _decide(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None,
                event: Event) -> CheckResult:
        subs = sorted(split_params(params, "juxtaposition").subs, key=_cost_key)
        debug = log.isEnabledFor(logging.DEBUG)
        results: list[tuple[str, CheckResult]] = []
        for sub in subs:
            result = _run_sub(sub, frame, options, None)
            results.append((sub.key, result))
            if debug:
                log.debug("[Juxtaposition] %s result: %s", sub.name, result.verdict.value)
            if result.no:
                break
        names = [s.name for s in subs]
        if not subs:
            verdict, reason = Verdict.NO, "no sub-checkers configured"
        elif results[-1][1].no:
            verdict, reason = Verdict.NO, f"{results[-1][0]} said no ({_summary(results)})"
        elif any(r.undecided for _, r in results):
            verdict, reason = Verdict.UNDECIDED, f"no no, but undecided: {_summary(results)}"
        else:
            verdict, reason = Verdict.YES, f"all said yes ({', '.join(k for k, _ in results)})"
        if debug:
            log.debug("[Juxtaposition] configured: %s", names)
            log.debug("[Juxtaposition] results: %s", [r.verdict.value for _, r in results])
            log.debug("[Juxtaposition] final: %s", verdict.value)
        details: dict[str, Any] = {
            "configured": names,
            "results": [{"checker": key, "result": r.verdict.value} for key, r in results],
        }
        if len(results) < len(subs):
            details["stopped_after"] = results[-1][0]
            details["not_run"] = [s.key for s in subs[len(results):]]
        return CheckResult(verdict, self.name, event, reason=reason, details=details,
                           children=[r for _, r in results])
