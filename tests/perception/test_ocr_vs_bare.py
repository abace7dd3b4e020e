"""benchmarks/ocr_vs_bare.py: how lines are compared, and the reviewed list that explains bare-only lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.support.benchmarks import load_benchmark

from droidpilot.perception.types import OcrLine


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("ocr_vs_bare")


def test_stacked_digits_read_as_one_number_are_a_miss_and_a_split_line_is_not(bench: Any) -> None:
    bare = [OcrLine("0.00", (400, 100, 420, 110), 0.9), OcrLine("Wi-Fi calling", (20, 200, 200, 230), 0.9)]
    ours = [OcrLine("000", (400, 100, 420, 122), 0.9), OcrLine("Wi-Fi", (20, 200, 90, 230), 0.9),
            OcrLine("calling", (95, 200, 200, 230), 0.9)]
    missed, otherwise = bench.missing(bare, ours)
    assert [ln.text for ln in missed] == ["0.00"] and otherwise == []
    assert bench.read_there(bare[1], ours) == "Wi-Fi calling"


def test_the_shipped_reviewed_list_loads_and_explains_a_miss_only_on_its_own_screen_and_place(bench: Any
                                                                                             ) -> None:
    reviewed = bench.load_reviewed(bench.REVIEWED)
    assert reviewed and all(r.kind in bench.KINDS and r.why for r in reviewed)
    first = reviewed[0]
    line = OcrLine(first.text, first.box, 0.9)
    assert bench.review_of(first.screen, line, reviewed) is first
    assert bench.review_of("Other/1/1.jpg", line, reviewed) is None
    moved = OcrLine(first.text, (first.box[0], first.box[1] + 200, first.box[2], first.box[3] + 200), 0.9)
    assert bench.review_of(first.screen, moved, reviewed) is None
    assert bench.review_of(first.screen, OcrLine(first.text + "x", first.box, 0.9), reviewed) is None


@pytest.mark.parametrize(("text", "message"), [
    ("- {screen: a.jpg, box: [1, 2, 3, 4], text: x, kind: icon}\n", "needs screen, box, text, kind and why"),
    ("- {screen: a.jpg, box: [1, 2, 3], text: x, kind: icon, why: w}\n", "four whole numbers"),
    ("- {screen: a.jpg, box: [1, 2, 3, 4], text: x, kind: icons, why: w}\n", "is not one of"),
    ("- {screen: a.jpg, box: [1, 2, 3, 4], text: x, kind: icon, why: ' '}\n", "say why"),
    ("screen: a.jpg\n", "a list of reviewed lines"),
    ("- [unclosed\n", "not valid YAML"),
])
def test_a_bad_reviewed_entry_is_refused_naming_the_file(bench: Any, tmp_path: Path, text: str,
                                                         message: str) -> None:
    path = tmp_path / "reviewed.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(bench.ReviewError, match=message) as err:
        bench.load_reviewed(path)
    assert str(path) in str(err.value)


def test_the_report_lists_a_miss_the_list_does_not_explain_as_unreviewed(bench: Any) -> None:
    result = bench.Comparison()
    result.add("A/1/1.jpg", [OcrLine("Save", (10, 10, 60, 30), 0.9)], [])
    out = bench.report(result, [], 10, "test")
    assert "unreviewed 1" in out[1] and "UNREVIEWED" in out[2] and "'Save'" in out[2]
