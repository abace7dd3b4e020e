"""The template keys that shape the generated rule, ``any_order`` and ``forbid``: near-miss shapes are
refused on load with the file, line, template, key and a fix; right ones load as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.bench.suite import load_suite
from droidpilot.bench.task import SuiteError
from droidpilot.bench.world.ruleshape import ShapeProblem, check_any_order, check_forbid


@pytest.mark.parametrize(("raw", "key", "says"), [
    ([[1]], "any_order[0]", "is not a list of two or more numbers"),
    ([[1, 3]], "any_order[0]", "are not consecutive checkpoints"),
    ([[2, 3, 4]], "any_order[0]", "goes beyond checkpoints 1..3"),
    ([[0, 1]], "any_order[0]", "goes beyond checkpoints 1..3"),
    ([[1, 2], [2, 3]], "any_order[1]", "overlaps another group"),
    ([[1, True]], "any_order[0]", "is not a list of two or more numbers"),
    ({"1": 2}, "any_order", "expected a list of groups"),
])
def test_any_order_near_misses(raw: object, key: str, says: str) -> None:
    with pytest.raises(ShapeProblem, match=says) as err:
        check_any_order(raw, 3)
    assert err.value.key == key and err.value.fix


def test_any_order_as_written() -> None:
    assert check_any_order([[2, 1], [3, 4]], 4) == [[1, 2], [3, 4]]
    assert check_any_order(None, 4) == []


@pytest.mark.parametrize(("raw", "says"), [
    ([{"tap": "Delete"}], "is not one of"),
    ([{"click": "Delete", "shows": ["x"]}], "is not one of"),
    ([{"click": "Delete", "afterwards": 1}], "is not one of"),
    ([{"shows": ["x"], "except": "y"}], "is not one of"),             # except belongs to click
    ([{"click": " "}], "click: needs the whole text"),
    ([{"click": []}], "click: needs the whole text"),
    ([{"click": ["Wi-Fi", ""]}], "click: needs the whole text"),
    ([{"click": ["Wi-Fi"], "except": [None]}], "except: needs the text"),
    ([{"shows": []}], "shows: needs a non-empty list"),
    ([{"shows": "Deleted"}], "shows: needs a non-empty list"),
    ([{"click": "Delete", "after": 3}], "after: 3 is not a checkpoint number 0..2"),
    ([{"click": "Delete", "after": -1}], "is not a checkpoint number"),
    ("Delete", "expected a list"),
])
def test_forbid_near_misses(raw: object, says: str) -> None:
    with pytest.raises(ShapeProblem, match=says):
        check_forbid(raw, 2)


def test_forbid_as_written_defaults_to_after_the_last_checkpoint() -> None:
    assert check_forbid([{"click": "Remove"}, {"shows": ["Sent"], "after": 0}], 2) == [
        {"click": "Remove", "after": 2}, {"shows": ["Sent"], "after": 0}]
    assert check_forbid([{"click": ["Wi-Fi", "Bluetooth"], "except": "{s.row}", "after": 0}], 2) == [
        {"click": ["Wi-Fi", "Bluetooth"], "after": 0, "except": "{s.row}"}]


def test_a_bad_key_in_a_suite_names_file_line_template_and_fix(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    (folder / "notes.yaml").write_text(
        "app: notes\ntemplates:\n  - id: a\n    kind: edit\n    instruction: x\n    reference: [back]\n"
        "    checkpoints: [[Notes], [Saved]]\n    oracle: {path: notes.notes, exists: true}\n"
        "    forbid: [{click: Delete, after: 5}]\n", encoding="utf-8")
    with pytest.raises(SuiteError, match=r"notes.yaml:3: template 'a' field 'forbid\[0\]': after: 5 is not a "
                                         r"checkpoint number 0..2 — 0 watches from the start"):
        load_suite(str(folder))
