"""Neural plug-ins: clear errors when weights or packages are missing, and the plug-in points used."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from droidpilot.perception.icons import (
    Detector,
    OnnxIconDetector,
    OpenClipRanker,
    PluginUnavailable,
    Ranker,
    locate_icon,
)
from droidpilot.perception.icons.drawing import as_rgb, blank_screen, draw_icon
from droidpilot.perception.icons.plugins import MODELS_ENV, decode_yolo, letterbox


def test_ranker_without_any_model_folder_says_how_to_give_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MODELS_ENV, raising=False)
    with pytest.raises(PluginUnavailable, match=f"model_dir=.*{MODELS_ENV}.*open_clip/"):
        OpenClipRanker()


def test_ranker_with_an_empty_folder_names_the_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    with pytest.raises(PluginUnavailable) as err:
        OpenClipRanker()
    message = str(err.value)
    assert str(tmp_path / "open_clip") in message
    assert "open_clip_model.safetensors" in message and "open_clip_pytorch_model.bin" in message


@pytest.mark.skipif(importlib.util.find_spec("open_clip") is not None, reason="open_clip is installed here")
def test_ranker_without_open_clip_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "open_clip_model.safetensors").write_bytes(b"weights would be here")
    with pytest.raises(PluginUnavailable, match=r"pip install 'droidpilot\[clip\]'"):
        OpenClipRanker(model_dir=tmp_path)


def test_ranker_config_must_be_json(tmp_path: Path) -> None:
    (tmp_path / "open_clip_model.safetensors").write_bytes(b"x")
    (tmp_path / "droidpilot_clip.json").write_text("architecture: ViT", encoding="utf-8")
    with pytest.raises(PluginUnavailable, match=r"droidpilot_clip\.json"):
        OpenClipRanker(model_dir=tmp_path)


def test_detector_without_its_model_names_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    with pytest.raises(PluginUnavailable, match=re.escape(str(tmp_path / "icon_detect" / "model.onnx"))):
        OnnxIconDetector()


def test_detector_with_a_broken_model_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(PluginUnavailable, match="cannot load"):
        OnnxIconDetector(model_dir=tmp_path)


def test_letterbox_and_yolo_decoding_map_boxes_back_to_the_screenshot() -> None:
    image = np.zeros((2400, 1080, 3), np.uint8)
    tensor, gain, pad = letterbox(image, 640)
    assert tensor.shape == (1, 3, 640, 640) and tensor.dtype == np.float32
    # Two overlapping detections of one icon, one weak detection, in 640x640 model pixels.
    box_in_screen = (100, 1200, 200, 1300)
    cx = (box_in_screen[0] + box_in_screen[2]) / 2 * gain + pad[0]
    cy = (box_in_screen[1] + box_in_screen[3]) / 2 * gain + pad[1]
    side = 100 * gain
    pred = np.zeros((1, 5, 20), np.float32)  # 4 box rows + 1 class row, 20 anchors
    pred[0, :, :3] = [[cx, cx + 1, 300], [cy, cy, 300], [side, side, 20], [side, side, 20],
                      [0.9, 0.8, 0.1]]
    out = decode_yolo(pred, gain, pad, image.shape[:2], confidence=0.25, iou_threshold=0.5)
    assert len(out) == 1
    (box, score), = out
    assert score == pytest.approx(0.9)
    assert all(abs(a - b) <= 2 for a, b in zip(box, box_in_screen, strict=True))


class RednessRanker:
    """A tiny ranker plug-in: the share of strongly red pixels in the crop."""

    def score(self, crops, description):
        out = []
        for c in crops:
            red = (c[:, :, 2] > 180) & (c[:, :, 1] < 100) & (c[:, :, 0] < 100)
            out.append(float(red.mean()) if c.size else 0.0)
        top = max(out) if out and max(out) > 0 else 1.0
        return [v / top for v in out]


class GridDetector:
    """A detector plug-in that proposes fixed cells of the screen (as a user's detector would boxes)."""

    def __init__(self, boxes):
        self.boxes = boxes

    def detect(self, image):
        return [(b, 0.9) for b in self.boxes]


def test_plugins_satisfy_the_protocols_and_are_used() -> None:
    assert isinstance(RednessRanker(), Ranker)
    assert isinstance(GridDetector([]), Detector)
    img = blank_screen(1080, 2400, "light")
    heart = draw_icon(img, "heart", (540, 1800), 90, "red")
    draw_icon(img, "heart", (540, 600), 90, "blue")
    result = locate_icon(as_rgb(img), "heart", ranker=RednessRanker())
    assert result.status == "found"
    x, y = result.candidates[0].point
    assert heart.box[0] <= x <= heart.box[2] and heart.box[1] <= y <= heart.box[3]
    cell = (heart.box[0] - 6, heart.box[1] - 6, heart.box[2] + 6, heart.box[3] + 6)
    detected = locate_icon(as_rgb(img), "red heart", detector=GridDetector([cell]))
    assert detected.status == "found"
    assert detected.candidates[0].box == cell


def test_plugins_named_in_the_environment_fail_clearly(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    img = blank_screen(360, 640, "light")
    draw_icon(img, "heart", (180, 320), 60, "red")
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    monkeypatch.setenv("DROIDPILOT_ICON_RANKER", "open_clip")
    with pytest.raises(PluginUnavailable, match=r"open_clip_model\.safetensors"):
        locate_icon(as_rgb(img), "red heart")
    monkeypatch.setenv("DROIDPILOT_ICON_RANKER", "magic")
    with pytest.raises(PluginUnavailable, match="rankers are: open_clip"):
        locate_icon(as_rgb(img), "red heart")
    monkeypatch.delenv("DROIDPILOT_ICON_RANKER")
    monkeypatch.setenv("DROIDPILOT_ICON_DETECTOR", "onnx")
    with pytest.raises(PluginUnavailable, match=r"model\.onnx"):
        locate_icon(as_rgb(img), "red heart")
    monkeypatch.delenv("DROIDPILOT_ICON_DETECTOR")
    assert locate_icon(as_rgb(img), "red heart").status == "found"  # nothing asked for: the default path
