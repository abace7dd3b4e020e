"""The default OCR engine: RapidOCR 3.x on onnxruntime (CPU), with the models shipped in its wheel.

Tuned for phone screenshots (see ``benchmarks/ocr_speed.py`` for the measurements behind the defaults):
text detection runs on the screenshot scaled down, never below a short side of ``det_min_short`` pixels
(small text keeps the size it has on a 540-px-wide phone), while recognition reads each line cropped from
the full-resolution image, so small text keeps its detail;
the text-direction classifier is off (phone UI text is upright); onnxruntime uses ``threads`` threads.
Model files are given to RapidOCR by path, so it never tries to download anything. By default the
models run straight on onnxruntime (``perception/onnx_ocr.py``, same maths), which saves a cold process
the wrapper's import.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from droidpilot.errors import DroidpilotError
from droidpilot.perception.ocr import ImageInput, clip_box, load_image, sort_lines
from droidpilot.perception.reading import FinishedReading, OcrReading, Step, StepReading
from droidpilot.perception.types import OcrLine

DET_MODEL = "PP-OCRv6_det_small.onnx"
REC_MODEL = "PP-OCRv6_rec_small.onnx"
CLS_MODEL = "ch_ppocr_mobile_v2.0_cls_mobile.onnx"


@dataclass(frozen=True)
class RapidSettings:
    """Every setting that changes speed or output; defaults chosen from ``benchmarks/ocr_speed.py``."""

    # Longest side of the image given to text detection, unless det_min_short asks for more (on phones it
    # does: 1200 at 720x1600, 1080x2400 and 1440x3200); see benchmarks/ocr_speed.py --sizes.
    det_limit_side: int = 960
    det_min_scale: float = 0.35  # but never scale below this (long scrolling screenshots keep their text)
    # Detection never shrinks a screenshot's short side below this. Phone UIs scale with pixel density, so
    # the smallest text on a W-pixel-wide screen is about W/540 times the ~10 px of a 540x1170 status bar
    # ("0.00 KB/S"), which is lost at 0.82x: at this short side every screen keeps it at its 540-px size.
    # Screenshots at most this wide are detected at full size.
    det_min_short: int = 540
    rec_batch: int = 8  # line crops recognised per onnxruntime call (the "rapidocr" backend; "onnx" plans)
    # Narrowest recognition input (at height 48) of the "onnx" backend; RapidOCR pads every line to 320 px.
    # 160 reads every label as 320 does and saves ~30% of recognition; below it, short crops (digits, dots)
    # start to read differently (benchmarks/ocr_speed.py --sizes compares recall with bare RapidOCR).
    rec_min_width: int = 160
    # Each line is padded to the first of rec_min_width * growth**k (rounded up to 16) that holds it: a few
    # widths, a batch each, and a line's input independent of the others (so lines repeat from memory).
    rec_width_growth: float = 1.2
    threads: int = 2  # onnxruntime intra-op threads
    # Let onnxruntime's idle worker threads busy-wait ("onnx" backend). Off: on shared cores spinning made a
    # 2-thread read twice as slow as a 1-thread one (benchmarks/ocr_speed.py --ablations).
    spin: bool = False
    use_cls: bool = False  # text-direction classifier (upside-down text); phone UIs do not need it
    text_score: float = 0.5  # lines recognised with a lower confidence are dropped
    box_thresh: float = 0.5  # detection confidence of a text box
    # "onnx": the same models run straight on onnxruntime (perception/onnx_ocr.py), which spares a cold
    # process the wrapper's import (its YAML configuration alone costs about 0.5 s); "rapidocr": the
    # wrapper itself (needed for the direction classifier).
    backend: str = "onnx"

    def key(self) -> str:
        """A stable string of every setting, for cache keys."""
        return ",".join(f"{k}={v}" for k, v in sorted(asdict(self).items()))


def shipped_model_dir() -> Path:
    """Where the rapidocr wheel keeps its models."""
    try:
        import rapidocr
    except ImportError as exc:
        raise DroidpilotError(f"the rapidocr package cannot be imported ({exc}); "
                              "install droidpilot's dependencies (`make venv`)") from None
    return Path(rapidocr.__file__).resolve().parent / "models"


def _model_paths(model_dir: Path, use_cls: bool) -> dict[str, Path]:
    paths = {"Det": model_dir / DET_MODEL, "Rec": model_dir / REC_MODEL}
    if use_cls:
        paths["Cls"] = model_dir / CLS_MODEL
    missing = [str(p) for p in paths.values() if not p.is_file()]
    if missing:
        raise DroidpilotError(
            "RapidOCR model files are missing: " + ", ".join(missing)
            + ". droidpilot never downloads models; reinstall the rapidocr wheel that ships them "
            "(`.venv/bin/pip install --force-reinstall -c constraints.txt rapidocr`) or pass model_dir=")
    return paths


class RapidOcrEngine:
    """RapidOCR with phone-screen settings; the models load on first use and are kept."""

    name = "rapidocr"

    def __init__(self, settings: RapidSettings | None = None, model_dir: Path | None = None) -> None:
        self.settings = settings or RapidSettings()
        self.model_dir = Path(model_dir) if model_dir else shipped_model_dir()
        self._paths = _model_paths(self.model_dir, self.settings.use_cls)
        self._ocr: Any = None
        self._lock = threading.Lock()

    def settings_key(self) -> str:
        return f"{DET_MODEL}+{REC_MODEL};{self.settings.key()}"

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
        s = self.settings
        long_side, short_side = max(width, height), min(width, height)
        if short_side <= s.det_min_short:
            return long_side
        scale = max(s.det_min_short / short_side, s.det_limit_side / long_side, s.det_min_scale)
        return min(long_side, round(long_side * scale))

    def recognize(self, image: ImageInput) -> list[OcrLine]:
        """Lines on ``image`` with boxes in its own pixels (axis-aligned hulls of the detected quads)."""
        if self._steps_possible():
            return self.start_reading(image).finish()
        return self._recognize_wrapped(image)

    def _steps_possible(self) -> bool:
        return self.settings.backend == "onnx" and not self.settings.use_cls

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
            boxes = ocr.detect(bgr, self.det_side(width, height), s.box_thresh)
            plan = ocr.plan(bgr, boxes, s.rec_min_width, s.rec_width_growth)

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
