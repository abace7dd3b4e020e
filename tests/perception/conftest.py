"""Shared fixtures of the perception tests: one RapidOCR engine per session, screens rendered with Pillow
(English and Chinese, light and dark, lists and launchers) read once, and a private OCR cache directory."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.synth import SynthScreen, font, render_launcher, render_list_screen
from droidpilot.perception.types import OcrLine

# Small screens keep RapidOCR quick on two cores: half a 1080-pixel phone, fonts scaled alike.
SMALL = (540, 1200)
LAUNCHER_APPS = ["Phone", "Messages", "Chrome", "Camera", "Settings", "Gmail", "Maps", "YouTube",
                 "微信", "支付宝", "淘宝", "Play Store"]


@pytest.fixture(scope="session")
def rapid_engine() -> RapidOcrEngine:
    """The real default engine, models loaded once for the whole test session."""
    return RapidOcrEngine()


@pytest.fixture(scope="session")
def list_screen() -> Callable[..., SynthScreen]:
    """Render (and memoise) a settings-like list screen: ``list_screen(lang="en", theme="light")``."""
    memo: dict[tuple, SynthScreen] = {}

    def make(lang: str = "en", theme: str = "light", seed: int = 0, size: tuple[int, int] = SMALL,
             scale: float = 0.5) -> SynthScreen:
        key = (lang, theme, seed, size, scale)
        if key not in memo:
            memo[key] = render_list_screen(size=size, theme=theme, lang=lang, seed=seed, scale=scale)
        return memo[key]

    return make


@pytest.fixture(scope="session")
def launcher_screen() -> Callable[..., SynthScreen]:
    """Render (and memoise) a home screen of app icons with labels; geometry given as keyword arguments."""
    memo: dict[tuple, SynthScreen] = {}

    def make(theme: str = "light", **geometry: int) -> SynthScreen:
        key = (theme, tuple(sorted(geometry.items())))
        if key not in memo:
            base = {"columns": 4, "label_size": 18, "icon_size": 76, "top": 130, "row_gap": 160,
                    "label_gap": 14}
            memo[key] = render_launcher(LAUNCHER_APPS, size=(540, 900), theme=theme, **{**base, **geometry})
        return memo[key]

    return make


@pytest.fixture(scope="session")
def read_lines(rapid_engine: RapidOcrEngine) -> Callable[[Image.Image], list[OcrLine]]:
    """OCR an image with the session engine, once per distinct image."""
    memo: dict[int, list[OcrLine]] = {}

    def read(image: Image.Image) -> list[OcrLine]:
        if id(image) not in memo:
            memo[id(image)] = rapid_engine.recognize(image)
        return memo[id(image)]

    return read


@pytest.fixture
def text_image() -> Callable[..., Image.Image]:
    """A small image with one or more lines of text: ``text_image(["Hello"], size=32, cjk=False)``."""

    def make(lines: list[str], size: int = 32, cjk: bool = False, dark: bool = False,
             width: int = 480) -> Image.Image:
        bg, fg = ((20, 20, 20), (235, 235, 235)) if dark else ((255, 255, 255), (0, 0, 0))
        height = (len(lines) + 1) * size * 2
        img = Image.new("RGB", (width, height), bg)
        draw = ImageDraw.Draw(img)
        for i, line in enumerate(lines):
            draw.text((size, size + i * size * 2), line, font=font(size, cjk), fill=fg)
        return img

    return make


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private, empty OCR cache directory, also set as DROIDPILOT_CACHE_DIR for child processes."""
    path = tmp_path / "cache"
    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(path))
    return path
