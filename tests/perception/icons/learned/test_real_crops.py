"""Real crops in training: a tiny run learns a drawing the renders never show from labelled screens, the
manifest names the label files it read, and held-out runs stay out of training."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from droidpilot.errors import InputError
from droidpilot.perception.icons.glyphs.catalogue import available
from droidpilot.perception.icons.learned.real_crops import build_crops, iou, jitter_box, readings_features
from droidpilot.perception.icons.learned.real_labels import load_label_file
from droidpilot.perception.icons.learned.train import Settings, train

pytestmark = pytest.mark.skipif(not available(), reason="the Material icon font is not installed")

FEW = ["settings", "wb_sunny", "notifications", "lock", "home", "store"]
SMALL = Settings(per_class=30, negatives=60, epochs=25, hidden=64, seed=3, real_copies=8)
TRAIN_AT = [(60, 60, 28), (200, 60, 40), (340, 60, 22), (60, 220, 34), (200, 220, 26), (340, 220, 46)]
TEST_AT = [(80, 100, 30), (260, 100, 38), (440, 100, 24)]


def _vendor_icon(img: np.ndarray, x: int, y: int, side: int, colour: tuple[int, int, int]) -> tuple[int, ...]:
    """A made-up vendor drawing no library glyph looks like: a hairline ring holding three dots in a row."""
    r = side // 2
    cx, cy = x + r, y + r
    cv2.circle(img, (cx, cy), r - 1, colour, 1, cv2.LINE_AA)
    for dx in (-r // 2, 0, r // 2):
        cv2.circle(img, (cx + dx, cy), max(1, side // 10), colour, -1, cv2.LINE_AA)
    return (x, y, x + side, y + side)


def _screen(path: Path, at: list[tuple[int, int, int]], page: int) -> list[tuple[int, ...]]:
    img = np.full((340, 540, 3), page, np.uint8)
    light = page > 128
    colours = [(60, 60, 60), (200, 90, 30), (30, 30, 200)] if light else [(230, 230, 230), (90, 200, 250)]
    boxes = [_vendor_icon(img, x, y, s, colours[i % len(colours)]) for i, (x, y, s) in enumerate(at)]
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)
    return boxes


def _labels(tmp_path: Path) -> tuple[Path, list[tuple[int, ...]]]:
    """Two labelled training screens of one run (light and dark) and a third screen, of another run,
    for testing; the drawing is labelled ``store``."""
    shots = tmp_path / "shots"
    lines = [f"root: {shots}", "screens:"]
    for screen, page in (("Vendor/1/1.png", 250), ("Vendor/1/2.png", 25)):
        lines += [f"  - path: {screen}", "    split: train", "    icons:"]
        for box in _screen(shots / screen, TRAIN_AT, page):
            lines.append(f"      - {{query: 'dotted ring', box: {list(box)}, glyph: store}}")
    test_boxes = _screen(shots / "Other/2/1.png", TEST_AT, 245)
    lines += ["  - path: Other/2/1.png", "    split: train", "    icons:"]
    lines += [f"      - {{query: 'dotted ring', box: {list(b)}, glyph: store}}" for b in test_boxes]
    path = tmp_path / "real_icon_train_t.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, test_boxes


def _store_share(model, image: np.ndarray, boxes: list[tuple[int, ...]]) -> float:
    index = {n: c for c, names in enumerate(model.classes) for n in names}
    right = 0
    for box in boxes:
        feats = readings_features(image, box)
        p = model.probabilities(np.stack(feats))
        right += int(p[int(p.max(axis=1).argmax())].argmax() == index["store"])
    return right / len(boxes)


def test_a_tiny_run_learns_a_vendor_drawing_from_labelled_crops_and_records_the_files(tmp_path: Path) -> None:
    labels, test_boxes = _labels(tmp_path)
    test_image = cv2.imread(str(tmp_path / "shots" / "Other/2/1.png"))
    without = train(SMALL, FEW, labels=[])
    with_real = train(SMALL, FEW, labels=[labels], hold_out_runs=["Other/2"])
    assert _store_share(without, test_image, test_boxes) < 0.5  # renders alone do not know the drawing
    assert _store_share(with_real, test_image, test_boxes) == 1.0  # on a screen of a run it never saw
    real = with_real.manifest["real"]
    digest = load_label_file(labels, FEW).digest()
    assert real["label_files"] == [{"file": str(labels), "sha256": digest, "labels": 15}]
    assert real["held_out_runs"] == ["Other/2"] and real["crops"] > 12 * SMALL.real_copies
    assert without.manifest["real"]["label_files"] == [] and without.manifest["real"]["crops"] == 0


def test_crops_are_deterministic_and_held_out_runs_are_left_out(tmp_path: Path) -> None:
    labels, _ = _labels(tmp_path)
    lf = load_label_file(labels, FEW)
    index = {"store": 0, "__none__": 1}
    a = build_crops([lf], index, copies=3, seed=5)
    assert np.array_equal(a.x, build_crops([lf], index, copies=3, seed=5).x)
    assert not np.array_equal(a.x, build_crops([lf], index, copies=3, seed=6).x)
    assert set(a.runs) == {"Vendor/1", "Other/2"} and set(a.y.tolist()) == {0}
    kept = a.where(lambda run: run != "Other/2")
    assert set(kept.runs) == {"Vendor/1"} and 0 < len(kept.y) < len(a.y)


def _mixed_labels(tmp_path: Path) -> Path:
    """A label file of one screen with a brand icon, an 'other' icon and a library glyph."""
    shots = tmp_path / "shots"
    boxes = _screen(shots / "V/1/1.png", TRAIN_AT[:3], 250)
    path = tmp_path / "labels.yaml"
    path.write_text(f"root: {shots}\nscreens:\n  - path: V/1/1.png\n    split: train\n    icons:\n"
                    f"      - {{query: a, box: {list(boxes[0])}, glyph: 'brand:vendor'}}\n"
                    f"      - {{query: b, box: {list(boxes[1])}, glyph: other}}\n"
                    f"      - {{query: c, box: {list(boxes[2])}, glyph: store}}\n", encoding="utf-8")
    return path


def test_labels_that_train_no_class_are_left_out_and_other_can_be_none(tmp_path: Path) -> None:
    path = _mixed_labels(tmp_path)
    lf = load_label_file(path, FEW)
    index = {"store": 0, "__none__": 1}
    assert set(build_crops([lf], index, 2, 1).labels) == {2}  # the brand and ``other`` train nothing
    as_none = build_crops([lf], index, 2, 1, other_as_none=True)
    assert set(as_none.labels) == {1, 2} and set(as_none.y[np.array(as_none.labels) == 1].tolist()) == {1}


def test_a_box_outside_its_screen_or_a_missing_screen_is_refused_with_the_entry(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    _screen(shots / "V/1/1.png", TRAIN_AT[:1], 250)
    path = tmp_path / "labels.yaml"
    path.write_text(f"root: {shots}\nscreens:\n  - path: V/1/1.png\n    split: train\n    icons:\n"
                    "      - {query: a, box: [600, 10, 640, 50], glyph: store}\n"
                    "  - path: V/1/9.png\n    split: train\n    icons:\n"
                    "      - {query: a, box: [6, 10, 40, 50], glyph: store}\n", encoding="utf-8")
    lf = load_label_file(path, FEW)
    with pytest.raises(InputError, match=r"labels.yaml:6: box \[600, 10, 640, 50\] lies outside the 540x340"):
        build_crops([lf], {"store": 0, "__none__": 1}, 2, 1)
    with pytest.raises(InputError, match=r"labels.yaml:10: screen .*V/1/9.png is absent"):
        build_crops([replace(lf, labels=lf.labels[1:])], {"store": 0, "__none__": 1}, 2, 1)


def test_jittered_boxes_stay_near_the_icon() -> None:
    rng = np.random.default_rng(0)
    box = (100, 100, 140, 140)
    ious = [iou(jitter_box(rng, box), box) for _ in range(200)]
    assert min(ious) > 0.35 and np.mean(ious) > 0.6 and max(ious) < 1.0
