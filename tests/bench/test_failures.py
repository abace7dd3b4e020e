"""Each failed row gets one cause (the report's breakdown) and a one-line reason."""

from __future__ import annotations

from typing import Any

import pytest

from droidpilot.bench.failures import CAUSES, failure_cause, failure_reason, passed

PARSE = {"outcome": "parse_error"}
GROUND = {"outcome": "grounding_not_found"}
OK = {"outcome": "ok"}


def row(**kw: Any) -> dict[str, Any]:
    return {"su": 0, "su_oracle": 0, "rule_ok": 0, "oracle_ok": 0, "termination": "completed", "error": "",
            "reason": "no satisfying path", **kw}


@pytest.mark.parametrize(("the_row", "steps", "cause"), [
    (row(su=1, su_oracle=1, rule_ok=1, oracle_ok=1), [OK], ""),
    (row(), [OK, OK], "wrong stop"),
    (row(rule_ok=1, su=1, oracle_ok=0), [OK], "verifier/oracle disagreement"),
    (row(oracle_ok=1, su_oracle=1), [OK], "verifier/oracle disagreement"),
    (row(termination="max_steps"), [PARSE, PARSE, OK], "reply unparseable"),
    (row(termination="max_steps"), [GROUND, GROUND, GROUND, OK], "could not ground"),
    (row(termination="max_steps"), [OK, OK, GROUND], "max steps"),
    (row(termination="too_many_failures"), [OK, OK, OK], "other limit"),
    (row(termination="device_error", error="adb: device offline"), [], "device error"),
    (row(termination="error", error="the worker process died"), [], "device error"),
    (row(termination="brain_error", error="connection refused"), [], "model error"),
])
def test_causes(the_row: dict[str, Any], steps: list[dict[str, Any]], cause: str) -> None:
    assert failure_cause(the_row, steps) == cause
    assert cause == "" or cause in CAUSES
    line = failure_reason(the_row, steps)
    assert (line == "") == (cause == "") and "\n" not in line
    if cause:
        assert line.startswith(cause.split("/")[0]) or cause in line or "rule" in line or "stopped" in line


def test_reasons_say_what_happened() -> None:
    cut = row(termination="max_steps", rule_ok=1)
    assert failure_reason(cut, [OK, OK]) == ("max steps: ended by max_steps after 2 steps; the milestones "
                                             "were reached but the agent never stopped")
    offline = row(termination="device_error", error="offline\nmore")
    assert failure_reason(offline, []) == "device error: offline"
    assert passed(row(su=1, su_oracle=None)) and not passed(row(su=1, su_oracle=0))


def test_the_verifier_reason_is_cut_to_its_gist() -> None:
    reason = ("no satisfying path; reached: start_page (frame 1 screen) -> results (frame 4 screen); "
              "never met: article (The game report is open), enabled after frame 4 screen; checked at 1 "
              "event")
    wanted = "stopped before the task was done: never met: article (The game report is open)"
    assert failure_reason(row(reason=reason), [OK]) == wanted
