"""Typed values in the text-reading checkers (``value``), whole-token numbers in keyword checkers
(``whole_numbers``) and ``action_match``'s ``declares: infeasible``: near misses fail, differently written
right values pass, and plain MobiFlow keyword matching is unchanged when a rule asks for neither."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.synth import font
from droidpilot.verify.checkers import Verdict, get_checker
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions

MONEY_181 = {"type": "money", "equals": "181"}


def reply(text: str) -> dict:
    return {"text": text, "action": {"type": "answer", "text": text}}


# -- a reply: the agent's text and an action's field ----------------------------------------------------
@pytest.mark.parametrize(("text", "ok"), [
    ("$181", True),
    ("It was $181.00.", True),
    ("181", True),
    ("$1810", False),             # a longer number that contains 181
    ("$1,810.00", False),
    ("$181 or $1810", False),     # a hedge between candidates is no answer
    ("one hundred", False),
])
def test_text_match_value_money(text: str, ok: bool) -> None:
    result = get_checker("text_match").run(reply(text), {"value": MONEY_181}, None)
    assert result.yes is ok, result.reason


@pytest.mark.parametrize(("spec", "text", "ok"), [
    ({"type": "phone", "equals": "555-392-7824"}, "(555) 392-7824", True),
    ({"type": "phone", "equals": "555-392-7824"}, "555-392-7842", False),
    ({"type": "time", "equals": "13:00"}, "1:00 PM", True),
    ({"type": "time", "equals": "13:00"}, "1:00 AM", False),
    ({"type": "count", "equals": "6"}, "16", False),
    ({"type": "count", "equals": "6"}, "six", True),
    ({"type": "count", "equals": "6"}, "6, 7 or 8", False),
    ({"type": "name", "equals": "Paige Parker"}, "Paige Parkerson", False),
])
def test_action_match_value_reads_the_answer(spec: dict, text: str, ok: bool) -> None:
    params = {"type": "answer", "value": spec}
    result = get_checker("action_match").run(reply(text), params, None)
    assert result.yes is ok, result.reason


def test_action_match_value_reads_a_named_field_and_needs_the_type() -> None:
    frame = {"action": {"type": "input", "parameters": {"text": "$1,204.10"}}}
    checker = get_checker("action_match")
    spec = {"type": "money", "equals": "1204.10"}
    assert checker.run(frame, {"value": spec, "field": "parameters.text"}, None).yes
    assert checker.run(frame, {"value": spec}, None).no  # no `text` field: nothing is stated
    assert checker.run(frame, {"type": "answer", "value": spec, "field": "parameters.text"}, None).no


@pytest.mark.parametrize(("text", "ok"), [
    ("infeasible: the app has no loans", True),
    ("This cannot be done in the app", True),
    ("It is not infeasible, I applied.", False),
    ("maybe infeasible?", False),
    ("Done, I applied for the loan.", False),
])
def test_action_match_declares_infeasible(text: str, ok: bool) -> None:
    result = get_checker("action_match").run(reply(text), {"type": "answer", "declares": "infeasible"}, None)
    assert result.yes is ok, result.reason


def test_contains_keeps_its_substring_meaning() -> None:
    """The MobiFlow-style ``contains`` is unchanged: "181" is in "$1810" (which is why rules use value)."""
    assert get_checker("action_match").run(reply("$1810"), {"contains": {"text": "181"}}, None).yes


@pytest.mark.parametrize(("text", "ok"), [
    ("Thought: done. Total: $181.00", True),
    ("Total: $1810", False),
    ("Subtotal: $12 Total: $181", True),   # every match is tried, the first group read
    ("no total here", False),
])
def test_regex_match_value_reads_the_group(text: str, ok: bool) -> None:
    params = {"pattern": r"Total: (\S+)", "value": MONEY_181}
    result = get_checker("regex_match").run({"text": text}, params, None)
    assert result.yes is ok, result.reason


@pytest.mark.parametrize(("keyword", "text", "plain", "whole"), [
    ("181", "paid $1810", True, False),
    ("181", "paid $181.50", True, False),
    ("181", "paid $181.", True, True),
    ("810", "paid $1,810", True, False),
    ("6 alarms", "16 alarms", True, False),
    ("6 alarms", "6 alarms", True, True),
    ("Amount $54", "Amount $54.20", True, False),
    ("Search", "Search apps", True, True),  # words keep substring matching
])
def test_whole_numbers_in_keywords(keyword: str, text: str, plain: bool, whole: bool) -> None:
    checker = get_checker("text_match")
    assert checker.run({"text": text}, {"any": [keyword]}, None).yes is plain
    assert checker.run({"text": text}, {"any": [keyword], "whole_numbers": True}, None).yes is whole


# -- a screen: the UI dump --------------------------------------------------------------------------------
def screen(*labels: str) -> Frame:
    nodes = "\n".join(
        f'<node index="{i}" text="{t}" class="android.widget.TextView" package="p" content-desc="" '
        f'bounds="[0,{i * 50}][500,{i * 50 + 40}]" />' for i, t in enumerate(labels))
    return Frame(index=0, xml_text=f"<hierarchy rotation=\"0\">{nodes}</hierarchy>")


@pytest.mark.parametrize(("labels", "spec", "ok"), [
    (("Checking", "$1,204.10"), {"type": "money", "equals": "1204.10"}, True),
    (("Checking", "$1,204.10"), {"type": "money", "equals": "$1,204.1"}, True),
    (("Checking", "$12,041.00"), {"type": "money", "equals": "1204.10"}, False),
    (("Coffee", "$1,810.00", "Nov 21"), MONEY_181, False),
    (("Lunch · Nov 21 · $181.00",), MONEY_181, True),       # the 21 of the date is no amount
    (("Team stand-up", "09:30 – 09:45"), {"type": "time", "equals": "9:30 AM"}, True),  # a range shows both
    (("Team stand-up", "19:30"), {"type": "time", "equals": "09:30"}, False),
    (("16 alarms",), {"type": "count", "equals": "6"}, False),
    (("Harper Cook", "(555) 572-3919"), {"type": "phone", "equals": "555-572-3919"}, True),
    (("Harper Cook", "555-572-3991"), {"type": "phone", "equals": "555-572-3919"}, False),
    (("Ava Smith", "Noah Lee"), {"type": "set", "of": "name", "equals": ["Noah Lee", "Ava Smith"]}, True),
    (("Ava Smith",), {"type": "set", "of": "name", "equals": ["Noah Lee", "Ava Smith"]}, False),
    (("Paige Parkerson",), {"type": "name", "equals": "Paige Parker"}, False),
])
def test_xml_value(labels: tuple[str, ...], spec: dict, ok: bool) -> None:
    result = get_checker("xml").run(screen(*labels), {"value": spec}, None)
    assert result.yes is ok, result.reason


def test_xml_keywords_and_value_both_hold() -> None:
    checker = get_checker("xml")
    frame = screen("Checking", "$1,204.10")
    money = {"type": "money", "equals": "1204.10"}
    assert checker.run(frame, {"all": ["Checking"], "value": money}, None).yes
    assert checker.run(frame, {"all": ["Savings"], "value": money}, None).no
    assert checker.run(frame, {"all": ["Checking"], "value": [money, MONEY_181]}, None).no
    wrong = checker.run(screen("Amount $1810"), {"all": ["Amount $181"], "whole_numbers": True}, None)
    assert wrong.no and checker.run(screen("Amount $1810"), {"all": ["Amount $181"]}, None).yes


# -- a screen: the screenshot, read by the real OCR engine ----------------------------------------------
OCR_LINES = ["Expense details", "Amount $1,810.00", "Team stand-up 9:30 AM", "16 alarms", "(555) 392-7824"]


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("ocr-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DROIDPILOT_CACHE_DIR", str(path))
        yield path


@pytest.fixture(scope="module")
def shot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    img = Image.new("RGB", (520, 330), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for i, text in enumerate(OCR_LINES):
        draw.text((20, 20 + i * 60), text, font=font(30), fill=(20, 20, 20))
    path = tmp_path_factory.mktemp("shots") / "typed.png"
    img.save(path)
    return path


@pytest.fixture(scope="module")
def engine() -> RapidOcrEngine:
    return RapidOcrEngine()


@pytest.mark.parametrize(("params", "verdict"), [
    ({"value": {"type": "money", "equals": "1810"}}, Verdict.YES),
    ({"value": {"type": "money", "equals": "1,810.00"}}, Verdict.YES),
    ({"value": MONEY_181}, Verdict.NO),
    ({"value": {"type": "time", "equals": "09:30"}}, Verdict.YES),
    ({"value": {"type": "time", "equals": "21:30"}}, Verdict.NO),
    ({"value": {"type": "phone", "equals": "555-392-7824"}}, Verdict.YES),
    ({"value": {"type": "phone", "equals": "555-392-7842"}}, Verdict.NO),
    ({"value": {"type": "count", "equals": "6"}}, Verdict.NO),
    ({"all": ["Amount $181"]}, Verdict.YES),                          # MobiFlow's substring meaning
    ({"all": ["Amount $181"], "whole_numbers": True}, Verdict.NO),
    ({"all": ["Amount $1,810.00"], "whole_numbers": True}, Verdict.YES),
    ({"all": ["Amuont $1,810.00"], "whole_numbers": True}, Verdict.YES),  # a misread word is forgiven
    ({"all": ["Amount $1,610.00"], "whole_numbers": True}, Verdict.NO),   # a misread number is not
    ({"all": ["Amount $1,610.00"]}, Verdict.YES),                     # ... without whole_numbers it is
    ({"all": ["6 alarms"]}, Verdict.YES),
    ({"all": ["6 alarms"], "whole_numbers": True}, Verdict.NO),
    ({"all": ["Expense details"], "value": {"type": "money", "equals": "1810"}}, Verdict.YES),
])
def test_ocr_value_and_whole_numbers(shot: Path, engine: RapidOcrEngine, params: dict,
                                     verdict: Verdict) -> None:
    options = VerifierOptions(ocr_engine=engine)
    result = get_checker("ocr").run(Frame(index=0, image_path=shot), params, options)
    assert result.verdict is verdict, result.reason


def test_ocr_value_from_a_mobiflow_ocr_callable(shot: Path) -> None:
    """OCR confusions are folded for typed reading: "1O:3O" is 10:30."""
    options = VerifierOptions(ocr=lambda frame: "Alarm\n1O:3O")
    checker, frame = get_checker("ocr"), Frame(index=0, image_path=shot)
    assert checker.run(frame, {"value": {"type": "time", "equals": "10:30"}}, options).yes
    assert checker.run(frame, {"value": {"type": "time", "equals": "10:03"}}, options).no


# -- rule-load time: bad value specs ----------------------------------------------------------------------
@pytest.mark.parametrize(("checker", "params", "needle"), [
    ("text_match", {"value": {"type": "moneyy", "equals": "1"}}, "value.type: 'moneyy' is not a value type"),
    ("xml", {"value": {"type": "money"}}, "give exactly one of `equals`"),
    ("ocr", {"value": {"type": "money", "equals": "abc"}}, "'abc' does not read as a money"),
    ("action_match", {"value": "181"}, "value: expected a mapping"),
    ("action_match", {"value": []}, "'value' is an empty list"),
    ("regex_match", {"pattern": "x", "value": [{"type": "time", "equals": "25:99"}]}, "value[0]"),
    ("action_match", {"declares": "feasible"}, "'declares' is 'feasible'"),
    ("action_match", {"type": "answer", "field": "text"}, "'field' names the field"),
    ("xml", {"value": {"type": "money", "equals": "1", "colour": "red"}}, "unknown key(s) ['colour']"),
])
def test_bad_value_specs_are_rejected(checker: str, params: dict, needle: str) -> None:
    problems = get_checker(checker).validate(params)
    assert any(needle in p for p in problems), problems


def test_rule_load_names_file_line_node_and_the_fix() -> None:
    from droidpilot.verify.spec import RuleError, load_rule_text

    text = """task_id: t
