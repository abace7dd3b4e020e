"""Template suites a user writes that nest thousands deep or hold numbers no parameter can use: `suite
validate` and `bench --suite DIR` end with a message naming the file (and line), exit 2, no traceback.
Near misses are refused, differently-written right values accepted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from droidpilot.bench.params import ParamError, draw
from droidpilot.cli import _discover, app

TEMPLATE = ("app: notes\ntemplates:\n  - id: note-n\n    kind: data-entry\n"
            "    instruction: Write a note saying {n}.\n    params:\n      n: {PARAM}\n"
            "    reference: ['open App (Notes)', 'type ({n})']\n    checkpoints: [[Notes]]\n"
            "    oracle: {path: notes.notes, contains: '{n}'}\n")


def _suite(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    files = {"_suite.yaml": "type: templates\n", **files}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _both(folder: Path, tmp_path: Path, first: str = "validate") -> list[str]:
    """``suite validate FOLDER`` (or ``suite list --suite FOLDER``) and ``bench --suite FOLDER``: both
    must exit 2; their messages."""
    _discover()
    out = []
    suite = ["suite", "validate", str(folder), "--seeds", "1"] if first == "validate" else \
        ["suite", "list", "--suite", str(folder)]
    for args in (suite,
                 ["bench", "--suite", str(folder), "--brain", "reference", "--out", str(tmp_path / "out")]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output and not isinstance(result.exception, RecursionError)
        out.append(" ".join(result.output.split()))
    return out


def test_a_5000_deep_template_file_is_a_clear_error(tmp_path: Path) -> None:
    folder = _suite(tmp_path, {"deep.yaml": "app: notes\ntemplates: " + "[" * 5000 + "]" * 5000 + "\n"})
    for message in _both(folder, tmp_path):
        assert "deep.yaml:2: too large: nested more than 100 levels deep" in message


def test_a_5000_deep_suite_marker_is_a_clear_error(tmp_path: Path) -> None:
    folder = _suite(tmp_path, {"_suite.yaml": "type: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n",
                               "notes.yaml": TEMPLATE.replace("{PARAM}", "{type: int}")})
    for message in _both(folder, tmp_path, first="list"):
        assert "_suite.yaml:1: too large: nested more than 100 levels deep" in message


@pytest.mark.parametrize(("param", "message"), [
    ("{type: int, min: .nan}", "params.n.min: nan is not a number a parameter can use"),
    ("{type: int, max: .inf}", "params.n.max: inf is not a number a parameter can use"),
    ("{type: int, max: -.Inf}", "params.n.max: -inf is not a number a parameter can use"),
    ("{type: int, max: " + "9" * 40 + "}", "params.n.max: a number of 40 digits is too large (the "
                                           "limit is 10^18)"),
    ("{type: const, value: [1, " + "9" * 30 + "]}", "params.n.value[1]: a number of 30 digits"),
    ("{type: int, min: 1, max: 2000000000}", "params.n.max: 2,000,000,000 is outside "
                                             "-1,000,000,000..1,000,000,000"),
    ("{type: date, max: 100000000}", "params.n.max: 100,000,000 is outside -36,500..36,500"),
    ("{type: time, max: 30}", "params.n.max: 30 is outside 0..23"),
    ("{type: int, min: 9, max: 3}", "min 9 is above max 3"),
    ("{type: int, min: 2.5}", "params.n.min: expected a whole number, got 2.5"),
    ("{type: int, min: '3'}", "params.n.min: expected a whole number, got '3'"),
    ("{type: int, min: true}", "params.n.min: expected a whole number, got True"),
    ("{type: records, count: 1000000000, fields: {a: int}}", "count: 1,000,000,000 is outside 0..10,000"),
    ("{type: words, count: 500}", "params.n.count: 500 is outside 0..27"),
])
def test_numbers_no_parameter_can_use_are_clear_errors(tmp_path: Path, param: str, message: str) -> None:
    folder = _suite(tmp_path, {"notes.yaml": TEMPLATE.replace("{PARAM}", param)})
    for text in _both(folder, tmp_path):
        assert message in text and "notes.yaml:3" in text, text


@pytest.mark.parametrize(("spec", "allowed"), [
    ({"type": "int", "min": 5.0, "max": 7}, {5, 6, 7}),  # a whole number written as a float
    ({"type": "int", "min": -3, "max": -3}, {-3}),
    ({"type": "time", "min": 0, "max": 0}, {"00:00", "00:15", "00:30", "00:45"}),
    ({"type": "int", "min": 0x10, "max": 0x10}, {16}),
])
def test_differently_written_right_numbers_are_drawn(spec: dict, allowed: set) -> None:
    assert draw(spec, random.Random(1), "p") in allowed


def test_a_date_far_out_is_refused_not_overflowing() -> None:
    with pytest.raises(ParamError, match=r"p\.min: -100,000 is outside -36,500\.\.36,500"):
        draw({"type": "date", "min": -100_000, "max": 0}, random.Random(0), "p")


def test_a_5000_digit_number_is_a_clear_error(tmp_path: Path) -> None:
    """A number no reader should have to turn into an integer: refused with the file and line."""
    param = "{type: int, max: " + "9" * 5000 + "}"
    folder = _suite(tmp_path, {"notes.yaml": TEMPLATE.replace("{PARAM}", param)})
    for text in _both(folder, tmp_path):
        assert "notes.yaml:7: too large: a number with 5,000 digits" in text and "Traceback" not in text


@pytest.mark.parametrize("key", ["on", "yes", "off", "1"])
def test_a_parameter_name_yaml_reads_as_a_value_is_a_clear_error(tmp_path: Path, key: str) -> None:
    text = TEMPLATE.replace("{PARAM}", "{type: int}\n      " + key + ": {type: int}")
    for message in _both(_suite(tmp_path, {"notes.yaml": text}), tmp_path):
        assert "notes.yaml:3: template 'note-n' field 'params': parameter name" in message, message
        assert "is not text" in message and "quote it" in message


def test_the_same_name_quoted_is_a_parameter(tmp_path: Path) -> None:
    text = TEMPLATE.replace("{PARAM}", "{type: int}\n      \"on\": {type: int}")
    _discover()
    result = CliRunner().invoke(app, ["suite", "validate", str(_suite(tmp_path, {"notes.yaml": text})),
                                      "--seeds", "1"])
    assert "Traceback" not in result.output and "is not text" not in result.output
    assert "1 templates" in " ".join(result.output.split()), result.output
