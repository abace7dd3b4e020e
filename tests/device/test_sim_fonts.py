"""SimPhone's font lookup on a machine without the distribution's fonts ($DROIDPILOT_FONT_DIRS)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.draw import fonts

WQY = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")


@pytest.fixture
def font_dirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """An empty font directory that replaces the system's for the lookup."""
    folder = tmp_path / "fonts"
    folder.mkdir()
    monkeypatch.setenv(fonts.FONT_DIRS_ENV, str(folder))
    fonts.forget_fonts()
    yield folder
    monkeypatch.delenv(fonts.FONT_DIRS_ENV)
    fonts.forget_fonts()


def test_no_cjk_font_is_a_clear_error_naming_the_package(font_dirs: Path) -> None:
    with pytest.raises(DeviceError, match=r"CJK font.*make system-deps.*apt-get install fonts-wqy-microhei"):
        fonts.font_path("cjk")


def test_no_latin_font_falls_back_to_pillows_own(font_dirs: Path) -> None:
    assert fonts.font_path("latin") is None and fonts.font_path("latin-bold") is None
    assert fonts.text_width("Settings", 40) > 40  # the built-in font draws and measures Latin text


def test_a_similar_font_in_the_directories_is_used(font_dirs: Path) -> None:
    if not WQY.is_file():
        pytest.skip("fonts-wqy-microhei is not installed")
    sub = font_dirs / "truetype" / "other"
    sub.mkdir(parents=True)
    os.symlink(WQY, sub / "wqy-microhei.ttc")
    assert fonts.font_path("cjk") == sub / "wqy-microhei.ttc"
    assert fonts.text_width("微聊", 40) > 40


def test_simphone_without_cjk_font_says_why(font_dirs: Path) -> None:
    from droidpilot.device.sim.phone import SimDevice

    device = SimDevice(seed=0)
    with pytest.raises(DeviceError, match="CJK font"):
        device.screenshot()  # the home screen shows a Chinese app name