nodes:
  - id: balance
    condition:
      type: escalate
      params:
        xml: {all: [Checking], value: {type: moneyy, equals: "1,204.10"}}
        ocr: {all: [Checking], value: {type: money}}
  - id: answer
    deps: [balance]
    condition: {type: action_match, params: {type: answer, declares: possible}}
"""
    with pytest.raises(RuleError) as err:
        load_rule_text(text, source="rule.yaml")
    message = str(err.value)
    assert "rule.yaml:7: node 'balance': escalate.xml: value.type: 'moneyy' is not a value type" in message
    assert "rule.yaml:8: node 'balance': escalate.ocr: value: give exactly one of `equals`" in message
    assert "rule.yaml:11: node 'answer': action_match: 'declares' is 'possible'" in message


def test_a_good_typed_rule_loads_and_judges() -> None:
    from droidpilot.verify.engine import verify
    from droidpilot.verify.spec import load_rule_text

    rule = load_rule_text("""task_id: t
nodes:
  - id: answer
    condition: {type: action_match, params: {type: answer, value: {type: money, equals: "181"}}}
""", source="rule.yaml")
    assert rule.warnings == []
    assert verify(rule, [reply("It was $181.00")]).ok
    assert not verify(rule, [reply("$1810")]).ok


def test_a_text_cursor_after_a_number_is_no_digit(shot: Path) -> None:
    """An edit field read as "22.5|": the cursor is not a digit (confusion folding would read "22.51")."""
    checker, frame = get_checker("ocr"), Frame(index=0, image_path=shot)
    typing = VerifierOptions(ocr=lambda f: "Amount\n22.5|")
    assert checker.run(frame, {"all": ["22.5"], "whole_numbers": True}, typing).yes
    assert checker.run(frame, {"value": {"type": "number", "equals": "22.5"}}, typing).yes
    assert checker.run(frame, {"value": {"type": "number", "equals": "22.51"}}, typing).no
    assert checker.run(frame, {"all": ["22.5"], "whole_numbers": True},
                       VerifierOptions(ocr=lambda f: "Amount\n22.51")).no
