"""Two-scale detection: the screen at a short side of 540, its status bar strip again at 736."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from droidpilot.perception.det_refine import fine_strip
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.rapid_config import RapidSettings
from droidpilot.perception.synth import draw_label, font

REAL = Path(__file__).parents[2].parent / "shared" / "reference" / "mobile-eval-real"
STATUS_BAR_SCREEN = REAL / "Settings" / "3" / "6.jpg"


def test_the_strip_is_the_top_of_a_portrait_screen_in_proportion_to_its_width() -> None:
    assert fine_strip(540, 1170, 0.09) == 49
    assert fine_strip(1080, 2400, 0.09) == 98  # twice the pixels, the same status bar in dp
    assert fine_strip(2400, 1080, 0.09) == 0  # landscape: no strip
    assert fine_strip(540, 1170, 0.0) == 0  # switched off


def test_settings_that_refine_differently_key_the_cache_differently() -> None:
    keys = {RapidOcrEngine(s).settings_key() for s in (RapidSettings(), RapidSettings(det_fine_short=540),
                                                       RapidSettings(status_strip=0.2))}
    assert len(keys) == 3


@pytest.mark.skipif(not STATUS_BAR_SCREEN.is_file(), reason=f"Mobile-Eval runs not at {REAL}")
def test_stacked_status_bar_lines_come_apart_only_at_the_fine_scale(rapid_engine: RapidOcrEngine) -> None:
    # A real 540x1170 status bar (Mobile-Agent's Mobile-Eval runs, MIT, see ../shared): "0.00" over "KB/S"
    # 2 px apart. Detected at 540 alone they are one box read "000"; the strip's fine pass splits them,
    # and the clock beside them, one line as tall as the two, stays one line.
    screen = Image.open(STATUS_BAR_SCREEN).convert("RGB")
    coarse_only = RapidOcrEngine(RapidSettings(det_fine_short=540))
    merged = [ln.text for ln in coarse_only.recognize(screen) if ln.box[3] <= 50]
    assert "000" in merged and "KB/S" not in merged  # the failure the fine pass exists for
    top = [ln for ln in rapid_engine.recognize(screen) if ln.box[3] <= 50]
    texts = [ln.text for ln in top]
    assert sorted(texts) == ["0.00", "13:41", "KB/S"], texts
    clock = next(ln.box for ln in top if ln.text == "13:41")
    assert clock[3] - clock[1] >= 18  # the whole clock, not a split half of it


def test_a_line_reaching_below_the_strip_is_read_once_and_whole(rapid_engine: RapidOcrEngine) -> None:
    img = Image.new("RGB", (540, 1170), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    small = draw_label(draw, (400, 12), "5G 87%", font(14), (0, 0, 0))  # inside the 49-px strip
    big = draw_label(draw, (30, 30), "Wireless", font(36), (0, 0, 0))  # from inside the strip to below it
    assert small.box[3] < 49 < big.box[3] and big.box[1] < 49
    lines = rapid_engine.recognize(img)
    assert [ln.text for ln in lines].count("Wireless") == 1, lines
    assert any(ln.text.replace(" ", "") == "5G87%" for ln in lines), lines
    whole = next(ln.box for ln in lines if ln.text == "Wireless")
    assert whole[1] <= big.box[1] and whole[3] >= big.box[3]
