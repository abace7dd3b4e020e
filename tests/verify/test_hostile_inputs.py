"""Hostile rules and traces: alias bombs, deep nesting, NaN scores, runaway action indices — clear errors."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from droidpilot import datalimits
from droidpilot.cli import _discover, app
from droidpilot.datalimits import MAX_DEPTH, DataLimitError, load_json_text
from droidpilot.errors import InputError
from droidpilot.verify.engine import verify
from droidpilot.verify.examples import example_dir
from droidpilot.verify.rule import Node
from droidpilot.verify.spec import RuleError, load_rule_text
from droidpilot.verify.trace import load_trace

EXAMPLE = example_dir()


def alias_bomb(levels: int = 9) -> str:
    """About 1 KB of YAML whose ``any:`` keywords expand to 10**levels strings."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for k in range(1, levels + 1):
        lines.append(f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]")
    lines += ["task_id: bomb", "nodes:", "  - id: n", "    condition:", "      type: text_match",
              f"      params: {{any: *a{levels}}}", "success: {any_of: [n]}"]
    return "\n".join(lines) + "\n"


def deep_yaml(levels: int = 5000) -> str:
    return "task_id: deep\nnodes: " + "[" * levels + "]" * levels + "\n"


def test_a_yaml_alias_bomb_is_refused_quickly_with_the_line() -> None:
    text = alias_bomb()
    assert len(text) < 1500
    with pytest.raises(RuleError) as info:
        load_rule_text(text, "bomb.yaml")
    message = str(info.value)
    assert "too large" in message and "aliases" in message and "bomb.yaml" in message


def test_deeply_nested_yaml_and_json_rules_are_rule_errors_not_recursion() -> None:
    with pytest.raises(RuleError, match=f"nested more than {MAX_DEPTH} levels"):
        load_rule_text(deep_yaml(), "deep.yaml")
    deep_json = '{"task_id": "x", "nodes": ' + "[" * 5000 + "]" * 5000 + "}"
    with pytest.raises(RuleError, match=f"nested more than {MAX_DEPTH} levels"):
        load_rule_text(deep_json, "deep.json")


def test_limits_let_ordinary_documents_through() -> None:
    datalimits.check_yaml("a: &x [1, 2]\nb: [*x, *x]\nc: {d: [[[1]]]}\n")
    datalimits.check_json('{"s": "[[[[[[ not brackets", "l": [[1], {"k": [2]}]}')
    datalimits.check_depth({"a": [[1], {"b": 2}]})
    with pytest.raises(DataLimitError):
        datalimits.check_depth(json.loads("[" * 150 + "]" * 150))


def test_deeply_nested_json_trace_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    path.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    with pytest.raises(InputError, match=f"trace.json: line 1: nested more than {MAX_DEPTH}"):
        load_trace(path)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_in_json_traces_are_refused(tmp_path: Path, constant: str) -> None:
    path = tmp_path / "trace.json"
    path.write_text(f'[{{"text": "a", "ui": {{"x": {constant}}}}}]', encoding="utf-8")
    with pytest.raises(InputError, match=f"{constant} is not a number droidpilot accepts"):
        load_trace(path)
    assert load_json_text("[1.5]") == [1.5]


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
def test_non_finite_scores_and_thresholds_are_rule_errors(value: str) -> None:
    rule = ("task_id: t\nnodes:\n  - id: n\n    score: " + value +
            "\n    condition: {type: text_match, params: {any: [x]}}\nsuccess: {any_of: [n]}\n")
    with pytest.raises(RuleError, match="score must be a finite number"):
        load_rule_text(rule, "r.yaml")
    with pytest.raises(ValueError):
        Node(id="n", score=math.nan)


def _folder(tmp_path: Path, actions: list[dict[str, object]], shots: int = 2) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    for n in range(1, shots + 1):
        Image.new("RGB", (20, 40), (n * 50, 0, 0)).save(folder / f"{n}.png")
    (folder / "actions.json").write_text(json.dumps({"task_description": "t", "actions": actions}))
    return folder


