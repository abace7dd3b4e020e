"""A catastrophic pattern in a rule is undecided (naming the rule file, line, node and pattern) in bounded
time, never a hung verifier, a silent pass or a silent fail; ordinary patterns judge as before."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from droidpilot.verify.checkers import get_checker
from droidpilot.verify.engine import verify
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.spec import load_rule

EVIL_TEXT = "a" * 40 + "!"

RULE = """\
task_id: evil-pattern
nodes:
  - id: opened
    next: [confirmed]
    condition:
      type: text_match
      params: {any: [open]}
  - id: confirmed
    condition:
      type: regex_match
      params:
        pattern: "%s"
success: {any_of: [confirmed]}
"""


def test_regex_match_with_an_evil_pattern_is_undecided_and_says_why() -> None:
    result = get_checker("regex_match").run(Frame(index=0, text=EVIL_TEXT), {"pattern": r"(a|aa)+$"}, None)
    assert result.undecided
    assert "'(a|aa)+$' timed out" in result.reason and "rewrite it" in result.reason
    assert result.details["timed_out"]["pattern"] == "(a|aa)+$"


def test_regex_match_with_a_value_times_out_while_iterating_too() -> None:
    """The first match ("c") is found at once and states no number; the next search backtracks."""
    params = {"pattern": r"((?:b|bb)+$|c)", "value": {"type": "number", "equals": "3"}}
    result = get_checker("regex_match").run(Frame(index=0, text="c" + "b" * 40 + "!"), params, None)
    assert result.undecided and "timed out" in result.reason


def test_ocr_match_with_an_evil_pattern_is_undecided(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    Image.new("RGB", (8, 8)).save(shot)
    options = VerifierOptions(ocr=lambda frame: "Orders\n" + EVIL_TEXT)
    checker = get_checker("ocr_match")
    result = checker.run(Frame(index=0, image_path=shot), {"pattern": r"(a|a)+$"}, options)
    assert result.undecided and "'(a|a)+$' timed out" in result.reason
    ordinary = checker.run(Frame(index=0, image_path=shot), {"pattern": r"Ord(er)s"}, options)
    assert ordinary.yes  # near miss: the same checker with a fine pattern decides


def test_a_rule_with_an_evil_pattern_asks_for_review_naming_file_line_and_node(tmp_path: Path) -> None:
    rule = tmp_path / "rule.yaml"
    rule.write_text(RULE % r"(x|xx)+$", encoding="utf-8")
    frames = [Frame(index=0, text="open the app"), *(Frame(index=i, text="x" * 40 + "!") for i in (1, 2, 3))]
    result = verify(load_rule(rule), frames)
    assert not result.ok and result.manual_review_needed  # counting the timeouts as yes would pass
    timed = [d for d in result.decisions if d["node"] == "confirmed"]
    assert timed and all(d["result"] == "undecided" for d in timed)
    reason = timed[0]["check"]["reason"]
    assert reason.startswith(f"{rule}:8: node 'confirmed': regular expression '(x|xx)+$' timed out")
    assert f"{rule}:8: node 'confirmed'" in result.reason and "manual review needed" in result.reason


def test_the_same_rule_with_an_ordinary_pattern_judges_as_before(tmp_path: Path) -> None:
    """Near misses: a fine pattern passes on the text it matches and fails on one it does not."""
    rule = tmp_path / "rule.yaml"
    rule.write_text(RULE % r"(x|y)+!$", encoding="utf-8")
    task = load_rule(rule)
    passing = verify(task, [Frame(index=0, text="open the app"), Frame(index=1, text="x" * 30 + "!")])
    failing = verify(task, [Frame(index=0, text="open the app"), Frame(index=1, text="x" * 30 + "?")])
    assert passing.ok and not passing.manual_review_needed
    assert not failing.ok and not failing.manual_review_needed


def test_the_nested_repeat_that_hung_re_is_now_judged_at_once() -> None:
    """(a+)+$ against 30 'a's and a 'b' backtracked for minutes under re; now it is a plain no."""
    checker = get_checker("regex_match")
    result = checker.run(Frame(index=0, text="a" * 30 + "b"), {"pattern": r"(a+)+$"}, None)
    assert result.no and "not found" in result.reason
    assert checker.run(Frame(index=0, text="a" * 30 + "ba"), {"pattern": r"(a+)+$"}, None).yes
