"""SimPhone's icon styles (draw/icon_styles.yaml): filled or outlined, thin, regular or bold, chosen per app
from its data or the phone's seed, deterministic per seed, the status bar in the system's own style."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from droidpilot import iconfont
from droidpilot.device.base import DeviceError
from droidpilot.device.sim.draw import icon_styles
from droidpilot.device.sim.draw.glyphs import glyph_mask
from droidpilot.device.sim.phone import SimDevice
from droidpilot.errors import InputError

needs_font = pytest.mark.skipif(not iconfont.available(), reason=f"{iconfont.PACKAGE} not installed")
STATUS_PX = 40  # the status bar's height on a 540-px-wide phone (status_h 80 base units at 0.5)


def _ink(mask: Image.Image) -> int:
    return int(np.asarray(mask, np.uint32).sum() // 255)


def test_the_table_holds_both_fills_and_every_weight() -> None:
    styles = [icon_styles.style(n) for n in icon_styles.style_names()]
    assert icon_styles.style_names()[0] == icon_styles.DEFAULT
    assert {s.fill for s in styles} == set(icon_styles.FILLS)
    assert {s.weight for s in styles} == set(icon_styles.WEIGHTS)


@needs_font
def test_every_outlined_glyph_named_is_in_the_font() -> None:
    table = icon_styles._table()[1]
    missing = sorted(v for v in table.values() if v not in iconfont.glyph_codepoints())
    assert table and not missing, f"icon_styles.yaml names outlined glyphs the font lacks: {missing}"


@pytest.mark.parametrize("name", ["heart", "bell", "envelope", "star", "person", "trash"])
def test_outlined_is_a_ring_of_the_filled_glyph(name: str) -> None:
    filled, outlined = glyph_mask(name, 96), glyph_mask(name, 96, "outlined")
    assert 0.1 * _ink(filled) < _ink(outlined) < 0.85 * _ink(filled)
    on = np.asarray(outlined) >= 128
    assert (np.asarray(filled)[on] >= 64).mean() > 0.8  # the outline lies on the filled glyph


def test_weights_grow_and_thin_strokes_but_leave_small_icons_alone() -> None:
    regular, bold, thin = (glyph_mask("heart", 72, s) for s in ("outlined", "outlined_bold", "outlined_thin"))
    assert _ink(thin) < _ink(regular) < _ink(bold)
    assert _ink(glyph_mask("magnifier", 72, "filled_bold")) > _ink(glyph_mask("magnifier", 72))
    small = icon_styles.MIN_WEIGHTED_PX - 1
    assert glyph_mask("heart", small, "outlined_bold").tobytes() == \
        glyph_mask("heart", small, "outlined").tobytes()


def test_line_glyphs_look_alike_filled_and_outlined() -> None:
    # a plus is two strokes as wide as the outline: Material Outlined draws it the same
    plus, outlined = (np.asarray(glyph_mask("plus", 48, s), int) for s in ("filled", "outlined"))
    assert np.abs(plus - outlined).mean() < 8


def test_choice_is_the_apps_own_else_a_function_of_seed_and_app() -> None:
    assert icon_styles.choose(7, "notes", "outlined_thin") == "outlined_thin"
    assert icon_styles.choose(7, "notes") == icon_styles.choose(7, "notes")
    picked = {icon_styles.choose(seed, app) for seed in range(20) for app in ("notes", "mail", "maps")}
    assert picked == set(icon_styles.style_names())  # every style is in use somewhere


def test_an_unknown_style_names_the_known_ones() -> None:
    with pytest.raises(InputError, match=r"unknown icon style .sketchy.*outlined"):
        icon_styles.choose(0, "notes", "sketchy")


def _notes(seed: int) -> np.ndarray:
    device = SimDevice(size=(540, 1200), seed=seed, icon_styles="seeded")
    device.open_app("notes")
    return np.asarray(Image.open(io.BytesIO(device.screenshot_png())).convert("RGB"), int)


def _seed_with(style_fill: str) -> int:
    return next(s for s in range(200)
                if icon_styles.style(icon_styles.choose(s, "notes")).fill == style_fill
                and icon_styles.choose(s, "notes") in ("filled", "outlined"))


def test_the_same_seed_draws_the_same_screen_and_styles_change_only_the_icons() -> None:
    filled_seed, outlined_seed = _seed_with("filled"), _seed_with("outlined")
    filled, outlined = _notes(filled_seed), _notes(outlined_seed)
    assert np.array_equal(_notes(outlined_seed), outlined)  # deterministic per seed
    differ = np.abs(filled - outlined).sum(axis=2) > 0
    assert differ.any()  # the app's icons are drawn in another style ...
    assert not differ[:STATUS_PX].any()  # ... and the status bar in the system's own


def test_fixed_styles_are_the_default_and_seeded_ones_are_asked_for() -> None:
    # the world suite's reference operations name icons as the default style draws them: varied styles are a
    # phone option (icon_styles="seeded"), never a surprise in a benchmark run
    assert set(SimDevice(size=(540, 1200), seed=5)._world.icon_styles.values()) == {icon_styles.DEFAULT}
    assert len(set(SimDevice(size=(540, 1200), seed=5, icon_styles="seeded")._world.icon_styles.values())) > 1
    assert icon_styles.choose(5, "notes", varied=False) == icon_styles.DEFAULT
    with pytest.raises(DeviceError, match="fixed or seeded"):
        SimDevice(size=(540, 1200), icon_styles="random")


def test_an_apps_own_style_is_used_and_an_unknown_one_is_refused_naming_the_app() -> None:
    from droidpilot.device.sim.world import World

    catalog = dict(SimDevice(size=(540, 1200))._world.catalog)
    catalog["notes"] = catalog["notes"].model_copy(update={"icon_style": "outlined_thin"})
    world = World(catalog)
    world.reset(3, dark=False)
    assert world.icon_styles["notes"] == "outlined_thin"
    catalog["notes"] = catalog["notes"].model_copy(update={"icon_style": "sketchy"})
    with pytest.raises(InputError, match=r"app 'notes': icon_style: unknown icon style 'sketchy'"):
        World(catalog).reset(3, dark=False)
