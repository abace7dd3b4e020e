"""SimPhone's renderer: frames drawn straight into a pixel array are the pixels of the Pillow image path."""

from __future__ import annotations

import numpy as np
import pytest

from droidpilot.device.sim.draw import render
from droidpilot.device.sim.draw.render import draw_ops, draw_pixels
from droidpilot.device.sim.phone import SimDevice

SIZE = (540, 1200)


def _screens(theme: str) -> list[list[tuple]]:
    """The draw ops of every app's first screen, the launcher, recents, the shade and a keyboard."""
    dev = SimDevice(size=SIZE, theme=theme)
    dev.apply_setup({"notifications": [{"at": 1, "title": "Dinner", "text": "At 8?", "app": "messages"}]})
    screens = [dev.view().ops]
    for app in dev.apps():
        if app.name not in dev.state()["system"]["installed_apps"]:
            continue
        dev.open_app(app.name)
        screens.append(dev.view().ops)
        dev.key("home")
    dev.key("app_switch")
    screens.append(dev.view().ops)
    dev.key("back")
    dev.swipe(270, 10, 270, 900)
    screens.append(dev.view().ops)
    dev.key("back")
    dev.tap(270, 300)  # the launcher's search field: the keyboard comes up
    screens.append(dev.view().ops)
    return screens


@pytest.fixture(scope="module")
def screens() -> list[list[tuple]]:
    return _screens("light") + _screens("dark")


def test_every_kind_of_op_is_drawn(screens):
    kinds = {op[0] for ops in screens for op in ops}
    assert kinds >= {"rect", "ellipse", "text", "glyph", "avatar", "wallpaper"}
    translucent = [op for ops in screens for op in ops if op[0] == "rect" and op[2] and len(op[2]) == 9]
    assert translucent  # alpha-blended fills (scrims, ripples) are among them


def test_pixels_drawn_in_place_are_the_image_path_pixels(screens):
    for ops in screens:
        pixels = draw_pixels(ops, SIZE)
        assert pixels.shape == (SIZE[1], SIZE[0], 3) and pixels.dtype == np.uint8
        assert pixels.flags.c_contiguous
        assert np.array_equal(pixels, np.asarray(draw_ops(ops, SIZE)))


def test_without_in_place_drawing_the_image_path_is_used(screens, monkeypatch):
    monkeypatch.setattr(render, "_draws_in_place", lambda: False)
    ops = screens[1]
    assert np.array_equal(draw_pixels(ops, SIZE), np.asarray(draw_ops(ops, SIZE)))


def test_this_pillow_draws_in_place():
    assert render._draws_in_place()  # else every frame takes the slow path: worth knowing
