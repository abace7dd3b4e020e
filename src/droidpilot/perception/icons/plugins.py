"""Plug-in points for neural icon localization: a ``Ranker`` (CLIP-like) and a ``Detector`` (boxes).

Nothing here is needed by default. The implementations load weights from a local directory only
(``model_dir=`` or ``$DROIDPILOT_MODELS_DIR``), never download, and when weights or packages are absent
they raise ``PluginUnavailable`` saying exactly which files go where and what to install.
``locate_icon`` uses them when passed, or when ``DROIDPILOT_ICON_RANKER=open_clip`` /
``DROIDPILOT_ICON_DETECTOR=onnx`` ask for them (so the agent and ``droidpilot locate`` pick them up).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from droidpilot.errors import DroidpilotError
from droidpilot.perception.types import Box

MODELS_ENV = "DROIDPILOT_MODELS_DIR"
RANKER_ENV = "DROIDPILOT_ICON_RANKER"  # "open_clip" to rank icon candidates with CLIP
DETECTOR_ENV = "DROIDPILOT_ICON_DETECTOR"  # "onnx" to propose icon boxes with an ONNX detector


class PluginUnavailable(DroidpilotError):
    """A neural plug-in cannot run here: its weights or its Python packages are missing."""


@runtime_checkable
class Ranker(Protocol):
    """Scores image crops against a text description ("red heart"); higher means a better fit."""

    def score(self, crops: Sequence[np.ndarray], description: str) -> list[float]:
        """One score in 0..1 per BGR crop, comparable across the crops of one call."""
        ...


@runtime_checkable
class Detector(Protocol):
    """Proposes icon boxes on a screenshot (Grounding-DINO- or OmniParser-style)."""

    def detect(self, image: np.ndarray) -> list[tuple[Box, float]]:
        """Boxes in device pixels of the BGR ``image`` with a confidence each."""
        ...


def models_dir(explicit: str | Path | None, sub: str) -> Path:
    """The folder a plug-in reads: ``explicit`` as given, else ``$DROIDPILOT_MODELS_DIR/<sub>``."""
    if explicit is not None:
        return Path(explicit).expanduser()
    root = os.environ.get(MODELS_ENV)
    if not root:
        raise PluginUnavailable(
            f"no model folder: pass model_dir=... or set {MODELS_ENV} to a folder that holds {sub}/ "
            f"(nothing is downloaded; copy the weights there yourself)")
    return Path(root).expanduser() / sub


_FROM_ENV: dict[tuple[str, str, str], tuple[Ranker | None, Detector | None]] = {}


def plugins_from_env() -> tuple[Ranker | None, Detector | None]:
    """The ranker and detector the environment asks for (``DROIDPILOT_ICON_RANKER=open_clip``,
    ``DROIDPILOT_ICON_DETECTOR=onnx``), loaded once; (None, None) when neither is set.

    Raises PluginUnavailable for an unknown name or missing weights, so a user who asked for a model
    learns why it is not used instead of silently getting the default.
    """
    ranker_name = os.environ.get(RANKER_ENV, "").strip().lower()
    detector_name = os.environ.get(DETECTOR_ENV, "").strip().lower()
    key = (ranker_name, detector_name, os.environ.get(MODELS_ENV, ""))
    if key not in _FROM_ENV:
        if ranker_name not in ("", "none", "open_clip"):
            raise PluginUnavailable(f"{RANKER_ENV}={ranker_name!r}: the icon rankers are: open_clip")
        if detector_name not in ("", "none", "onnx"):
            raise PluginUnavailable(f"{DETECTOR_ENV}={detector_name!r}: the icon detectors are: onnx")
        ranker = OpenClipRanker() if ranker_name == "open_clip" else None
        detector = OnnxIconDetector() if detector_name == "onnx" else None
        _FROM_ENV[key] = (ranker, detector)
    return _FROM_ENV[key]


# -- CLIP-like ranker ----------------------------------------------------------------------------
CLIP_CHECKPOINTS = ("open_clip_model.safetensors", "open_clip_pytorch_model.bin", "model.safetensors",
                    "model.pt")


class OpenClipRanker:
    """Ranks crops with an open_clip model loaded from a local folder (extras ``droidpilot[clip]``).

    The folder holds one checkpoint (``open_clip_model.safetensors`` or ``open_clip_pytorch_model.bin``,
    as published for open_clip models) and ``droidpilot_clip.json`` naming the architecture, e.g.
    ``{"architecture": "ViT-B-32"}`` (default ViT-B-32 when the file is absent).
    """

    def __init__(self, model_dir: str | Path | None = None, architecture: str | None = None,
                 device: str = "cpu") -> None:
        folder = models_dir(model_dir, "open_clip")
        checkpoint = next((folder / n for n in CLIP_CHECKPOINTS if (folder / n).is_file()), None)
        if checkpoint is None:
            raise PluginUnavailable(
                f"OpenClipRanker: no checkpoint in {folder}; put one of {', '.join(CLIP_CHECKPOINTS)} "
                f"there (for example open_clip_model.safetensors of laion/CLIP-ViT-B-32-laion2B-s34B-b79K) "
                f"and, for another architecture than ViT-B-32, droidpilot_clip.json with "
                f'{{"architecture": "<open_clip model name>"}}')
        config = folder / "droidpilot_clip.json"
        if architecture is None and config.is_file():
            try:
                architecture = str(json.loads(config.read_text(encoding="utf-8"))["architecture"])
            except (ValueError, KeyError, TypeError) as exc:
                raise PluginUnavailable(f"{config}: expected JSON like {{\"architecture\": \"ViT-B-32\"}} "
                                        f"({exc})") from None
        try:
            import open_clip
            import torch
        except ImportError as exc:
            raise PluginUnavailable(
                f"OpenClipRanker needs the packages open_clip_torch and torch ({exc.name} is not installed); "
                "install them with: pip install 'droidpilot[clip]'") from None
        self.architecture = architecture or "ViT-B-32"
        self._torch = torch
        model, _, preprocess = open_clip.create_model_and_transforms(self.architecture,
                                                                     pretrained=str(checkpoint))
        self._model = model.eval().to(device)
        self._preprocess = preprocess
        self._tokenizer = open_clip.get_tokenizer(self.architecture)
        self._device = device

    def score(self, crops: Sequence[np.ndarray], description: str) -> list[float]:
        """Softmax over the crops of the image-text similarity with "an icon of a <description>"."""
        if not crops:
            return []
        from PIL import Image

        torch = self._torch
        images = torch.stack([self._preprocess(Image.fromarray(np.ascontiguousarray(c[:, :, ::-1])))
                              for c in crops]).to(self._device)
        tokens = self._tokenizer([f"an icon of a {description}"]).to(self._device)
        with torch.no_grad():
            img = self._model.encode_image(images)
            txt = self._model.encode_text(tokens)
            img = img / img.norm(dim=-1, keepdim=True)
            txt = txt / txt.norm(dim=-1, keepdim=True)
            sims = (100.0 * img @ txt.T).squeeze(1).softmax(dim=0)
        top = float(sims.max())
        return [float(v) / top for v in sims.tolist()]


# -- ONNX detector (OmniParser's icon_detect exported to ONNX, YOLOv8 head) ------------------------
class OnnxIconDetector:
    """Icon boxes from a YOLOv8-style ONNX model (e.g. OmniParser's icon_detect exported to ONNX).

    Expects ``icon_detect/model.onnx`` under ``$DROIDPILOT_MODELS_DIR`` (or ``model_dir`` pointing at the
    folder holding ``model.onnx``): input ``1x3xSxS`` RGB in 0..1, output ``1x(4+C)xN`` of
    (cx, cy, w, h, class scores) in input pixels. Runs on onnxruntime (CPU), already a dependency.
    """

    def __init__(self, model_dir: str | Path | None = None, confidence: float = 0.25,
                 iou_threshold: float = 0.5) -> None:
        folder = models_dir(model_dir, "icon_detect")
        path = folder / "model.onnx"
        if not path.is_file():
            raise PluginUnavailable(
                f"OnnxIconDetector: {path} does not exist; export a YOLOv8 icon detector (for example "
                f"OmniParser's icon_detect) to ONNX and save it as {path}")
        import onnxruntime as ort

        try:
            self._session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for corrupt files
            raise PluginUnavailable(f"OnnxIconDetector: cannot load {path}: {exc}") from None
        inp = self._session.get_inputs()[0]
        self._input = inp.name
        side = inp.shape[-1]
        self.size = int(side) if isinstance(side, int) else 640
        self.confidence = confidence
        self.iou_threshold = iou_threshold

    def detect(self, image: np.ndarray) -> list[tuple[Box, float]]:
        """Letterbox the screenshot to the model's size, run it, decode and suppress overlaps."""
        tensor, gain, pad = letterbox(image, self.size)
        output = self._session.run(None, {self._input: tensor})[0]
        return decode_yolo(output, gain, pad, image.shape[:2], self.confidence, self.iou_threshold)


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping aspect into a ``size`` square padded with gray; (1x3xSxS float32 RGB, gain, pad)."""
    import cv2

    h, w = image.shape[:2]
    gain = min(size / h, size / w)
    nh, nw = round(h * gain), round(w * gain)
    canvas = np.full((size, size, 3), 114, np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    canvas[top:top + nh, left:left + nw] = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    tensor = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return np.ascontiguousarray(tensor), gain, (float(left), float(top))


def decode_yolo(output: Any, gain: float, pad: tuple[float, float], shape: tuple[int, int],
                confidence: float, iou_threshold: float) -> list[tuple[Box, float]]:
    """Boxes in original pixels from a YOLOv8 output ``1x(4+C)xN``, after confidence and NMS."""
    import cv2

    pred = np.asarray(output)[0]
    if pred.shape[0] > pred.shape[1]:  # some exports are 1xNx(4+C)
        pred = pred.T
    scores = pred[4:].max(axis=0) if pred.shape[0] > 4 else np.ones(pred.shape[1])
    keep = scores >= confidence
    cx, cy, bw, bh = (pred[i][keep] for i in range(4))
    scores = scores[keep]
    x1 = (cx - bw / 2 - pad[0]) / gain
    y1 = (cy - bh / 2 - pad[1]) / gain
    boxes_wh = [[float(a), float(b), float(c / gain), float(d / gain)] for a, b, c, d in
                zip(x1, y1, bw, bh, strict=True)]
    idx = cv2.dnn.NMSBoxes(boxes_wh, scores.astype(float).tolist(), confidence, iou_threshold)
    h, w = shape
    out: list[tuple[Box, float]] = []
    for i in np.asarray(idx).reshape(-1):
        x, y, ww, hh = boxes_wh[int(i)]
        box = (max(0, round(x)), max(0, round(y)), min(w, round(x + ww)), min(h, round(y + hh)))
        if box[2] > box[0] and box[3] > box[1]:
            out.append((box, float(scores[int(i)])))
    return out
