"""SimPhone's icons from the Material icon font (material_glyphs.yaml), and its drawn fallback without it."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import numpy as np
import pytest
from PIL import Image

from droidpilot import iconfont
from droidpilot.device.sim.draw import glyphs_font
from droidpilot.device.sim.draw.glyphs import GLYPHS, drawn_mask, glyph_mask
from droidpilot.device.sim.phone import SimDevice

needs_font = pytest.mark.skipif(not iconfont.available(), reason=f"{iconfont.PACKAGE} not installed")


def _ink_box(mask: Image.Image) -> tuple[int, int, int, int]:
    ink = np.nonzero(np.asarray(mask) >= 128)
    return int(ink[1].min()), int(ink[0].min()), int(ink[1].max()) + 1, int(ink[0].max()) + 1


def test_every_mapping_names_a_simphone_glyph() -> None:
    unknown = sorted(set(glyphs_font.material_names()) - set(GLYPHS))
    assert not unknown, f"material_glyphs.yaml maps names no app data can use: {unknown}"


@needs_font
def test_every_mapped_material_name_is_in_the_font() -> None:
    codes = iconfont.glyph_codepoints()
    missing = sorted(v for v in glyphs_font.material_names().values() if v not in codes)
    assert not missing, f"material_glyphs.yaml names glyphs {iconfont.font_path()} lacks: {missing}"


@needs_font
def test_mapped_glyphs_come_from_the_font_in_its_em_box() -> None:
    size = 72
    plus = glyph_mask("plus", size)
    assert plus.size == (size, size)
    # Material's "add" fills the 24-unit grid's 14x14 centre (5 units of padding each side)
    assert _ink_box(plus) == pytest.approx((15, 15, 57, 57), abs=1)
    assert np.abs(np.asarray(plus, int) - np.asarray(drawn_mask("plus", size), int)).mean() > 5
    filled, outline = (np.asarray(glyph_mask(n, size)) >= 128 for n in ("heart", "heart_outline"))
    assert outline.sum() < 0.6 * filled.sum()  # favorite_border is the ring of favorite


def test_unmapped_glyphs_stay_drawn() -> None:
    for name in ("back", "home", "recents", "cat", "shift"):
        assert name not in glyphs_font.material_names()
        assert glyph_mask(name, 64).tobytes() == drawn_mask(name, 64).tobytes()


@pytest.fixture
def no_icon_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The icon font package missing: its path points nowhere; glyph caches are emptied around the test."""
    monkeypatch.setenv(iconfont.FONT_ENV, "/nonexistent/MaterialIcons-Regular.ttf")
    glyph_mask.cache_clear()
    glyphs_font._warn_missing.cache_clear()
    yield
    monkeypatch.delenv(iconfont.FONT_ENV)
    glyph_mask.cache_clear()
    glyphs_font._warn_missing.cache_clear()


def test_without_the_font_simphone_draws_its_own_glyphs_and_warns_once(
        no_icon_font: None, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=glyphs_font.__name__):
        assert glyph_mask("plus", 64).tobytes() == drawn_mask("plus", 64).tobytes()
        assert glyph_mask("heart", 48).tobytes() == drawn_mask("heart", 48).tobytes()
        device = SimDevice(size=(540, 1200))
        device.open_app("notes")
        shot = Image.open(io.BytesIO(device.screenshot_png()))
    assert shot.size == (540, 1200)
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1
    assert "icon font is missing" in warnings[0] and iconfont.PACKAGE in warnings[0]
    assert "\n" not in warnings[0]
