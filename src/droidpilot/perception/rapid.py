"""The default OCR engine: RapidOCR 3.x on onnxruntime (CPU), with the models shipped in its wheel.

Tuned for phone screenshots (see ``benchmarks/ocr_speed.py`` for the measurements behind the defaults):
text detection runs on the screenshot scaled to a short side of ``det_min_short`` pixels (down from a large
phone, up from a 540-px one, as bare RapidOCR does, so two lines of status-bar text stacked 2 px apart stay
two), while recognition reads each line cropped from the full-resolution image, so small text keeps its
detail (the "rapidocr" wrapper backend only scales down);
the text-direction classifier is off (phone UI text is upright; the few lines drawn at an angle, such as
map street names, are cut out upright and read both ways up instead: ``perception/upright.py``);
onnxruntime uses ``threads`` threads.
Model files are given to RapidOCR by path, so it never tries to download anything. By default the
models run straight on onnxruntime (``perception/onnx_ocr.py``, same maths), which saves a cold process
the wrapper's import.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from droidpilot.perception.ocr import ImageInput, clip_box, load_image, sort_lines
from droidpilot.perception.rapid_config import (
    DET_MODEL,
    REC_MODEL,
    RapidSettings,
    model_paths,
    shipped_model_dir,
)
from droidpilot.perception.reading import FinishedReading, OcrReading, Step, StepReading
from droidpilot.perception.types import OcrLine
from droidpilot.perception.upright import rule_key


class RapidOcrEngine:
    """RapidOCR with phone-screen settings; the models load on first use and are kept."""

    name = "rapidocr"

    def __init__(self, settings: RapidSettings | None = None, model_dir: Path | None = None) -> None:
        self.settings = settings or RapidSettings()
        self.model_dir = Path(model_dir) if model_dir else shipped_model_dir()
        self._paths = model_paths(self.model_dir, self.settings.use_cls)
        self._ocr: Any = None
        self._lock = threading.Lock()

    def settings_key(self) -> str:
        return f"{DET_MODEL}+{REC_MODEL};{self.settings.key()};{rule_key()}"

    def _direct(self) -> Any:
        if self._ocr is None:
            from droidpilot.perception.onnx_ocr import OnnxOcr

            s = self.settings
            self._ocr = OnnxOcr(self._paths["Det"], self._paths["Rec"], s.threads, s.spin)
        return self._ocr

    def _engine(self) -> Any:
        if self._ocr is None:
            from rapidocr import RapidOCR

            s = self.settings
            params: dict[str, Any] = {
                "Global.log_level": "error",
                "Global.use_cls": s.use_cls,
                "Global.text_score": s.text_score,
                # Keep the full resolution for recognition crops; only detection is scaled down.
                "Global.max_side_len": 100_000,
                "Global.model_root_dir": str(self.model_dir),
                "Det.limit_type": "max",
                "Det.limit_side_len": s.det_limit_side,
                "Det.box_thresh": s.box_thresh,
                "Rec.rec_batch_num": s.rec_batch,
                "EngineConfig.onnxruntime.intra_op_num_threads": s.threads,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            }
            for stage, path in self._paths.items():
                params[f"{stage}.model_path"] = str(path)
            logging.getLogger("RapidOCR").setLevel(logging.ERROR)
            self._ocr = RapidOCR(params=params)
        return self._ocr

    def det_side(self, width: int, height: int) -> int:
        """The longest side detection runs at for a ``width`` x ``height`` image."""
        return self.settings.det_side(width, height)

    def recognize(self, image: ImageInput) -> list[OcrLine]:
        """Lines on ``image`` with boxes in its own pixels (axis-aligned hulls of the detected quads)."""
        if self._steps_possible():
            return self.start_reading(image).finish()
        return self._recognize_wrapped(image)

    def _steps_possible(self) -> bool:
        return self.settings.direct

    def start_reading(self, image: ImageInput) -> OcrReading:
        """Detect the text on ``image`` now; recognise it batch by batch as the reading is asked to (see
        ``perception/reading.py``). Finished, it holds exactly the lines ``recognize`` returns."""
        if not self._steps_possible():
            return FinishedReading(self._recognize_wrapped(image))
        from droidpilot.perception.onnx_ocr import decode_bgr

        bgr = decode_bgr(image)
        height, width = bgr.shape[:2]
        s = self.settings
        with self._lock:
            ocr = self._direct()
            found = ocr.detect_lines(bgr, self.det_side(width, height), s.box_thresh)
            boxes = [f.box for f in found]
            plan = ocr.plan(bgr, boxes, s.rec_min_width, s.rec_width_growth, [f.tilted for f in found])

        def kept(found: Iterable[tuple[int, str, float]]) -> list[OcrLine]:
            return [OcrLine(text.strip(), clip_box(*boxes[i], width, height), score)
                    for i, text, score in found if text.strip() and score >= s.text_score]

        def run(k: int) -> list[OcrLine]:
            with self._lock:
                return kept(ocr.run_batch(plan, k))

        known = kept((i, text, score) for i, (text, score) in plan.known.items())
        steps = [Step(plan.batch_width(k), sum(1 + len(plan.twins.get(i, ())) for i in b), partial(run, k))
                 for k, b in enumerate(plan.batches)]
        return StepReading(steps, known=known, known_count=len(plan.known))

    def _recognize_wrapped(self, image: ImageInput) -> list[OcrLine]:
        """``recognize`` through the rapidocr wrapper (the direction classifier needs it)."""
        img = load_image(image)
        width, height = img.size
        bgr = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
        with self._lock:
            ocr = self._engine()
            load_detector = getattr(ocr, "_load_det_model", None)  # RapidOCR reads the side per call
            detector = load_detector() if callable(load_detector) else getattr(ocr, "text_det", None)
            if detector is not None and hasattr(detector, "limit_side_len"):
                detector.limit_side_len = self.det_side(width, height)
            result = ocr(bgr)
        boxes = getattr(result, "boxes", None)
        texts = getattr(result, "txts", None)
        scores = getattr(result, "scores", None)
        if boxes is None or texts is None or scores is None:
            return []
        lines = []
        for quad, text, score in zip(boxes, texts, scores, strict=False):
            text = str(text).strip()
            if not text:
                continue
            pts = np.asarray(quad, dtype=float).reshape(-1, 2)
            box = clip_box(pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max(), width, height)
            if box[2] > box[0] and box[3] > box[1]:
                lines.append(OcrLine(text, box, float(score)))
        return sort_lines(lines)