@pytest.mark.parametrize("index", [3 + 1, 1_000_000, 100_000_000])
def test_action_indices_beyond_the_screenshots_are_refused(tmp_path: Path, index: int) -> None:
    actions = [{"type": "click", "action_index": 1}, {"type": "done", "action_index": index}]
    folder = _folder(tmp_path, actions)
    with pytest.raises(InputError) as info:
        load_trace(folder)
    message = str(info.value)
    assert f"step {index}" in message and "screenshots 1..2" in message and "actions.json" in message


def test_one_last_action_after_the_last_screenshot_is_still_a_frame(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [{"type": "click", "action_index": n} for n in (1, 2, 3)])
    assert len(load_trace(folder)) == 3


def test_without_screenshots_indices_are_bounded_by_the_entries(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [{"type": "click", "action_index": 1_000_000}], shots=0)
    with pytest.raises(InputError, match="step 1000000, beyond the frames present"):
        load_trace(folder)


@pytest.fixture
def runner() -> CliRunner:
    _discover()
    return CliRunner()


def test_verify_exits_2_not_1_on_a_deep_or_exploding_rule(runner: CliRunner, tmp_path: Path) -> None:
    for name, text in (("deep.yaml", deep_yaml()), ("bomb.yaml", alias_bomb())):
        rule = tmp_path / name
        rule.write_text(text, encoding="utf-8")
        res = runner.invoke(app, ["verify", str(rule), str(EXAMPLE / "trace"), "--json"])
        assert res.exit_code == 2, res.output
        assert "Traceback" not in res.output and "too large" in res.output


RULE_TEXT = (EXAMPLE / "rule.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("digits", "name"), [(5000, "r.yaml"), (401, "r.yaml"), (5000, "r.json"),
                                              (400, "r.json")])
def test_numbers_with_hundreds_of_digits_in_rules_are_refused_with_the_line(digits: int, name: str) -> None:
    if name.endswith(".yaml"):
        text = RULE_TEXT.replace("score: 5", "score: 1" + "0" * (digits - 1))
        line = RULE_TEXT[:RULE_TEXT.index("score: 5")].count("\n") + 1
    else:
        text = '{"task_id": "t",\n "nodes": [{"id": "a", "score": 1' + "0" * (digits - 1) + "}]}"
        line = 2
    with pytest.raises(RuleError) as info:  # was a ValueError (int parsing) or OverflowError (score)
        load_rule_text(text, name)
    message = str(info.value)
    assert f"{name}:{line}: too large: a number with {digits:,} digits" in message
    assert "write a smaller number, or quote it if it is text" in message


def test_long_numbers_written_as_text_and_large_finite_numbers_still_load() -> None:
    keyword = "9" * 5000
    quoted = RULE_TEXT.replace('any: ["Added to cart"]', f'any: ["{keyword}"]').replace("score: 5",
                                                                                         "score: 1.0e+300")
    task = load_rule_text(quoted, "r.yaml")
    assert task.node("cart_confirmed").condition.params["any"] == [keyword]
    assert task.node("finished").score == 1e300
    big = load_rule_text(RULE_TEXT.replace("score: 5", "score: 1" + "0" * 299), "r.yaml")
    assert big.node("finished").score == 1e299


@pytest.mark.parametrize("number", ["1e400", "-2E+308", "1.5e999"])
def test_json_numbers_beyond_a_float_are_refused(tmp_path: Path, number: str) -> None:
    rule = '{"task_id": "t", "nodes": [{"id": "a", "score": ' + number + "}]}"
    with pytest.raises(RuleError, match=f"r.json:1: too large: {re.escape(number)} is beyond the range"):
        load_rule_text(rule, "r.json")
    path = tmp_path / "trace.json"
    path.write_text('[{"text": "a",\n  "ui": {"x": ' + number + "}}]", encoding="utf-8")
    with pytest.raises(InputError, match=f"trace.json: line 2: {re.escape(number)} is beyond the range"):
        load_trace(path)  # was silently read as infinity


