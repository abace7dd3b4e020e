"""The real-screen icon training sets (benchmarks/data/real_icon_train_*.yaml, checked by
benchmarks/real_icon_train_set.py): each loads, keeps clear of the measured set's screens and holdout runs,
has its boxes inside the screen, and names every icon by a class the classifier knows."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from tests.support.benchmarks import load_benchmark

from droidpilot.errors import InputError


def _train() -> ModuleType:
    return load_benchmark("real_icon_train_set")


def _files() -> list[Path]:
    return _train().TRAIN_FILES


REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_each_training_set_is_fit_to_train_on(path: Path) -> None:
    root, labels = load_benchmark("real_icon_set").load_labels(path, ("train",))
    assert root.endswith("mobile-eval-real") and labels
    assert {lb.split for lb in labels} == {"train"}
    assert all(lb.glyph for lb in labels)
    assert len({(lb.screen, lb.box) for lb in labels}) == len(labels)  # one class per box
    assert _train().problems(path) == []


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_each_box_is_tight_to_its_ink_or_drawn_by_hand(path: Path) -> None:
    loose = load_benchmark("icon_box_ink").check("all", 2, None, path)
    assert [line for line in loose if "busy rim, box kept as drawn by hand" not in line] == []


def test_there_is_a_training_set() -> None:
    assert _files() and all(p.name.startswith("real_icon_train_") for p in _files())


GOOD = """root: ../shared/reference/mobile-eval-real
screens:
  - path: Amazon Music/3/8.jpg
    split: train
    icons:
      - {query: "share icon", box: [190, 911, 226, 948], glyph: share}
"""


def _problems_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "real_icon_train_z.yaml"
    path.write_text(text, encoding="utf-8")
    return _train().problems(path)


@pytest.mark.parametrize("glyph", ["share", "more_horiz", "keyboard_control", "brand:amazon music", "other"])
def test_a_known_class_however_it_is_named_passes(tmp_path: Path, glyph: str) -> None:
    assert _problems_of(tmp_path, GOOD.replace("glyph: share", f"glyph: {glyph}")) == []


@pytest.mark.parametrize(("old", "new", "needle"), [
    ("glyph: share", "glyph: Share",
     "glyph 'Share' is not a library glyph of icons.json, brand:NAME or other (did you mean 'share'?)"),
    ("glyph: share", "glyph: share_icon", "glyph 'share_icon' is not a library glyph"),
    ("glyph: share", "glyph: 'brand:amazonmusic'", "brand 'amazonmusic' is not in brands.yaml"),
    ("glyph: share", "glyph: brand", "glyph 'brand' is not a library glyph"),
    (", glyph: share", "", "has no 'glyph'"),
    ("Amazon Music/3/8.jpg", "Amazon Music/3/7.jpg", "the screen is in real_icons.yaml"),
    ("box: [190, 911, 226, 948]", "box: [190, 911, 226, 1171]", "runs past the 540x1170 screen"),
])
def test_a_near_miss_is_named(tmp_path: Path, old: str, new: str, needle: str) -> None:
    found = _problems_of(tmp_path, GOOD.replace(old, new))
    assert len(found) == 1 and needle in found[0], found


def test_a_screen_from_a_holdout_run_is_refused(tmp_path: Path) -> None:
    sets = load_benchmark("real_icon_set")
    written, measured = sets.load_labels()
    run = sorted(_train().holdout_runs(measured))[0]
    taken = {lb.screen for lb in measured}
    root = sets.screens_root(written)
    free = next(f"{run}/{p.name}" for p in sorted((root / run).glob("*.jpg"))
                if f"{run}/{p.name}" not in taken)
    found = _problems_of(tmp_path, GOOD.replace("Amazon Music/3/8.jpg", free).replace(
        "box: [190, 911, 226, 948]", "box: [10, 10, 20, 20]"))
    assert found == [f"real_icon_train_z.yaml: {free} 'share icon': the screen's run holds a holdout screen; "
                     "train on other runs"]


@pytest.mark.parametrize(("old", "new", "needle"), [
    ("split: train", "split: tune", "split 'tune' of Amazon Music/3/8.jpg; use one of train"),
    ("split: train", "split: Train", "use one of train (did you mean 'train'? splits are lower case)"),
    ("glyph: share", "glyph: ''", ":6: 'glyph' must be a class name (a library glyph, brand:NAME or other), "
                                  "got ''"),
    ("glyph: share", "glyph: [share]", "got ['share']"),
])
def test_a_malformed_entry_is_refused_with_its_line(tmp_path: Path, old: str, new: str, needle: str) -> None:
    with pytest.raises(InputError, match=re.escape(needle)):
        _problems_of(tmp_path, GOOD.replace(old, new))
