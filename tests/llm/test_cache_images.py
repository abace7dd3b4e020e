"""The answer cache on disk and the image preparation for models."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image

from droidpilot.errors import InputError
from droidpilot.llm.cache import AnswerCache, answer_key, default_cache_dir
from droidpilot.llm.images import downscale, encode, fitted_size, image_data_url, load_image


def test_cache_round_trip_and_corrupt_entries(tmp_path: Path) -> None:
    key = answer_key("m", "prompt", ["h1", "h2"])
    assert key != answer_key("m", "prompt", ["h2", "h1"]) != answer_key("m2", "prompt", ["h1", "h2"])
    cache = AnswerCache(tmp_path)
    assert cache.get(key) is None
    cache.put(key, {"answer": True, "reason": "上一步已加入购物车"})
    assert AnswerCache(tmp_path).get(key) == {"answer": True, "reason": "上一步已加入购物车"}
    cache.path_for(key).write_text("{truncated", encoding="utf-8")
    assert AnswerCache(tmp_path).get(key) is None


def test_unwritable_cache_degrades_to_memory(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    cache = AnswerCache(blocker)
    cache.put("ab" * 32, {"answer": False})
    cache.put("cd" * 32, {"answer": True})
    assert cache.get("ab" * 32) == {"answer": False} and len(cache) == 2
    assert caplog.text.count("not writable") == 1


def test_default_cache_dir_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(tmp_path))
    assert default_cache_dir() == tmp_path
    monkeypatch.delenv("DROIDPILOT_CACHE_DIR")
    assert "droidpilot" in str(default_cache_dir())


def test_downscale_keeps_aspect_and_never_upscales() -> None:
    tall = Image.new("RGB", (1080, 2400))
    small, scale = downscale(tall, 1000)
    assert small.size == (450, 1000) and scale == pytest.approx(1000 / 2400)
    same, scale = downscale(Image.new("RGB", (300, 200)), 1000)
    assert same.size == (300, 200) and scale == 1.0
    assert downscale(tall, None)[0].size == (1080, 2400)
    for size in ((1080, 2400), (1440, 3200), (2400, 1080), (333, 1001)):
        assert downscale(Image.new("L", size), 1000)[0].size == fitted_size(size, 1000)[0]


def test_jpeg_flattens_alpha_and_data_urls_decode() -> None:
    rgba = Image.new("RGBA", (40, 20), (255, 0, 0, 0))
    flat = Image.open(io.BytesIO(encode(rgba, "jpeg")))
    assert flat.mode == "RGB" and flat.getpixel((5, 5))[1] > 240  # transparent -> white
    url = image_data_url(rgba, max_side=10, fmt="png")
    decoded = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert url.startswith("data:image/png;base64,") and decoded.size == (10, 5)


def test_load_image_errors_name_the_source(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="screen 3"):
        load_image(b"garbage", what="screen 3")
    with pytest.raises(InputError, match="not supported"):
        encode(Image.new("RGB", (2, 2)), "gif")  # type: ignore[arg-type]
    path = tmp_path / "s.png"
    Image.new("RGB", (8, 4)).save(path)
    assert load_image(path).size == (8, 4)
