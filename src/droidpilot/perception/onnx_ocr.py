"""PP-OCR detection and recognition run straight on onnxruntime, without the rapidocr wrapper.

The same model files and the same maths as RapidOCR (DB detection: normalise, threshold 0.3, dilate,
box score, unclip 1.6; CTC recognition at height 48 in width-sorted batches), minus the wrapper's cost:
importing rapidocr loads its YAML configuration with OmegaConf (about 0.5 s of a cold process).
Recognition pads less than RapidOCR: lines to a smaller minimum width (RapidOCR pads each to 320 px, a
third of the work on phone screens, whose short labels are many), each to a width of its own (a few
widths, a batch each), and a line seen before, pixel for pixel, is not read again (``LineMemo``).
Boxes are read as rotated rectangles. Phone UI text is upright, so a line is cropped from the
full-resolution image by its axis-aligned hull; the few lines drawn at an angle or up the screen (map
street names) are cut out as upright strips and read both ways up (``perception/upright.py``).
"""

from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from droidpilot.perception.line_memo import LineMemo
from droidpilot.perception.ocr import ImageInput, load_image
from droidpilot.perception.onnx_sessions import open_session, runtime
from droidpilot.perception.upright import TURN_MARGIN, TiltedLine, line_crop, tilted_line

DET_THRESH, UNCLIP, MIN_SIZE, MAX_CANDIDATES = 0.3, 1.6, 3, 1000
REC_HEIGHT = 48  # lines are resized to this height, then padded to a width chosen by ``rec_width``
# Input widths grow by this factor from the minimum width: padding costs ~9% of the columns on average,
# and a screen's lines fall into a handful of widths, a batch (onnxruntime call) each.
REC_WIDTH_GROWTH = 1.2
# Lines of one width per onnxruntime call. 16 rather than 32: smaller activations grow the memory arena less
# in a cold process (a cold verify 1-4% faster over 6 traces), and the 213 Mobile-Eval screens read the same.
REC_MAX_BATCH = 16


@dataclass(frozen=True)
class RawLine:
    """One recognised line: its box (x1, y1, x2, y2) in image pixels, text and confidence."""

    box: tuple[int, int, int, int]
    text: str
    score: float


@dataclass(frozen=True)
class TextBox:
    """A detected line: its axis-aligned hull (x1, y1, x2, y2) in image pixels, and the line as drawn
    when it is tilted off the common path (``perception/upright.py``), else None."""

    box: tuple[int, int, int, int]
    tilted: TiltedLine | None = None


@dataclass(frozen=True)
class RecPlan:
    """The recognition work for one image: the line crops, their input widths at height 48, the batches
    (tuples of crop indices, narrowest batch first) they are read in, and the lines already known."""

    crops: list[np.ndarray]
    widths: list[int]
    batches: list[tuple[int, ...]]
    keys: list[bytes]
    known: dict[int, tuple[str, float]]  # lines the memo already holds: (text, confidence) by box index
    twins: dict[int, list[int]]  # a batched line -> the other lines of the screen with identical crops
    both_ways: frozenset[int] = frozenset()  # lines read also half a turn round (``upright.TURN_MARGIN``)

    def batch_width(self, k: int) -> int:
        """The input width of batch ``k`` (all its crops share it)."""
        return self.widths[self.batches[k][0]]


