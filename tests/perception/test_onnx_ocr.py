"""The direct onnxruntime backend reads what the rapidocr wrapper reads, with the same boxes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from droidpilot.errors import DroidpilotError
from droidpilot.perception.normalize import match_key
from droidpilot.perception.onnx_ocr import REC_CALL_COLUMNS, REC_MAX_BATCH, plan_batches
from droidpilot.perception.rapid import DET_MODEL, REC_MODEL, RapidOcrEngine, RapidSettings, shipped_model_dir
from droidpilot.perception.synth import render_list_screen


def test_direct_backend_matches_the_wrapper_on_a_small_screen() -> None:
    screen = render_list_screen(size=(540, 1170), lang="en", theme="dark", seed=5, scale=0.5)
    direct = RapidOcrEngine(RapidSettings(backend="onnx")).recognize(screen.image)
    wrapper = RapidOcrEngine(RapidSettings(backend="rapidocr")).recognize(screen.image)
    assert [ln.text for ln in direct] == [ln.text for ln in wrapper]
    for a, b in zip(direct, wrapper, strict=True):
        assert max(abs(p - q) for p, q in zip(a.box, b.box, strict=True)) <= 4, (a, b)

    def read(lines: list) -> int:
        return sum(any(match_key(lb.text) in match_key(ln.text) for ln in lines) for lb in screen.labels)

    assert read(direct) >= read(wrapper) >= 0.9 * len(screen.labels)


def _padded_work(widths: list[int], plan: list[tuple[int, int]], call_cost: float) -> float:
    return sum(call_cost + (stop - start) * widths[stop - 1] for start, stop in plan)


def test_batch_plan_covers_every_line_once_and_costs_the_least_of_all_plans() -> None:
    import itertools
    import random

    rng = random.Random(3)
    for _ in range(40):
        widths = sorted(rng.randint(96, 700) for _ in range(rng.randint(1, 8)))
        plan = plan_batches(widths, REC_CALL_COLUMNS, 3)
        assert plan[0][0] == 0 and plan[-1][1] == len(widths)
        assert all(a[1] == b[0] for a, b in itertools.pairwise(plan))
        assert all(0 < stop - start <= 3 for start, stop in plan)
        best = math.inf
        for cuts in itertools.product((False, True), repeat=len(widths) - 1):  # every way to cut the row
            bounds = [0, *(i + 1 for i, cut in enumerate(cuts) if cut), len(widths)]
            candidate = list(itertools.pairwise(bounds))
            if all(stop - start <= 3 for start, stop in candidate):
                best = min(best, _padded_work(widths, candidate, REC_CALL_COLUMNS))
        assert _padded_work(widths, plan, REC_CALL_COLUMNS) == best


def test_batch_plan_of_no_lines_is_empty() -> None:
    assert plan_batches([], REC_CALL_COLUMNS, REC_MAX_BATCH) == []


def test_short_lines_read_alike_padded_to_160_or_to_rapidocrs_320(rapid_engine: RapidOcrEngine) -> None:
    screen = render_list_screen(size=(540, 1170), lang="zh", theme="light", seed=7, scale=0.5)
    bgr = np.ascontiguousarray(np.asarray(screen.image)[:, :, ::-1])
    reader = rapid_engine._direct()
    boxes = reader.detect(bgr, 1170, 0.5)
    narrow, wide = reader.recognize(bgr, boxes, 160), reader.recognize(bgr, boxes, 320)
    confident = [(a[0], b[0]) for a, b in zip(narrow, wide, strict=True) if max(a[1], b[1]) >= 0.8]
    assert len(confident) >= len(screen.labels)
    assert all(a == b for a, b in confident), [p for p in confident if p[0] != p[1]]


def test_an_unloadable_model_is_a_clear_error_from_either_session(tmp_path: Path) -> None:
    shipped = shipped_model_dir()
    for broken in (DET_MODEL, REC_MODEL):
        folder = tmp_path / broken
        folder.mkdir()
        for name in (DET_MODEL, REC_MODEL):
            (folder / name).symlink_to(shipped / name)
        (folder / broken).unlink()
        (folder / broken).write_bytes(b"not an onnx model")
        engine = RapidOcrEngine(model_dir=folder)
        with pytest.raises(DroidpilotError, match="cannot be loaded") as info:
            engine.recognize(Image.new("RGB", (64, 64), "white"))
        assert str(folder / broken) in str(info.value)
