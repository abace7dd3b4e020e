"""The direct onnxruntime backend reads what the rapidocr wrapper reads, with the same boxes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from droidpilot.errors import DroidpilotError
from droidpilot.perception.line_memo import LineMemo
from droidpilot.perception.normalize import match_key
from droidpilot.perception.onnx_ocr import REC_MAX_BATCH, rec_width
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


def test_each_line_gets_a_width_of_its_own_from_a_few_and_no_more_than_a_fifth_of_padding() -> None:
    widths = [rec_width(n, 160) for n in range(1, 2000)]
    assert all(w >= max(160, n) and w % 16 == 0 for n, w in zip(range(1, 2000), widths, strict=True))
    assert all(w <= 1.2 * n + 16 for n, w in zip(range(1, 2000), widths, strict=True) if n > 160)
    assert len(set(widths)) <= 15  # a screen's lines fall into a handful of batches
    assert widths == sorted(widths)


def test_a_plan_batches_lines_of_one_width_and_knows_the_lines_it_has_read_before(
        rapid_engine: RapidOcrEngine) -> None:
    screen = render_list_screen(size=(540, 1170), lang="en", theme="light", seed=11, scale=0.5)
    bgr = np.ascontiguousarray(np.asarray(screen.image)[:, :, ::-1])
    reader = rapid_engine._direct()
    boxes = reader.detect(bgr, 1170, 0.5)
    saved, reader.memo = reader.memo, LineMemo()
    try:
        plan = reader.plan(bgr, boxes, 160)
        batched = [i for b in plan.batches for i in b]
        twins = [j for i in batched for j in plan.twins.get(i, ())]
        assert not plan.known and sorted(batched + twins) == list(range(len(boxes)))
        assert all(len({plan.widths[i] for i in b}) == 1 and len(b) <= REC_MAX_BATCH for b in plan.batches)
        first = reader.recognize(bgr, boxes, 160)
        again = reader.plan(bgr, boxes, 160)
        assert again.batches == [] and len(again.known) == len(boxes)
        assert [again.known[i][0] for i in range(len(boxes))] == [t for t, _ in first]
        shifted = np.ascontiguousarray(np.roll(bgr, 3, axis=1))  # other pixels: read afresh
        assert reader.plan(shifted, boxes, 160).batches
    finally:
        reader.memo = saved


def test_identical_lines_of_one_screen_are_read_once(rapid_engine: RapidOcrEngine) -> None:
    from droidpilot.perception.synth import font

    img = Image.new("RGB", (480, 384), "white")
    draw = ImageDraw.Draw(img)
    for y in (32, 160, 288):  # the same switch label three times, 128 px apart
        draw.text((40, y), "Bluetooth", font=font(30), fill=(30, 30, 30))
    draw.text((260, 160), "Paired", font=font(30), fill=(30, 30, 30))
    bgr = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
    reader = rapid_engine._direct()
    saved, reader.memo = reader.memo, LineMemo()
    try:
        boxes = reader.detect(bgr, 480, 0.5)
        plan = reader.plan(bgr, boxes, 160)
        texts = reader.recognize(bgr, boxes, 160)
    finally:
        reader.memo = saved
    assert sum(len(b) for b in plan.batches) == 2 and sum(map(len, plan.twins.values())) == 2
    assert sorted(t for t, _ in texts) == ["Bluetooth"] * 3 + ["Paired"]


def test_a_line_reads_the_same_alone_or_in_any_batch(rapid_engine: RapidOcrEngine) -> None:
    """What lets a remembered line stand for a new reading: rows of a batch are read independently."""
    screen = render_list_screen(size=(540, 1170), lang="zh", theme="dark", seed=2, scale=0.5)
    bgr = np.ascontiguousarray(np.asarray(screen.image)[:, :, ::-1])
    reader = rapid_engine._direct()
    boxes = reader.detect(bgr, 1170, 0.5)
    saved, reader.memo = reader.memo, LineMemo(max_entries=0)  # remembers nothing
    try:
        together = reader.recognize(bgr, boxes, 160)
        alone = [reader.recognize(bgr, [box], 160)[0] for box in boxes]
    finally:
        reader.memo = saved
    assert [t for t, _ in alone] == [t for t, _ in together]
    assert max(abs(a[1] - b[1]) for a, b in zip(alone, together, strict=True)) < 1e-4


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


def test_jpeg_screenshots_decode_to_the_pixels_pillow_gives(tmp_path: Path) -> None:
    import io

    from droidpilot.errors import InputError
    from droidpilot.perception.ocr import load_image
    from droidpilot.perception.onnx_ocr import decode_bgr

    screen = render_list_screen(size=(540, 1170), lang="zh", theme="light", seed=4, scale=0.5).image
    buf = io.BytesIO()
    screen.save(buf, "JPEG", quality=85)
    data = buf.getvalue()
    (tmp_path / "shot.jpg").write_bytes(data)
    pillow = np.asarray(load_image(data))[:, :, ::-1]
    for given in (data, tmp_path / "shot.jpg", str(tmp_path / "shot.jpg")):
        bgr = decode_bgr(given)
        assert bgr.flags.c_contiguous and np.array_equal(bgr, pillow)
    clear = Image.new("RGBA", (40, 30), (0, 0, 0, 0))  # transparent PNG: composited on white, as before
    buf = io.BytesIO()
    clear.save(buf, "PNG")
    assert (decode_bgr(buf.getvalue()) == 255).all()
    with pytest.raises(InputError, match="not a readable image"):
        decode_bgr(data[:200])  # a cut-off JPEG: the loader's clear error, not OpenCV's None
    with pytest.raises(InputError, match=r"not a readable image|truncated"):
        decode_bgr(data[: len(data) * 2 // 3])  # cut in its pixels: an error, not a grey-filled screen
