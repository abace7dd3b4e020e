"""The memory of labelled real icons: a near-duplicate of a remembered icon takes its class (a remembered
brand or ``other`` icon pulls towards NONE), a reading unlike any keeps the network's probabilities, a
memory that does not fit its weights is refused (and ranking keeps the network), and a memory alone
teaches a tiny network a drawing its renders never showed."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from tests.perception.icons.learned.test_real_crops import (
    FEW,
    SMALL,
    _labels,
    _mixed_labels,
)

from droidpilot.perception.icons.glyphs.catalogue import available
from droidpilot.perception.icons.learned.memory import FLOOR, WEIGHT, Memory, load_memory, save_memory, sha16
from droidpilot.perception.icons.learned.memory_build import build_memory, write_memory
from droidpilot.perception.icons.learned.model import ModelMismatch, save_model
from droidpilot.perception.icons.learned.real_crops import readings_features
from droidpilot.perception.icons.learned.real_labels import load_label_file
from droidpilot.perception.icons.learned.score import Classifier, load_classifier
from droidpilot.perception.icons.learned.train import train

H, C = 4, 4  # hidden size, classes (the last is NONE)
E = np.eye(H, dtype=np.float32)


def _memory() -> Memory:
    return Memory(E[:2].copy(), np.array([1, C - 1]))  # e0 is class 1, e1 a remembered `other` (NONE)


def _at(similarity: float, to: int, away: int = 3) -> np.ndarray:
    """A hidden vector with cosine ``similarity`` to E[to], the rest along E[away]."""
    return similarity * E[to] + np.sqrt(1 - similarity ** 2) * E[away]


UNIFORM = np.full((1, C), 1 / C)


def test_a_reading_identical_to_a_remembered_icon_takes_its_class() -> None:
    out = _memory().blend(E[:1] * 7.0, UNIFORM.copy())  # any length: similarity is a cosine
    assert out[0, 1] == pytest.approx(WEIGHT + (1 - WEIGHT) / C, abs=1e-3)  # the far entry votes ~0
    assert out.sum() == pytest.approx(1.0)


def test_a_reading_at_or_below_the_floor_keeps_the_networks_probabilities() -> None:
    below = _memory().blend(_at(FLOOR - 0.01, 0)[None], UNIFORM.copy())
    above = _memory().blend(_at(FLOOR + 0.05, 0)[None], UNIFORM.copy())
    assert np.allclose(below, UNIFORM)
    assert above[0, 1] > UNIFORM[0, 1] and above.sum() == pytest.approx(1.0)


def test_a_reading_like_a_remembered_other_icon_is_pulled_away_from_every_glyph() -> None:
    sure_glyph = np.array([[0.05, 0.85, 0.05, 0.05]])
    out = _memory().blend(_at(0.98, 1)[None], sure_glyph.copy())
    assert out[0, C - 1] > 0.5 and out[0, 1] < 0.5  # NONE now leads; the glyph is no longer sure


def test_the_memory_never_brings_in_a_class_the_network_ruled_out() -> None:
    wide = 8  # more classes than CHOICES
    memory = Memory(E[:2].copy(), np.array([6, 2]))  # e0 remembered as class 6, e1 as class 2
    probs = np.array([[0.30, 0.25, 0.15, 0.12, 0.10, 0.05, 0.02, 0.01]])  # class 6 is not among the top 5
    assert np.allclose(memory.blend(E[:1].copy(), probs.copy()), probs, atol=1e-3)  # like e0, yet unchanged
    lifted = memory.blend(E[1:2].copy(), probs.copy())  # class 2 is among them: it now leads
    assert lifted[0].argmax() == 2 and lifted.sum() == pytest.approx(1.0) and lifted.shape == (1, wide)


def _folder(tmp_path: Path, model, memory: Memory) -> Path:
    folder = tmp_path / "w"
    save_model(model, folder)
    path = save_memory(memory, folder)
    manifest = json.loads((folder / "icons.json").read_text())
    manifest["memory"] = {"file": path.name, "sha256": sha16(path),
                          "weights_sha256": sha16(folder / "icons.npz")}
    (folder / "icons.json").write_text(json.dumps(manifest))
    return folder


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory):
    if not available():
        pytest.skip("the Material icon font is not installed")
    return train(SMALL, FEW, labels=[])  # renders only: it never saw the vendor drawing


def test_a_memory_that_does_not_fit_is_refused_with_the_rebuild_command(tmp_path: Path, tiny) -> None:
    n = len(tiny.classes)
    good = Memory(np.eye(SMALL.hidden, dtype=np.float32)[:2], np.array([0, n - 1]))
    folder = _folder(tmp_path, tiny, good)
    manifest = json.loads((folder / "icons.json").read_text())
    assert load_memory(folder, manifest, SMALL.hidden, n) is not None
    assert load_memory(folder, {**manifest, "memory": None}, SMALL.hidden, n) is None  # none named
    with pytest.raises(ModelMismatch, match="do not fit a hidden layer of 32"):
        load_memory(folder, manifest, 32, n)
    with pytest.raises(ModelMismatch, match=f"do not fit .* and {n - 1} classes"):
        load_memory(folder, manifest, SMALL.hidden, n - 1)  # a class index past the weights' classes
    stale = {**manifest, "memory": {**manifest["memory"], "weights_sha256": "0" * 16}}
    with pytest.raises(ModelMismatch, match=r"built for other weights.*memory_build --weights"):
        load_memory(folder, stale, SMALL.hidden, n)
    (folder / "memory.npz").write_bytes(b"not a memory")
    with pytest.raises(ModelMismatch, match=r"sha256 .* is not the manifest's"):
        load_memory(folder, manifest, SMALL.hidden, n)
    (folder / "memory.npz").unlink()
    with pytest.raises(ModelMismatch, match="the memory the manifest names is missing"):
        load_memory(folder, manifest, SMALL.hidden, n)


def test_weights_whose_memory_does_not_fit_still_classify_without_it(
        tmp_path: Path, tiny, caplog: pytest.LogCaptureFixture) -> None:
    folder = _folder(tmp_path, tiny, Memory(np.eye(SMALL.hidden, dtype=np.float32)[:1], np.array([0])))
    (folder / "memory.npz").write_bytes(b"changed")
    with caplog.at_level(logging.WARNING, logger="droidpilot.perception.icons.learned"):
        clf = load_classifier(folder, library=FEW)
    assert clf.memory is None and "memory not used" in caplog.text
    x = np.random.default_rng(0).random((3, tiny.mean.shape[0]), dtype=np.float32)
    assert np.allclose(clf.probabilities(x), tiny.probabilities(x), atol=1e-3)  # float16 weights


def _store_share(clf: Classifier, image: np.ndarray, boxes: list[tuple[int, ...]]) -> float:
    store = clf.index["store"]
    right = 0
    for box in boxes:
        p = clf.probabilities(np.stack(readings_features(image, box)))
        right += int(p[int(p.max(axis=1).argmax())].argmax() == store)
    return right / len(boxes)


def test_a_memory_alone_teaches_a_drawing_on_a_run_it_never_saw(tmp_path: Path, tiny) -> None:
    labels, test_boxes = _labels(tmp_path)
    test_image = cv2.imread(str(tmp_path / "shots" / "Other/2/1.png"))
    files = [load_label_file(labels, FEW)]
    folder = tmp_path / "w"
    save_model(tiny, folder)
    write_memory(folder, load_classifier(folder, use_memory=False, library=FEW).model, files, ["Other/2"])
    entry = json.loads((folder / "icons.json").read_text())["memory"]
    assert entry["held_out_runs"] == ["Other/2"] and entry["entries"] > 0 and entry["none_entries"] == 0
    assert entry["label_files"] == [{"file": str(labels), "sha256": files[0].digest(), "labels": 15}]
    assert _store_share(load_classifier(folder, False, FEW), test_image, test_boxes) < 0.5
    assert _store_share(load_classifier(folder, library=FEW), test_image, test_boxes) == 1.0
    everything = build_memory(tiny, files)
    assert len(everything.classes) > entry["entries"]  # the held-out run's labels were left out


def test_brand_and_other_icons_are_none_entries_only_when_asked(tmp_path: Path, tiny) -> None:
    path = _mixed_labels(tmp_path)
    files = [load_label_file(path, FEW)]
    none = len(tiny.classes) - 1
    glyphs_only = build_memory(tiny, files)
    with_none = build_memory(tiny, files, other_as_none=True)
    assert set(glyphs_only.classes.tolist()) == {tiny.classes.index(("store",))}
    assert none in with_none.classes.tolist() and len(with_none.classes) > len(glyphs_only.classes)
