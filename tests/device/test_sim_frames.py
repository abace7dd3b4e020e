"""SimPhone's step path: the kept view and the cached pixel array give exactly what recomposing gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.hypothesis_profiles import examples

from droidpilot.device.sim.phone import KEYS, SimDevice

W, H = 540, 1200
SETUP = {"notifications": [{"at": 3, "title": "Dinner", "text": "At 8?", "app": "messages"},
                           {"at": 7, "title": "Parcel", "text": "Delivered"}]}


class RecomposingDevice(SimDevice):
    """SimPhone as it was: every input event drops the composed view, before and after it acts, whatever
    time or the input changed."""

    def _event(self) -> None:
        self._world.advance(1.0)
        self._view = None

    def _touch(self, x: int, y: int, long: bool) -> None:
        super()._touch(x, y, long)
        self._view = None


event = st.one_of(
    st.tuples(st.just("tap"), st.integers(0, W - 1), st.integers(0, H - 1)),
    st.tuples(st.just("hold"), st.integers(0, W - 1), st.integers(0, H - 1)),
    st.tuples(st.just("swipe"), st.integers(0, W - 1), st.integers(0, 80), st.integers(0, W - 1),
              st.integers(0, H - 1)),
    st.tuples(st.just("key"), st.sampled_from(KEYS)),
    st.tuples(st.just("open"), st.sampled_from(["messages", "contacts", "settings", "notes"])),
    st.tuples(st.just("install"), st.sampled_from(["clips", "mail", "recipes"])),
    st.tuples(st.just("wait"), st.sampled_from([0.5, 1.0, 4.0])),
)


def _do(dev: SimDevice, ev: tuple) -> None:
    kind, *args = ev
    if kind == "tap":
        dev.tap(*args)
    elif kind == "hold":
        dev.long_press(*args)
    elif kind == "swipe":
        dev.swipe(*args, 200)
    elif kind == "key":
        dev.key(args[0])
    elif kind == "open":
        dev.open_app(args[0])
    elif kind == "install":
        dev.start_install(args[0])
    else:
        dev.wait(args[0])


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), events=st.lists(event, min_size=1, max_size=20))
def test_keeping_the_view_across_time_changes_nothing_seen(seed: int, events: list[tuple]) -> None:
    fast, slow = SimDevice(size=(W, H), seed=seed), RecomposingDevice(size=(W, H), seed=seed)
    for dev in (fast, slow):
        dev.apply_setup(SETUP)
    for ev in events:
        for dev in (fast, slow):
            try:
                _do(dev, ev)
            except Exception as exc:  # a refused input must be refused alike
                dev.last_error = type(exc).__name__  # type: ignore[attr-defined]
        assert getattr(fast, "last_error", None) == getattr(slow, "last_error", None)
        assert fast.ui_xml() == slow.ui_xml()
        assert np.array_equal(fast.screenshot_array(), slow.screenshot_array())
    assert fast.state() == slow.state()


def test_a_tap_in_the_second_a_banner_arrives_lands_on_the_banner():
    """The tap's second passes before it lands (as always): it must hit the banner, not the date below."""
    arriving = {"notifications": [{"at": 1, "title": "Dinner", "text": "At 8?", "app": "messages"}]}
    outcomes = []
    for cls, setup in ((SimDevice, arriving), (RecomposingDevice, arriving), (SimDevice, {})):
        dev = cls(size=(W, H))
        dev.apply_setup(setup)
        dev.ui_xml()  # the agent looks at the screen, then taps
        dev.tap(150, 100)  # where the banner shows, over the launcher's date
        outcomes.append((dev.current_app(), dev.state()["foreground"]["screen"]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0] != outcomes[2]  # without the banner the same tap does something else


def test_a_touch_on_nothing_keeps_the_composed_view():
    dev = SimDevice(size=(W, H))
    dev.open_app("settings")
    view = dev.view()
    dev.tap(W // 2, 10)  # the status bar: no widget there
    assert dev.view() is view
    dev.tap(*_centre(dev, "Display"))
    assert dev.view() is not view


def _centre(dev: SimDevice, label: str) -> tuple[int, int]:
    x1, y1, x2, y2 = next(box for text, box in dev.labels() if text == label)
    return (x1 + x2) // 2, (y1 + y2) // 2


def test_the_pixel_array_is_the_screenshot_read_only_and_cached_per_frame():
    dev = SimDevice(size=(W, H))
    pixels = dev.screenshot_array()
    assert pixels.shape == (H, W, 3) and pixels.dtype == np.uint8
    assert np.array_equal(pixels, np.asarray(dev.screenshot()))
    with pytest.raises(ValueError, match="read-only"):
        pixels[0, 0, 0] = 1
    assert dev.screenshot_array() is pixels
    dev.open_app("settings")
    assert not np.array_equal(dev.screenshot_array(), pixels)
    dev.key("home")
    assert dev.screenshot_array() is pixels  # back to the home screen: the cached frame again
