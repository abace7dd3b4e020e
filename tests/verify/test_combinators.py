"""escalate and juxtaposition: tri-state tables, short-circuit, order, timeline pinning, decision log."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any

import pytest

from droidpilot.verify.checkers import CheckResult, ConditionChecker, Verdict, get_checker
from droidpilot.verify.checkers.base import _REGISTRY
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions

Y, N, U = Verdict.YES, Verdict.NO, Verdict.UNDECIDED


class Scripted(ConditionChecker):
    """A checker that gives a set answer and counts how often it was asked."""

    def __init__(self, name: str, verdict: Verdict, reads: str = "screen", cost: int = 10) -> None:
        self.name = name  # type: ignore[misc]
        self.verdict, self.reads, self.cost = verdict, reads, cost  # type: ignore[misc]
        self.calls = 0

    def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> CheckResult:
        self.calls += 1
        return CheckResult(self.verdict, self.name, self.reads, reason="scripted")


Install = Callable[..., Scripted]


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch) -> Install:
    """Register a Scripted checker under a registry name for this test only."""

    def do(name: str, verdict: Verdict, reads: str = "screen", cost: int = 10) -> Scripted:
        checker = Scripted(name, verdict, reads, cost)
        monkeypatch.setitem(_REGISTRY, name, checker)
        return checker

    return do


@pytest.fixture
def frame() -> Frame:
    return Frame(index=0, text="clicked 搜索", action={"type": "click", "text": "搜索"})


ESC = get_checker("escalate")
JUX = get_checker("juxtaposition")
PARAMS = {"ocr": {"any": ["x"]}, "llm": {"prompt": "ok?"}}
TABLE = list(itertools.product([Y, N, U], repeat=2))


def escalate_expected(a: Verdict, b: Verdict) -> Verdict:
    return Y if Y in (a, b) else U if U in (a, b) else N


def juxtapose_expected(a: Verdict, b: Verdict) -> Verdict:
    return N if N in (a, b) else U if U in (a, b) else Y


@pytest.mark.parametrize(("a", "b"), TABLE)
def test_escalate_tri_state(install: Install, frame: Frame, a: Verdict, b: Verdict) -> None:
    ocr, llm = install("ocr_match", a), install("llm", b)
    result = ESC.run(frame, PARAMS, VerifierOptions())
    assert result.verdict is escalate_expected(a, b)
    assert ocr.calls == 1
    assert llm.calls == (0 if a is Y else 1)  # the first yes returns at once
    assert len(result.children) == ocr.calls + llm.calls


@pytest.mark.parametrize(("a", "b"), TABLE)
def test_juxtaposition_tri_state(install: Install, frame: Frame, a: Verdict, b: Verdict) -> None:
    ocr, llm = install("ocr_match", a, cost=5), install("llm", b, cost=100)
    result = JUX.run(frame, PARAMS, VerifierOptions())
    assert result.verdict is juxtapose_expected(a, b)
    assert ocr.calls == 1
    assert llm.calls == (0 if a is N else 1)  # a no stops it


def test_juxtaposition_runs_cheap_checkers_first_whatever_the_key_order(install: Install,
                                                                        frame: Frame) -> None:
    expensive, cheap = install("llm", Y, cost=100), install("ocr_match", N, cost=5)
    result = JUX.run(frame, {"llm": {"prompt": "?"}, "ocr": {"any": ["x"]}}, None)
    assert result.no and cheap.calls == 1 and expensive.calls == 0
    assert result.details == {"configured": ["ocr_match", "llm"],
                              "results": [{"checker": "ocr", "result": "no"}],
                              "stopped_after": "ocr", "not_run": ["llm"]}


def test_escalation_order_from_options_and_per_node_override(install: Install, frame: Frame) -> None:
    ocr, llm = install("ocr_match", Y), install("llm", Y)
    result = ESC.run(frame, PARAMS, VerifierOptions(escalation_order=["llm", "ocr"]))
    assert result.yes and (llm.calls, ocr.calls) == (1, 0)
    assert result.details["early_return"] == "llm"
    node_params = {**PARAMS, "escalation_order": ["ocr_match", "llm"]}  # full names work too
    result = ESC.run(frame, node_params, VerifierOptions(escalation_order=["llm", "ocr"]))
    assert result.details["early_return"] == "ocr" and (llm.calls, ocr.calls) == (1, 1)


def test_checkers_missing_from_the_order_are_skipped_and_said_so(install: Install, frame: Frame) -> None:
    ocr, _ = install("ocr_match", Y), install("llm", N)
    result = ESC.run(frame, PARAMS, VerifierOptions(escalation_order=["llm"]))
    assert result.no and ocr.calls == 0
    assert result.details["skipped"] == {"ocr": "not in escalation_order"}


def test_force_llm_verification(install: Install, frame: Frame) -> None:
    ocr, llm = install("ocr_match", Y), install("llm", N)
    forced = VerifierOptions(force_llm_verification=True, llm=lambda ctx: False)
    result = ESC.run(frame, PARAMS, forced)
    assert result.no and ocr.calls == 0 and llm.calls == 1 and result.details["forced"] == "llm"
    # without an llm configured in the options, escalation runs as usual
    assert ESC.run(frame, PARAMS, VerifierOptions(force_llm_verification=True)).yes and ocr.calls == 1


def test_missing_sub_checker_is_undecided_never_no(monkeypatch: pytest.MonkeyPatch, frame: Frame) -> None:
    for name in ("ocr_match", "llm", "icons_match"):
        monkeypatch.delitem(_REGISTRY, name, raising=False)
    result = ESC.run(frame, {"ocr": {"any": ["x"]}, "icons": {"any": ["cart"]}}, None)
    assert result.undecided
    assert [c.reason for c in result.children] == ["no icons checker available", "no ocr checker available"]
    jux = JUX.run(frame, {"text": {"any": ["搜索"]}, "llm": {"prompt": "?"}}, None)
    assert jux.undecided and jux.children[0].reason == "no llm checker available"  # answers at once
    assert JUX.run(frame, {"text": {"any": ["nope"]}, "llm": {"prompt": "?"}}, None).no


def test_a_crashing_sub_checker_is_undecided(install: Install, frame: Frame) -> None:
    boom = install("ocr_match", Y)
    boom.check = lambda *a, **k: 1 / 0  # type: ignore[method-assign]
    result = ESC.run(frame, {"ocr": {}}, None)
    assert result.undecided and "ZeroDivisionError" in result.children[0].reason


def test_escalate_pins_to_the_event_of_the_deciding_sub_checker(install: Install, frame: Frame) -> None:
    text, ocr = install("text_match", Y, reads="action", cost=1), install("ocr_match", Y)
    params = {"text": {"any": ["x"]}, "ocr": {"any": ["y"]}}
    assert ESC.events(params) == frozenset({"screen", "action"})
    at_screen = ESC.evaluate(frame, params, None, "screen")
    assert at_screen.yes and at_screen.event == "screen" and (text.calls, ocr.calls) == (0, 1)
    assert at_screen.details["skipped"] == {"text": "cannot hold at the screen"}
    at_action = ESC.evaluate(frame, params, None, "action")
    assert at_action.yes and at_action.event == "action" and (text.calls, ocr.calls) == (1, 1)
    # a direct call (MobiFlow style) answers for the frame as a whole
    direct = ESC.run(frame, params, None)
    assert direct.yes and direct.event == "action" and text.calls == 2


def test_escalate_with_only_screen_parts_does_not_hold_at_the_action(install: Install, frame: Frame) -> None:
    ocr = install("ocr_match", Y)
    assert ESC.events({"ocr": {}}) == frozenset({"screen"})
    result = ESC.evaluate(frame, {"ocr": {}}, None, "action")
    assert result.no and ocr.calls == 0 and result.event == "action"


def test_juxtaposition_pinning(install: Install, frame: Frame) -> None:
    text, ocr = install("text_match", Y, reads="action", cost=1), install("ocr_match", Y)
    mixed = {"text": {"any": ["x"]}, "ocr": {"any": ["y"]}}
    assert JUX.events(mixed) == frozenset({"action"})
    assert JUX.events({"ocr": {}, "llm": {"prompt": "?"}}) == frozenset({"screen"})
    at_screen = JUX.evaluate(frame, mixed, None, "screen")
    assert at_screen.no and (text.calls, ocr.calls) == (0, 0)
    assert at_screen.reason == "holds only at the action (a part reads the action)"
    at_action = JUX.evaluate(frame, mixed, None, "action")  # the screen part is still required
    assert at_action.yes and at_action.event == "action" and (text.calls, ocr.calls) == (1, 1)
    ocr.verdict = N
    assert JUX.evaluate(frame, mixed, None, "action").no


def test_escalate_with_real_leaf_checkers_and_the_nested_form(frame: Frame) -> None:
    params = {"text": {"any": ["nothing"]},
              "action": {"type": "action_match", "params": {"type": "click", "contains": {"text": "搜索"}}}}
    result = ESC.evaluate(frame, params, VerifierOptions(), "action")
    assert result.yes
    assert [c.checker for c in result.children] == ["text_match", "action_match"]
    assert result.details["attempts"] == [{"checker": "text", "result": "no"},
                                          {"checker": "action", "result": "yes"}]
    jux = JUX.run(frame, {"text_match": {"any": ["搜索"]}, "ui": {"key": "screen"}}, None)
    assert jux.no and jux.event == "action"  # ui_flag: the frame has no UI state


def test_escalate_debug_log_and_decision_log(install: Install, frame: Frame,
                                             caplog: pytest.LogCaptureFixture) -> None:
    install("ocr_match", N)
    install("llm", Y)
    with caplog.at_level(logging.DEBUG, logger="droidpilot.verify.checkers"):
        result = ESC.run(frame, {**PARAMS, "text": {"any": ["nope"]}}, VerifierOptions())
    lines = [r.getMessage() for r in caplog.records if r.name == "droidpilot.verify.checkers"]
    assert lines[0].startswith("[Escalate] order: ['text_match', 'regex_match'")
    assert lines[1:] == [
        "[Escalate] configured: ['ocr', 'llm', 'text']",
        "[Escalate] trying: text", "[Escalate] text result: no",
        "[Escalate] trying: ocr", "[Escalate] ocr result: no",
        "[Escalate] trying: llm", "[Escalate] llm result: yes",
        "[Escalate] llm said yes, returning yes at once",
    ]
    assert result.details["configured"] == ["ocr", "llm", "text"]
    assert result.details["early_return"] == "llm"
    assert [a["result"] for a in result.details["attempts"]] == ["no", "no", "yes"]
    assert result.to_dict()["children"][2]["checker"] == "llm"


def test_juxtaposition_debug_log(install: Install, frame: Frame, caplog: pytest.LogCaptureFixture) -> None:
    install("ocr_match", Y, cost=5)
    install("llm", U, cost=100)
    with caplog.at_level(logging.DEBUG, logger="droidpilot.verify.checkers"):
        result = JUX.run(frame, PARAMS, None)
    assert result.undecided
    lines = [r.getMessage() for r in caplog.records if r.name == "droidpilot.verify.checkers"]
    assert lines == [
        "[Juxtaposition] ocr_match result: yes",
        "[Juxtaposition] llm result: undecided",
        "[Juxtaposition] configured: ['ocr_match', 'llm']",
        "[Juxtaposition] results: ['yes', 'undecided']",
        "[Juxtaposition] final: undecided",
    ]