def test_json_numbers_near_the_limits_still_load(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    path.write_text('[{"text": "1e400", "ui": {"a": 1e-400, "b": 1.7e308, "c": ' + "9" * 300 + "}}]",
                    encoding="utf-8")
    ui = load_trace(path).frames[0].ui
    assert (ui["a"], ui["b"], ui["c"]) == (0.0, 1.7e308, int("9" * 300))


def test_a_5000_digit_action_index_is_refused_with_the_line(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [{"type": "click", "action_index": 1}])
    text = (folder / "actions.json").read_text().replace('"action_index": 1', '"action_index": ' + "9" * 5000)
    (folder / "actions.json").write_text(text)
    with pytest.raises(InputError, match=r"actions\.json: line 1: a number with 5,000 digits"):
        load_trace(folder)


def test_scores_beyond_a_float_built_in_python_are_value_errors_not_overflow() -> None:
    with pytest.raises(ValueError, match="expected a finite number, not a whole number of about 400 digits"):
        Node(id="n", score=10**400)
    with pytest.raises(ValueError, match="not a whole number of about 5,000 digits"):
        Node(id="n", score=10**5000)  # repr() of it would raise: more than 4,300 digits


@pytest.mark.parametrize(("text", "key"), [
    ('[{"text": "a", "text": "b"}]', "text"),
    ('{"frames": [{"ui": {"x": 1, "y": 2, "x": 3}}], "task_description": "t"}', "x"),
])
def test_a_key_given_twice_in_a_json_trace_is_refused(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "trace.json"
    path.write_text(text, encoding="utf-8")  # json.loads kept the later value without a word
    with pytest.raises(InputError, match=f"trace.json: key '{key}' is given twice in one object"):
        load_trace(path)


def test_a_key_given_twice_in_actions_json_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [{"type": "click", "action_index": 1}])
    text = (folder / "actions.json").read_text().replace('"type": "click"', '"type": "click", "type": "done"')
    (folder / "actions.json").write_text(text)
    with pytest.raises(InputError, match=r"actions\.json: key 'type' is given twice in one object"):
        load_trace(folder)
    assert load_json_text('{"a": {"k": 1}, "b": {"k": 2}}') == {"a": {"k": 1}, "b": {"k": 2}}


def test_scores_that_add_up_beyond_a_float_are_refused() -> None:
    text = RULE_TEXT.replace("score: 5", "score: 1.7e+308").replace(
        "name: Tap Add to cart\n", "name: Tap Add to cart\n    score: 1.7e+308\n")
    with pytest.raises(RuleError, match=r"node 'finished': the scores add up to more than 1\.8e\+308"):
        load_rule_text(text, "r.yaml")  # total_score and max_score were printed as Infinity (not JSON)
    task = load_rule_text(RULE_TEXT, "r.yaml")
    task.node("finished").score = task.node("add_to_cart").score = 1.7e308
    with pytest.raises(InputError, match="the node scores add up beyond a float's range"):
        verify(task, load_trace(EXAMPLE / "trace"))
    task.node("add_to_cart").score = 1.0
    assert verify(task, load_trace(EXAMPLE / "trace")).total_score > 1e308


@pytest.mark.parametrize("kind", ["devzero", "loop"])
def test_an_icon_path_that_is_no_image_file_is_named_for_what_it_is(tmp_path: Path, kind: str) -> None:
    icon = tmp_path / "icon.png"
    icon.symlink_to("/dev/zero" if kind == "devzero" else icon)
    rule = load_rule_text("task_id: t\nnodes:\n  - id: a\n    condition: {type: icons_match, params: {any: ["
                          f"'{icon}']}}}}\n", str(tmp_path / "r.yaml"))
    expected = "is a character device" if kind == "devzero" else "is a symbolic link that loops"
    with pytest.raises(InputError, match=f"icon '.*icon.png': .*icon.png {expected}"):  # was "no such file"
        verify(rule, load_trace(EXAMPLE / "trace"))
