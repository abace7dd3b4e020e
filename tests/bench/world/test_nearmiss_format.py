"""The near-miss case format: placeholders with filters, edits of an instance's reference, guards, and the
clear errors a broken case file gets (no phone needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.bench.world.nearmiss import (
    NearMiss,
    NearMissError,
    case_ops,
    case_task,
    fill_text,
    load_cases,
)


def _case(edits: list, template: str = "bank-send", **extra: object) -> NearMiss:
    return NearMiss("c", template, 0, "fail", "a mistake", edits, where="cases[0]", **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "want"), [
    ("{p|digits}", "5553927824"), ("{p|paren}", "(555) 392-7824"), ("{p|bumplast}", "555-392-7825"),
    ("{t|12h}", "1:00 PM"), ("{m|12h}", "9:30 AM"), ("{m|nolead0}", "9:30"), ("{a|nocomma|nocents}", "1204"),
    ("{w|lower}", "home"), ("{n|plus1}/{n|minus1}", "7/5"), ("{c|cents}", "232.50"), ("x{r.f}y", "xHomey"),
])
def test_placeholders_take_filters(text: str, want: str) -> None:
    params = {"p": "555-392-7824", "t": "13:00", "m": "09:30", "a": "1,204.00", "w": "Home", "n": 6,
              "c": "232.5", "r": {"f": "Home"}}
    assert fill_text(text, params, "here") == want


def test_an_unknown_filter_or_parameter_is_named() -> None:
    with pytest.raises(NearMissError, match=r"here: unknown filter \|shout"):
        fill_text("{p|shout}", {"p": "x"}, "here")
    with pytest.raises(Exception, match=r"here: placeholder \{q\} names no parameter"):
        fill_text("{q}", {"p": "x"}, "here")


def test_edits_change_the_instances_own_reference() -> None:
    task = case_task(_case([{"at": "type ({amount})", "with": []}]))
    amount = task.params["amount"]
    def ops_of(*edits: dict) -> list[str]:
        return [op.action for op in case_ops(_case(list(edits)), task)]

    ops = ops_of({"at": "type ({amount})", "with": ["type ({amount}0)"]})
    assert f"type ({amount}0)" in ops and f"type ({amount})" not in ops
    assert len(ops) == len(task.reference)
    ops = ops_of({"after": "click text (Review)", "add": ["back", "wait"]})
    review = ops.index("click text (Review)")
    assert ops[review + 1:review + 3] == ["back", "wait"]
    ops = ops_of({"append": ["answer (done)"]}, {"answer": "{answer}!?"})
    assert ops[-1] == "answer (None!?)"  # bank-send answers nothing: {answer} is the reference's (None)
    assert ops_of({"only": []}) == []


def test_scrolls_and_nth_occurrences_are_addressable() -> None:
    case = _case([{"at": "@scroll {target.to}", "with": ["@scroll {items.0.to}"]}], template="bank-payment")
    task = case_task(case)
    ops = case_ops(case, task)
    assert [op.until for op in ops if op.until] == [task.params["items"][0]["to"]]
    case = _case([{"at": "click text (Send money)", "nth": 2, "with": []}])
    with pytest.raises(NearMissError, match=r"'click text \(Send money\)' \(occurrence 2\) is not in the "
                                            r"reference .* the template changed: edit the case"):
        case_ops(case, case_task(case))


def test_guards_stop_a_case_that_lost_its_meaning() -> None:
    case = _case([{"answer": "x"}], template="bank-balance", when=[{"value": "{balance}", "matches": "^no$"}])
    with pytest.raises(NearMissError, match=r"when\[0\]: .* no longer matches '\^no\$' for bank-balance-0-0"):
        case_ops(case, case_task(case))
    same = [{"value": "{balance}", "differs": "{balance}"}]
    case = _case([{"answer": "x"}], template="bank-balance", when=same)
    with pytest.raises(NearMissError, match="no longer differs from"):
        case_ops(case, case_task(case))


def test_a_guard_pattern_that_is_invalid_or_backtracks_is_a_clear_error() -> None:
    """Near misses of ``matches``: a pattern re rejects, and one that backtracks without end on the value
    (here the balance's digits, 40 times over), name the guard instead of a traceback or a hang."""
    case = _case([{"answer": "x"}], template="bank-balance", when=[{"value": "{balance}", "matches": "(^"}])
    with pytest.raises(NearMissError, match=r"when\[0\]\.matches: missing \), unterminated subpattern"):
        case_ops(case, case_task(case))
    evil = [{"value": "{balance}" * 40 + "!", "matches": r"^(\d|\d\d|[.,$]|\d[.,])+$"}]
    case = _case([{"answer": "x"}], template="bank-balance", when=evil)
    with pytest.raises(NearMissError, match=r"when\[0\]\.matches: regular expression .* timed out .* rewr"):
        case_ops(case, case_task(case))


@pytest.mark.parametrize(("text", "error"), [
    ("cases: [{id: a, template: bank-send, seed: 0, expect: fail, edits: [{answer: x}]}]", "needs `why`"),
    ("cases: [{id: a, template: bank-send, seed: 0, expect: maybe, edits: [{answer: x}]}]",
     "expect must be pass or fail"),
    ("cases: [{id: a, template: bank-send, seed: 0, expect: pass, edits: [{swap: x}]}]", r"edits\[0\]"),
    ("cases: [{id: a, template: bank-send, seed: 0, expect: pass, edits: [{answer: x}]}]\n"
     "known_failures: [{case: b, reason: r}]", r"known_failures\[0\]"),
    ("cases: [{id: a, template: bank-send, seed: 0, expect: pass, edits: [{answer: x}]}]\n"
     "known_failures: [{case: a, judges: [vibes], reason: r}]", "unknown judges"),
    ("cases: {}", "a `cases` list"),
])
def test_a_broken_case_file_gets_a_clear_error(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NearMissError, match=error) as info:
        load_cases(path)
    assert str(path) in str(info.value)


def test_known_failures_attach_to_their_judges(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text("cases: [{id: a, template: bank-send, seed: 0, expect: pass, edits: [{answer: x}]}]\n"
                    "known_failures: [{case: a, judges: [oracle, rule], reason: not yet}]", encoding="utf-8")
    (case,) = load_cases(path)
    assert case.known == {"oracle": "not yet", "rule": "not yet"}
