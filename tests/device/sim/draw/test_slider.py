"""The slider widget (Settings' brightness): a tap on an end label or the track sets the bound value, a
sideways drag moves the thumb to where it ends, a vertical swipe over it does not."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.appmodel.model import Widget
from droidpilot.device.sim.draw.slider import slider_value
from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def display() -> Driver:
    ui = Driver(SimDevice())
    ui.d.open_app("settings")
    ui.tap("Display")
    return ui


def _track(ui: Driver) -> tuple[int, int, int]:
    """Left end, right end and height of the slider's track (the SeekBar's bounds, less the labels)."""
    x1, y1, x2, y2 = ui.find(rid="brightness").bounds
    return x1, x2, y1 + (y2 - y1) // 2 + 20


def test_the_ends_set_the_brightest_and_the_dimmest(display: Driver) -> None:
    assert display.d.state()["settings"]["brightness"] == 60 and display.has("60%")
    display.tap("Max")
    assert display.d.state()["settings"]["brightness"] == 100 and display.has("100%")
    display.tap("Min")
    assert display.d.state()["settings"]["brightness"] == 0 and display.has("0%")


def test_a_drag_moves_the_thumb_to_where_it_ends_and_past_the_end_stops_there(display: Driver) -> None:
    left, right, y = _track(display)
    display.d.swipe(left + 60, y, left + (right - left) // 2, y)
    assert display.d.state()["settings"]["brightness"] == 50
    display.d.swipe(left + (right - left) // 2, y, right + 400, y)
    assert display.d.state()["settings"]["brightness"] == 100


def test_a_vertical_swipe_over_the_slider_scrolls_instead_of_setting_it(display: Driver) -> None:
    left, _, y = _track(display)
    display.d.swipe(left + 100, y, left + 120, y - 300)
    assert display.d.state()["settings"]["brightness"] == 60


def test_a_sideways_swipe_elsewhere_is_no_slider_drag(display: Driver) -> None:
    x1, y1, x2, _ = display.find("Font size").bounds
    display.d.swipe(x1 + 10, y1, x2 + 300, y1)
    assert display.d.state()["settings"]["brightness"] == 60


@pytest.mark.parametrize(("raw", "value"), [(60, 60), ("70", 70), (140, 100), (-3, 0), ("bright", 0),
                                            (None, 0), (44.6, 45)])
def test_the_bound_value_reads_as_a_percent(raw: object, value: int) -> None:
    assert slider_value(raw) == value


def test_a_slider_without_bind_is_refused_saying_what_it_needs() -> None:
    with pytest.raises(ValueError, match="slider widget needs `bind`"):
        Widget.model_validate({"kind": "slider", "text": "Volume"})
