"""Weights that do not fit: a clear one-line warning and the descriptor path, never a crash or a guess."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from droidpilot.perception.icons.glyphs.catalogue import available, glyph_names
from droidpilot.perception.icons.glyphs.descriptor import SIZE
from droidpilot.perception.icons.learned import CLASSIFIER_ENV, learned_fits
from droidpilot.perception.icons.learned.features import feature_version
from droidpilot.perception.icons.learned.model import ModelMismatch, load_model
from droidpilot.perception.icons.learned.score import NAME, WEIGHTS_DIR
from droidpilot.perception.icons.rank import locate_icon

pytestmark = pytest.mark.skipif(not available(), reason="the Material icon font is not installed")


def _copy(tmp_path: Path, edit: dict[str, object]) -> Path:
    """The shipped weights in a folder of their own, with manifest fields replaced."""
    shutil.copy(WEIGHTS_DIR / f"{NAME}.npz", tmp_path / f"{NAME}.npz")
    meta = json.loads((WEIGHTS_DIR / f"{NAME}.json").read_text(encoding="utf-8"))
    meta.update(edit)
    (tmp_path / f"{NAME}.json").write_text(json.dumps(meta), encoding="utf-8")
    return tmp_path


def _shipped_classes() -> list[list[str]]:
    return json.loads((WEIGHTS_DIR / f"{NAME}.json").read_text(encoding="utf-8"))["classes"]


def _warned(folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> str:
    """Ranking's view of ``folder``: no fits, and the one warning line it logged."""
    monkeypatch.setenv(CLASSIFIER_ENV, str(folder))
    descriptor = np.ones(SIZE, np.float32)
    with caplog.at_level(logging.WARNING, logger="droidpilot.perception.icons.learned"):
        assert learned_fits([descriptor], ["settings"]) is None
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "\n" not in lines[0], lines
    return lines[0]


def test_the_shipped_weights_fit_this_library_and_descriptor() -> None:
    model = load_model(WEIGHTS_DIR / f"{NAME}.npz", WEIGHTS_DIR / f"{NAME}.json", feature_version(),
                       glyph_names())
    assert model.manifest["seed"] is not None and model.manifest["fonts"]["icons"]
    assert (WEIGHTS_DIR / f"{NAME}.npz").stat().st_size < 3_000_000


def test_a_class_name_the_library_lacks_is_refused_with_the_retrain_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    classes = _shipped_classes()
    classes[0] = ["not_a_glyph"]  # one renamed class: almost the library
    line = _warned(_copy(tmp_path, {"classes": classes}), monkeypatch, caplog)
    assert "1 class names not in the glyph library (e.g. not_a_glyph)" in line
    assert "retrain with: python -m droidpilot.perception.icons.learned.train" in line


def test_a_library_glyph_the_weights_never_saw_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    classes = _shipped_classes()
    dropped = classes.pop(0)  # as if another developer added a glyph family after training
    line = _warned(_copy(tmp_path, {"classes": classes}), monkeypatch, caplog)
    assert f"{len(dropped)} library glyphs it was not trained on (e.g. {dropped[0]}" in line
    assert "not in the glyph library" not in line


def test_another_feature_version_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            caplog: pytest.LogCaptureFixture) -> None:
    almost = feature_version().replace("grid=", "grid=1")
    line = _warned(_copy(tmp_path, {"feature_version": almost}), monkeypatch, caplog)
    assert "trained on features" in line and feature_version() in line


def test_missing_and_corrupt_weights_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelMismatch, match="no manifest beside the weights"):
        load_model(tmp_path / "icons.npz", tmp_path / "icons.json", feature_version(), glyph_names())
    (tmp_path / "icons.json").write_text(json.dumps({"format": 1}), encoding="utf-8")
    (tmp_path / "icons.npz").write_bytes(b"not a zip")
    with pytest.raises(ModelMismatch, match="not the classifier's weights"):
        load_model(tmp_path / "icons.npz", tmp_path / "icons.json", feature_version(), glyph_names())


def test_locating_with_refused_weights_takes_the_descriptor_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from PIL import Image
    from tests.support.glyphs import paint_glyph

    canvas = Image.new("RGBA", (360, 240), (255, 255, 255, 255))
    box = paint_glyph(canvas, "settings", (150, 90), 48, (90, 90, 90))
    monkeypatch.setenv(CLASSIFIER_ENV, str(_copy(tmp_path, {"feature_version": "other"})))
    with caplog.at_level(logging.WARNING, logger="droidpilot.perception.icons.learned"):
        result = locate_icon(np.asarray(canvas.convert("RGB")), "gray gear")
    assert result.status == "found"
    x, y = result.candidates[0].point
    assert box[0] <= x <= box[2] and box[1] <= y <= box[3]
    assert any("icon classifier not used" in r.getMessage() for r in caplog.records)
