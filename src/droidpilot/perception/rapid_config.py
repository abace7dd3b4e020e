"""RapidOCR's settings and model files: what the OCR engine runs, importable without numpy or onnxruntime.

Kept apart from the engine (``perception/rapid.py``) so that a command about to read screens can start
loading the models (``perception/preload.py``) before anything heavy is imported.
"""

from __future__ import annotations

import importlib.util
from dataclasses import asdict, dataclass
from pathlib import Path

from droidpilot.errors import DroidpilotError

DET_MODEL = "PP-OCRv6_det_small.onnx"
REC_MODEL = "PP-OCRv6_rec_small.onnx"
CLS_MODEL = "ch_ppocr_mobile_v2.0_cls_mobile.onnx"


@dataclass(frozen=True)
class RapidSettings:
    """Every setting that changes speed or output; defaults chosen from ``benchmarks/ocr_speed.py``."""

    # Longest side of the image given to text detection, unless det_min_short asks for more (on phones it
    # does: 1636 at 720x1600 and 1080x2400, 1595 at 540x1170); see benchmarks/ocr_speed.py --sizes.
    det_limit_side: int = 960
    det_min_scale: float = 0.35  # but never scale below this (long scrolling screenshots keep their text)
    # Detection runs with the screenshot's short side at least this (scaled down to it, or up to it by at
    # most det_max_upscale). Phone UIs scale with pixel density, so the smallest text on a W-pixel-wide
    # screen is about W/540 times the ~10 px of a 540x1170 status bar. At a short side of 540 a status bar's
    # network speed, "0.00" stacked over "KB/S" with a 2-px gap, is detected as one box and read "000"; at
    # 736 (bare RapidOCR's own minimum side) the two lines come apart (benchmarks/ocr_vs_bare.py). Not only
    # there: at 540 some small real text gets no box at all ("Local time 14:54", "amazon music"), so 540
    # with the status bar strip alone re-detected at 736 left 69 bare-only lines unexplained on the 256
    # screens, 640 and 672 still 47 and 34 on those 56 screens (tests/perception/test_ocr.py keeps two).
    det_min_short: int = 736
    det_max_upscale: float = 2.0
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

    @property
    def direct(self) -> bool:
        """Whether the models run straight on onnxruntime (``perception/onnx_ocr.py``), which the direction
        classifier's wrapper backend cannot."""
        return self.backend == "onnx" and not self.use_cls

    def det_side(self, width: int, height: int) -> int:
        """The longest side detection runs at for a ``width`` x ``height`` image."""
        long_side, short_side = max(width, height), min(width, height)
        if short_side <= self.det_min_short:
            return round(long_side * min(self.det_max_upscale, self.det_min_short / max(1, short_side)))
        scale = max(self.det_min_short / short_side, self.det_limit_side / long_side, self.det_min_scale)
        return min(long_side, round(long_side * scale))

    def key(self) -> str:
        """A stable string of every setting, for cache keys."""
        return ",".join(f"{k}={v}" for k, v in sorted(asdict(self).items()))


def shipped_model_dir() -> Path:
    """Where the rapidocr wheel keeps its models (found without importing the package)."""
    try:
        spec = importlib.util.find_spec("rapidocr")
    except (ImportError, ValueError) as exc:
        spec, why = None, str(exc)
    else:
        why = "no module named 'rapidocr'"
    if spec is None or not spec.origin:
        raise DroidpilotError(f"the rapidocr package cannot be found ({why}); "
                              "install droidpilot's dependencies (`make venv`)")
    return Path(spec.origin).resolve().parent / "models"


def model_paths(model_dir: Path, use_cls: bool) -> dict[str, Path]:
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
