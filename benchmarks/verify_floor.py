"""Where a cold ``droidpilot verify`` spends its OCR time, and the most the same OCR could gain over MobiFlow.

Every trace is verified in process with a new RapidOCR engine and an empty cache (as a cold ``verify``
starts: no line remembered), counting the detection runs (one per screen the search asks about) and the
recognised lines, with the CPU seconds of each. The search answers every (node, screen) question it asks
exactly, and a "no" needs every line of its screen (a keyword may also match across lines), so each
detection counted is work an exact verifier with this OCR cannot skip: MobiFlow's CPU per screen over
droidpilot's detection CPU per screen is the ratio it could reach were recognition and start-up free.

``--sides`` also reads a sample of the screens with detection at smaller sizes (long side in pixels; 1632
is the 736-px short side droidpilot uses on 1080x2400 screens) and says on how many screens every line
reads the same; ``--quantised`` does the same for int8 copies of the detection and recognition models
built here from the shipped ones with onnxruntime's quantisation (static QDQ calibrated on the sampled
screens, dynamic for recognition's MatMuls). That needs the ``onnx`` package, which droidpilot does not
depend on; the models are built in a temporary folder and nothing is downloaded.

    .venv/bin/python benchmarks/verify_floor.py --traces bench-out/traces [--mobiflow-cpu 4.2]
    .venv/bin/python benchmarks/verify_floor.py --traces bench-out/traces --sides 1440,1280 --quantised
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.perception import onnx_ocr
from droidpilot.perception.cache import CachedOcr, OcrCache
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.perception.rapid_config import DET_MODEL, REC_MODEL
from droidpilot.verify.engine import verify
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.spec import load_rule
from droidpilot.verify.trace import load_trace

SHIPPED_SIDE = 1632  # the long side detection runs at on a 1080x2400 screen (short side 736)
REC_MIN_WIDTH = 160


@dataclass
class Costs:
    """What one verification spent on OCR: detections and recognised lines, each with its CPU seconds."""

    name: str = ""
    frames: int = 0
    ok: bool = False
    detections: int = 0
    boxes: int = 0
    det_cpu: float = 0.0
    recognised: int = 0
    rec_cpu: float = 0.0
    verify_cpu: float = 0.0


@contextlib.contextmanager
def metered(costs: Costs) -> Iterator[Costs]:
    """Count ``OnnxOcr``'s detections and recognition batches into ``costs`` while the block runs."""
    detect, run_batch = onnx_ocr.OnnxOcr.detect_lines, onnx_ocr.OnnxOcr.run_batch

    def counted_detect(self: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        found = detect(self, *args, **kwargs)
        costs.det_cpu += time.process_time() - start
        costs.detections += 1
        costs.boxes += len(found)
        return found

    def counted_batch(self: Any, plan: Any, k: int) -> Any:
        start = time.process_time()
        lines = run_batch(self, plan, k)
        costs.rec_cpu += time.process_time() - start
        costs.recognised += len(plan.batches[k])
        return lines

    onnx_ocr.OnnxOcr.detect_lines, onnx_ocr.OnnxOcr.run_batch = counted_detect, counted_batch  # type: ignore
    try:
        yield costs
    finally:
        onnx_ocr.OnnxOcr.detect_lines, onnx_ocr.OnnxOcr.run_batch = detect, run_batch  # type: ignore


def measure_trace(folder: Path, work: Path) -> Costs:
    """Verify ``folder`` (a trace with its rule.yaml) as a cold process would: a new engine, empty cache."""
    engine = make_ocr_engine("rapidocr")
    options = VerifierOptions(ocr_engine=CachedOcr(engine, OcrCache(tempfile.mkdtemp(dir=work))))
    costs = Costs(folder.name, frames=len(list(folder.glob("*.jpg"))))
    rule, trace = load_rule(folder / "rule.yaml"), load_trace(folder)
    with metered(costs):
        start = time.process_time()
        costs.ok = verify(rule, trace, options).ok
        costs.verify_cpu = time.process_time() - start
    return costs


def ceiling(theirs_per_screen: float, det_per_screen: float) -> float:
    """The ratio an exact verifier reaches if only its detections cost anything."""
    return theirs_per_screen / det_per_screen


def compare_lines(ref: list[str], other: list[str]) -> tuple[bool, int, int]:
    """(same lines, lines of ``ref`` not read, lines read that ``ref`` lacks); order does not matter,
    a line read twice counts twice."""
    a, b = Counter(ref), Counter(other)
    lost, new = sum((a - b).values()), sum((b - a).values())
    return lost == new == 0, lost, new


Reader = Callable[[Any], list[str]]


def reader(ocr: onnx_ocr.OnnxOcr, side: int) -> Reader:
    """Every line of a BGR screen read by ``ocr`` with detection at long side ``side``, memo-less."""

    def read(bgr: Any) -> list[str]:
        found = ocr.detect_lines(bgr, side, 0.5)
        ocr.memo = type(ocr.memo)()  # each screen read from scratch, as the reference is
        texts = ocr.recognize(bgr, [f.box for f in found], REC_MIN_WIDTH, tilted=[f.tilted for f in found])
        return [text for text, _ in texts]

    return read


def identity_row(label: str, screens: list[Any], ref: list[list[str]], read: Reader) -> str:
    start = time.process_time()
    got = [read(bgr) for bgr in screens]
    cpu = (time.process_time() - start) / len(screens)
    checks = [compare_lines(r, g) for r, g in zip(ref, got, strict=True)]
    same = sum(c[0] for c in checks)
    return (f"{label}: {cpu:.3f} s CPU per screen read; every line the same on {same}/{len(screens)} "
            f"screens; {sum(c[1] for c in checks)} lines not read, {sum(c[2] for c in checks)} read "
            "otherwise")


def model_dir() -> Path:
    import rapidocr  # the shipped models live in its package

    return Path(rapidocr.__file__).parent / "models"


def quantised_models(screens: list[Any], folder: Path) -> tuple[Path, Path]:
    """int8 copies of the shipped models: detection static QDQ calibrated on ``screens`` at the shipped
    side, recognition with dynamically quantised MatMuls. Needs the ``onnx`` package."""
    import cv2
    import numpy as np
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_dynamic,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    models = model_dir()
    inputs = []
    for bgr in screens:
        h, w = bgr.shape[:2]
        ratio = SHIPPED_SIDE / max(h, w)
        size = (max(32, round(w * ratio / 32) * 32), max(32, round(h * ratio / 32) * 32))
        img = cv2.resize(bgr, size).astype(np.float32)
        inputs.append((img * (1 / 127.5) - 1.0).transpose(2, 0, 1)[None])

    class Screens(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(inputs)

        def get_next(self) -> dict[str, Any] | None:
            x = next(self.left, None)
            return None if x is None else {"x": x}

    det_pre, rec_pre = folder / "det_pre.onnx", folder / "rec_pre.onnx"
    quant_pre_process(str(models / DET_MODEL), str(det_pre), skip_symbolic_shape=True)
    quant_pre_process(str(models / REC_MODEL), str(rec_pre), skip_symbolic_shape=True)
    det_q, rec_q = folder / "det_int8.onnx", folder / "rec_int8.onnx"
    # per-tensor: the shipped models' opset has no per-channel DequantizeLinear
    quantize_static(str(det_pre), str(det_q), Screens(), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=False)
    quantize_dynamic(str(rec_pre), str(rec_q), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
    return det_q, rec_q


def identity_report(shots: list[Path], sides: list[int], quantised: bool, work: Path) -> list[str]:
    """Lines saying how the cheaper readings compare with the shipped one on ``shots``."""
    from droidpilot.perception.onnx_ocr import decode_bgr

    screens = [decode_bgr(p.read_bytes()) for p in shots]
    models = model_dir()
    shipped = onnx_ocr.OnnxOcr(models / DET_MODEL, models / REC_MODEL, threads=2)
    ref = [reader(shipped, SHIPPED_SIDE)(bgr) for bgr in screens]
    rows = [identity_row(f"detection at {SHIPPED_SIDE} (shipped)", screens, ref,
                         reader(shipped, SHIPPED_SIDE))]
    rows += [identity_row(f"detection at {side}", screens, ref, reader(shipped, side)) for side in sides]
    if quantised:
        try:
            det_q, rec_q = quantised_models(screens, work)
        except ImportError as exc:
            return [*rows, f"--quantised needs the onnx package ({exc}); install it beside onnxruntime"]
        for label, det, rec in (("int8 detection", det_q, models / REC_MODEL),
                                ("int8 recognition", models / DET_MODEL, rec_q)):
            cheaper = onnx_ocr.OnnxOcr(det, rec, threads=2)
            rows.append(identity_row(label, screens, ref, reader(cheaper, SHIPPED_SIDE)))
    return rows


def summary(rows: list[Costs], theirs_per_screen: float | None) -> list[str]:
    frames, dets = sum(r.frames for r in rows), sum(r.detections for r in rows)
    det_cpu, rec_cpu = sum(r.det_cpu for r in rows), sum(r.rec_cpu for r in rows)
    per_screen = det_cpu / dets
    out = [
        f"{len(rows)} traces, {frames} screens, {dets} detected (the rest never asked about), "
        f"{sum(r.boxes for r in rows)} lines found, {sum(r.recognised for r in rows)} recognised",
        f"detection {per_screen:.3f} s CPU per screen; recognition {rec_cpu / max(1, dets):.3f} s per "
        f"detected screen ({1000 * rec_cpu / max(1, sum(r.recognised for r in rows)):.1f} ms per line); "
        f"median per trace: detection {statistics.median(r.det_cpu for r in rows):.2f} s, recognition "
        f"{statistics.median(r.rec_cpu for r in rows):.2f} s, whole verify in process "
        f"{statistics.median(r.verify_cpu for r in rows):.2f} s",
    ]
    if theirs_per_screen:
        out.append(f"MobiFlow {theirs_per_screen:.2f} s CPU per screen: at most "
                   f"{ceiling(theirs_per_screen, per_screen):.1f}x with this detection, were everything else "
                   "free")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=Path, action="append", required=True,
                        help="A folder of trace folders, each with its rule.yaml (repeatable).")
    parser.add_argument("--every", type=int, default=1, help="Take every N-th trace of each folder.")
    parser.add_argument("--mobiflow-cpu", type=float, default=None,
                        help="MobiFlow's CPU seconds per screen (benchmarks/verify_vs_mobiflow.py: median "
                             "CPU over frames), to print the ceiling.")
    parser.add_argument("--sides", default="", help="Comma-separated long sides to compare detection at.")
    parser.add_argument("--quantised", action="store_true", help="Compare int8 copies of the models.")
    parser.add_argument("--sample", type=int, default=7, help="With --sides/--quantised: every N-th screen.")
    args = parser.parse_args(argv)
    folders = [t for src in args.traces for t in sorted({p.parent for p in src.glob("*/rule.yaml")})[
        ::max(1, args.every)]]
    if not folders:
        print(f"no trace folders with a rule.yaml under {', '.join(map(str, args.traces))}", file=sys.stderr)
        return 2
    sides = [int(s) for s in args.sides.split(",") if s.strip()]
    with tempfile.TemporaryDirectory(prefix="verify-floor-") as tmp:
        rows = []
        for folder in folders:
            row = measure_trace(folder, Path(tmp))
            rows.append(row)
            print(f"{row.name:<28} {row.frames:>3} screens {'pass' if row.ok else 'fail'}  detected "
                  f"{row.detections:>3} ({row.det_cpu:.2f} s)  lines {row.boxes:>4}, recognised "
                  f"{row.recognised:>4} ({row.rec_cpu:.2f} s)  verify {row.verify_cpu:.2f} s", flush=True)
        for line in summary(rows, args.mobiflow_cpu):
            print(line)
        if sides or args.quantised:
            shots = [p for f in folders for p in sorted(f.glob("*.jpg"), key=lambda p: int(p.stem))]
            for line in identity_report(shots[1::max(1, args.sample)], sides, args.quantised, Path(tmp)):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
