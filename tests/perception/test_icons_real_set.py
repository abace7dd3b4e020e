"""The real-screen icon set's loader (benchmarks/real_icon_set.py): the shipped set loads, and a bad entry
is refused with the file, the line, and what to write instead."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from tests.support.benchmarks import load_benchmark

from droidpilot.errors import InputError


def _loader() -> ModuleType:  # the module, imported from benchmarks/ (not a package)
    return load_benchmark("real_icon_set")


def test_the_shipped_set_covers_every_app_in_every_split() -> None:
    root, labels = _loader().load_labels()
    assert root.endswith("mobile-eval-real") and len(labels) >= 150
    apps = {lb.app for lb in labels}
    assert len(apps) == 11
    assert {lb.split for lb in labels} == {"tune", "report", "holdout"}
    assert all(lb.box[0] < lb.box[2] and lb.box[1] < lb.box[3] for lb in labels)
    assert len({(lb.screen, lb.query) for lb in labels}) == len(labels)  # one truth per query and screen


def test_the_holdout_is_its_own_screens_over_every_app() -> None:
    _, labels = _loader().load_labels()
    holdout = [lb for lb in labels if lb.split == "holdout"]
    screens = {lb.screen for lb in holdout}
    assert len(holdout) >= 278 and len(screens) >= 30  # two blind batches: 129 on 15 screens, 149 on 15
    assert {lb.app for lb in holdout} == {lb.app for lb in labels}
    assert not screens & {lb.screen for lb in labels if lb.split != "holdout"}


GOOD = """root: ../shared/reference/mobile-eval-real
screens:
  - path: Chrome/1/2.jpg
    split: report
    icons:
      - {query: "gray gear, right", box: [487, 785, 514, 812]}
"""


@pytest.mark.parametrize(("bad", "needle"), [
    ("box: [487, 785, 514, 812]", None),
    ("box: [514, 785, 487, 812]", ":6: box [514, 785, 487, 812] is empty"),
    ("box: [487, 785, 514]", ":6: box must be four whole numbers"),
    ("box: [487.5, 785, 514, 812]", ":6: box must be four whole numbers"),
    ("box: [true, 785, 514, 812]", ":6: box must be four whole numbers"),
])
def test_boxes_are_checked_with_the_line(tmp_path: Path, bad: str, needle: str | None) -> None:
    path = tmp_path / "set.yaml"
    path.write_text(GOOD.replace("box: [487, 785, 514, 812]", bad), encoding="utf-8")
    if needle is None:
        assert _loader().load_labels(path)[1][0].query == "gray gear, right"
        return
    with pytest.raises(InputError, match=re.escape(needle)):
        _loader().load_labels(path)


@pytest.mark.parametrize(("old", "new", "needle"), [
    ("split: report", "split: test", "split 'test' of Chrome/1/2.jpg; use one of tune, report, holdout"),
    ("split: report", "split: holdOut",
     "use one of tune, report, holdout (did you mean 'holdout'? splits are lower case)"),
    ("split: report", "split: hold-out", "split 'hold-out' of Chrome/1/2.jpg; use one of tune, report, "
                                         "holdout"),
    ('query: "gray gear, right"', 'query: ""', "non-empty 'query'"),
    ("root: ../shared/reference/mobile-eval-real\n", "", "'root'"),
    ("    icons:", "    icons: [\n", "not valid YAML"),
])
def test_bad_entries_say_what_to_write(tmp_path: Path, old: str, new: str, needle: str) -> None:
    path = tmp_path / "set.yaml"
    path.write_text(GOOD.replace(old, new), encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(needle)) as err:
        _loader().load_labels(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("written", ["split: holdout", "split: 'holdout'", 'split: "holdout"'])
def test_the_holdout_split_is_read_however_it_is_quoted(tmp_path: Path, written: str) -> None:
    path = tmp_path / "set.yaml"
    path.write_text(GOOD.replace("split: report", written), encoding="utf-8")
    assert [lb.split for lb in _loader().load_labels(path)[1]] == ["holdout"]


def test_a_screen_in_two_splits_is_refused_with_both_lines(tmp_path: Path) -> None:
    twice = GOOD + GOOD.split("screens:\n", 1)[1].replace("split: report", "split: holdout")
    path = tmp_path / "set.yaml"
    path.write_text(twice, encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(f"{path}:7: screen Chrome/1/2.jpg is listed again (first "
                                                   "at line 3); a screen belongs to one split")):
        _loader().load_labels(path)
