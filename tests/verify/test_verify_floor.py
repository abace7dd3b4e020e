"""benchmarks/verify_floor.py: its meter counts the OCR work of a real read, and how readings are compared."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from tests.support.benchmarks import load_benchmark

from droidpilot.perception import onnx_ocr
from droidpilot.perception.ocr import make_ocr_engine


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("verify_floor")


def test_the_same_lines_in_another_order_are_the_same_reading(bench: Any) -> None:
    assert bench.compare_lines(["Inbox", "Weekly sync"], ["Weekly sync", "Inbox"]) == (True, 0, 0)


def test_one_misread_character_is_a_line_lost_and_a_line_read_otherwise(bench: Any) -> None:
    assert bench.compare_lines(["Inbox", "Weekly sync"], ["Inbox", "Weekly synC"]) == (False, 1, 1)


def test_a_line_read_once_where_the_reference_read_it_twice_is_lost(bench: Any) -> None:
    assert bench.compare_lines(["Sent", "Sent", "Inbox"], ["Sent", "Inbox"]) == (False, 1, 0)
    assert bench.compare_lines(["Inbox"], ["Inbox", "0.00"]) == (False, 0, 1)


def test_the_ceiling_is_their_cpu_per_screen_over_our_detection_per_screen(bench: Any) -> None:
    assert bench.ceiling(4.2, 0.5) == pytest.approx(8.4)


def test_the_meter_counts_a_real_read_and_puts_the_engine_back(bench: Any) -> None:
    canvas = np.full((400, 900, 3), 255, np.uint8)
    cv2.putText(canvas, "Weekly sync", (40, 120), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (0, 0, 0), 4)
    cv2.putText(canvas, "Inbox 12", (40, 300), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (0, 0, 0), 4)
    ok, png = cv2.imencode(".png", canvas)
    assert ok
    detect = onnx_ocr.OnnxOcr.detect_lines
    costs = bench.Costs()
    with bench.metered(costs):
        lines = make_ocr_engine("rapidocr").recognize(png.tobytes())
    assert onnx_ocr.OnnxOcr.detect_lines is detect
    assert costs.detections == 1 and costs.det_cpu > 0
    assert costs.boxes >= 2 and costs.recognised == costs.boxes and costs.rec_cpu > 0
    assert any("Weekly" in line.text for line in lines)
