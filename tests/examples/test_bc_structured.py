"""examples/bc_structured.py runs end to end, tiny: demonstrations, training and evaluation, and the
trained policy wins held-out seeds the untrained one does not; its step labelling picks the right element."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bc_structured.py"


@pytest.fixture(scope="module")
def bc():
    spec = importlib.util.spec_from_file_location("bc_structured", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def test_training_makes_the_policy_win_where_it_did_not(bc, capsys):
    result = bc.main(["--train", "0-9", "--eval", "1000-1007", "--epochs", "150"])
    assert result["samples"] >= 30 and result["fit"] > 0.6
    assert result["before"] == 0.0 and result["after"] > result["before"]
    assert "held-out seeds: 0% before training" in capsys.readouterr().out


def test_a_tap_is_labelled_with_the_smallest_element_under_it_and_edges_count_once(bc):
    row = bc.Element("Network & internet", (0, 100, 540, 200), False, True)
    title = bc.Element("Network", (20, 120, 200, 160), False, False)
    found = [row, title, "page_down", "stop"]
    assert bc._label(found, {"type": "click", "position_x": 50, "position_y": 130}, "") == 1
    assert bc._label(found, {"type": "click", "position_x": 300, "position_y": 130}, "") == 0
    assert bc._label(found, {"type": "click", "position_x": 540, "position_y": 130}, "") is None  # x2 is out
    assert bc._label(found, {"type": "swipe"}, "Action: page down") == 2
    assert bc._label(found, {}, "Action: answer (42)") == 3
    assert bc._label(found, {"type": "wait"}, "Action: wait (2)") is None


def test_ui_tree_elements_keep_texts_and_descriptions_only(bc):
    xml = ('<hierarchy><node text="" content-desc="Back" bounds="[0,0][80,80]" clickable="true" />'
           '<node text="Wi-Fi" content-desc="" bounds="[0,100][540,200]" checked="true" />'
           '<node text="" content-desc="" bounds="[0,0][540,1200]" />'
           '<node text="Empty box" bounds="[10,10][10,50]" /></hierarchy>')
    assert [(e.text, e.checked, e.clickable) for e in bc.elements(xml)] == [("Back", False, True),
                                                                           ("Wi-Fi", True, False)]