class OnnxOcr:
    """A detection and a recognition session, created once; ``read`` a BGR image into RawLines.

    The recognition model (twice the detection model's size) loads in a thread while the detection model
    loads and detects: onnxruntime lets go of the GIL while it builds a session, so a cold process uses
    its second core for it. Sessions promised ahead (``perception/preload.py``) are shared, not reopened."""

    def __init__(self, det_model: Path, rec_model: Path, threads: int = 2, spin: bool = False) -> None:
        self._rec: tuple[Any, list[str]] | None = None
        self._rec_error: BaseException | None = None

        def load_rec() -> None:
            try:
                rec = open_session(rec_model, threads, spin)
                meta = rec.get_modelmeta().custom_metadata_map
                self._rec = rec, ["blank", *meta["character"].splitlines(), " "]
            except BaseException as exc:  # handed to the first caller of recognize
                self._rec_error = exc

        self.memo = LineMemo()
        runtime()  # imported before the loading thread starts (see onnx_sessions.runtime)
        self._rec_loader = threading.Thread(target=load_rec, name="ocr-rec-model", daemon=True)
        self._rec_loader.start()
        self.det = open_session(det_model, threads, spin)

    def _recognizer(self) -> tuple[Any, list[str]]:
        """The recognition session and its characters, once the loading thread is done."""
        self._rec_loader.join()
        if self._rec is None:
            raise self._rec_error or RuntimeError("the recognition model did not load")
        return self._rec

    # -- detection ---------------------------------------------------------------------------
    def detect(self, bgr: np.ndarray, side: int, box_thresh: float) -> list[tuple[int, int, int, int]]:
        """Text boxes (axis-aligned hulls), detection run with the longest side scaled to ``side``."""
        return [found.box for found in self.detect_lines(bgr, side, box_thresh)]

    def detect_lines(self, bgr: np.ndarray, side: int, box_thresh: float) -> list[TextBox]:
        """Text lines, detection run with the longest side scaled to ``side`` (multiple of 32)."""
        h, w = bgr.shape[:2]
        ratio = min(1.0, side / max(h, w)) if side < max(h, w) else side / max(h, w)
        rh, rw = max(32, round(h * ratio / 32) * 32), max(32, round(w * ratio / 32) * 32)
        img = cv2.resize(bgr, (rw, rh)).astype(np.float32)
        img = (img * (1 / 127.5) - 1.0).transpose(2, 0, 1)[None]
        pred = self.det.run(None, {self.det.get_inputs()[0].name: img})[0][0, 0]
        seg = cv2.dilate((pred > DET_THRESH).astype(np.uint8), np.ones((2, 2), np.uint8))
        contours, _ = cv2.findContours(seg, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        sx, sy = w / rw, h / rh
        boxes = []
        for contour in contours[:MAX_CANDIDATES]:
            (cx, cy), (bw, bh), angle = cv2.minAreaRect(contour)
            if min(bw, bh) < MIN_SIZE:
                continue
            x1, y1, cw, ch = cv2.boundingRect(contour)
            score = float(pred[y1:y1 + ch, x1:x1 + cw][seg[y1:y1 + ch, x1:x1 + cw] > 0].mean())
            if score < box_thresh:
                continue
            d = bw * bh * UNCLIP / (2 * (bw + bh))  # pyclipper's offset of a rectangle by area*r/perimeter
            if min(bw, bh) + 2 * d < MIN_SIZE + 2:
                continue
            pts = cv2.boxPoints(((cx, cy), (bw + 2 * d, bh + 2 * d), angle)) * np.float32([sx, sy])
            xs, ys = np.clip(pts[:, 0], 0, w), np.clip(pts[:, 1], 0, h)
            box = (round(float(xs.min())), round(float(ys.min())), round(float(xs.max())),
                   round(float(ys.max())))
            if box[2] - box[0] > 3 and box[3] - box[1] > 3:
                boxes.append(TextBox(box, tilted_line(pts)))
        return boxes

    # -- recognition ---------------------------------------------------------------------------
    def plan(self, bgr: np.ndarray, boxes: list[tuple[int, int, int, int]], min_width: int,
             growth: float = REC_WIDTH_GROWTH, tilted: list[TiltedLine | None] | None = None) -> RecPlan:
        """How the lines in ``boxes`` will be read. Each crop (``upright.line_crop``: the box, or the
        line ``tilted[i]`` turned upright) is resized to height 48 and padded to the width ``rec_width``
        gives it from its own size alone; lines remembered by ``self.memo`` are known at once, the others
        go in batches of equal width. A line's input never depends on the other lines, so the batches give
        the same text in whatever order, and however many of them, are run."""
        self._recognizer()  # a model that did not load is an error even on a screen without text
        cut = [line_crop(bgr, box, tilted[i] if tilted else None) for i, box in enumerate(boxes)]
        crops = [crop for crop, _ in cut]
        both_ways = frozenset(i for i, (_, both) in enumerate(cut) if both)
        natural = [math.ceil(REC_HEIGHT * c.shape[1] / c.shape[0]) for c in crops]
        widths = [rec_width(n, min_width, growth) for n in natural]
        keys = [LineMemo.key(c, w, both_ways=i in both_ways) for i, (c, w) in enumerate(zip(crops, widths,
                                                                                               strict=True))]
        known: dict[int, tuple[str, float]] = {}
        twins: dict[int, list[int]] = {}  # a line read once for every identical crop of the screen
        first: dict[bytes, int] = {}
        by_width: dict[int, list[int]] = {}
        for i, key in enumerate(keys):
            if key in first:
                twins.setdefault(first[key], []).append(i)
                continue
            first[key] = i
            found = self.memo.get(key)
            if found is not None:
                known[i] = found
            else:
                by_width.setdefault(widths[i], []).append(i)
        for i, others in twins.items():
            if i in known:
                known.update((j, known[i]) for j in others)
        batches = [tuple(group[start:start + REC_MAX_BATCH]) for _, group in sorted(by_width.items())
                   for start in range(0, len(group), REC_MAX_BATCH)]
        return RecPlan(crops, widths, batches, keys, known, twins, both_ways)

    def run_batch(self, plan: RecPlan, k: int) -> list[tuple[int, str, float]]:
        """(box index, text, confidence) for the lines of the plan's ``k``-th batch (then remembered)."""
        rec, chars = self._recognizer()
        idx = plan.batches[k]
        width = plan.batch_width(k)
        turned = [i for i in idx if i in plan.both_ways]  # also read half a turn round, after the rest
        tensor = np.zeros((len(idx) + len(turned), 3, REC_HEIGHT, width), np.float32)
        crops = [plan.crops[i] for i in idx] + [np.rot90(plan.crops[i], 2) for i in turned]
        for row, c in enumerate(crops):
            rw = min(width, math.ceil(REC_HEIGHT * c.shape[1] / c.shape[0]))
            img = cv2.resize(np.ascontiguousarray(c), (rw, REC_HEIGHT)).astype(np.float32)
            tensor[row, :, :, :rw] = (img * (1 / 127.5) - 1.0).transpose(2, 0, 1)
        probs = rec.run(None, {rec.get_inputs()[0].name: tensor})[0]
        other_way = {i: len(idx) + n for n, i in enumerate(turned)}
        out = []
        for row, i in enumerate(idx):
            text, score = _decode(probs[row], chars)
            if i in other_way:
                turned_text, turned_score = _decode(probs[other_way[i]], chars)
                if turned_score >= score + TURN_MARGIN:
                    text, score = turned_text, turned_score
            self.memo.put(plan.keys[i], (text, score))
            out += [(j, text, score) for j in (i, *plan.twins.get(i, ()))]
        return out

    def recognize(self, bgr: np.ndarray, boxes: list[tuple[int, int, int, int]], min_width: int,
                  growth: float = REC_WIDTH_GROWTH, tilted: list[TiltedLine | None] | None = None
                  ) -> list[tuple[str, float]]:
        """(text, confidence) for each box, in order: the remembered lines and every batch of ``plan``."""
        plan = self.plan(bgr, boxes, min_width, growth, tilted)
        out: list[tuple[str, float]] = [("", 0.0)] * len(boxes)
        for i, found in plan.known.items():
            out[i] = found
        for k in range(len(plan.batches)):
            for i, text, score in self.run_batch(plan, k):
                out[i] = (text, score)
        return out

    def read(self, bgr: np.ndarray, det_side: int, box_thresh: float, rec_min_width: int,
             growth: float = REC_WIDTH_GROWTH) -> list[RawLine]:
        """Detect then recognise every line of a BGR image."""
        found = self.detect_lines(bgr, det_side, box_thresh)
        boxes = [f.box for f in found]
        texts = self.recognize(bgr, boxes, rec_min_width, growth, [f.tilted for f in found])
        return [RawLine(b, t, s) for b, (t, s) in zip(boxes, texts, strict=True)]


def decode_bgr(image: ImageInput) -> np.ndarray:
    """``image`` as a contiguous BGR array. JPEG bytes and files are decoded by OpenCV straight into BGR
    (the same pixels Pillow gives, about four times faster, which a screenshot-per-step trace feels);
    anything else, and anything OpenCV cannot read, goes through ``load_image`` and its clear errors."""
    data: bytes | None = None
    if isinstance(image, (bytes, bytearray)):
        data = bytes(image)
    elif isinstance(image, (str, Path)):
        with contextlib.suppress(OSError):
            data = Path(image).read_bytes()
    # A JPEG must start and end with its markers: OpenCV fills a cut-off one with grey where Pillow refuses.
    if data is not None and data[:3] == b"\xff\xd8\xff" and data.rstrip(b"\0\n")[-2:] == b"\xff\xd9":
        bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        if bgr is not None and bgr.ndim == 3 and bgr.shape[2] == 3:
            return bgr
    return np.ascontiguousarray(np.asarray(load_image(image))[:, :, ::-1])


def _decode(prob: np.ndarray, chars: list[str]) -> tuple[str, float]:
    """CTC greedy decoding of one line: repeats merged, blanks dropped; confidence the kept steps' mean."""
    ids, conf = prob.argmax(axis=1), prob.max(axis=1)
    keep = np.ones(len(ids), bool)
    keep[1:] = ids[1:] != ids[:-1]
    keep &= ids != 0
    text = "".join(chars[i] for i in ids[keep] if i < len(chars))
    return text, float(conf[keep].mean()) if keep.any() else 0.0


def rec_width(natural: int, min_width: int, growth: float = REC_WIDTH_GROWTH) -> int:
    """The input width of a line whose resized width is ``natural`` columns: the smallest of the widths
    ``min_width``, ``min_width * growth``, ``min_width * growth**2``, ... (rounded up to 16) that holds it.
    Few distinct widths make few batches; the width depends on the line alone (see ``LineMemo``)."""
    width = float(min_width)
    while math.ceil(width / 16) * 16 < natural:
        width *= max(growth, 1.05)
    return max(min_width, math.ceil(width / 16) * 16)
