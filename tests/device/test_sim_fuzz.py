"""Random input never breaks SimPhone: any sequence of taps, long presses, swipes, keys and text leaves
a phone whose dump parses, whose state is JSON, and whose screenshot has the screen's size."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.hypothesis_profiles import examples

from droidpilot.device.sim.phone import KEYS, SimDevice
from droidpilot.verify.frame import parse_ui_xml

APPS = [a.name for a in SimDevice().apps() if a.preinstalled]
W, H = 720, 1600

event = st.one_of(
    st.tuples(st.just("tap"), st.integers(0, W - 1), st.integers(0, H - 1)),
    st.tuples(st.just("hold"), st.integers(0, W - 1), st.integers(0, H - 1)),
    st.tuples(st.just("swipe"), st.integers(0, W - 1), st.integers(0, H - 1), st.integers(0, W - 1),
              st.integers(0, H - 1)),
    st.tuples(st.just("key"), st.sampled_from(KEYS)),
    st.tuples(st.just("text"), st.text(max_size=6)),
    st.tuples(st.just("open"), st.sampled_from(APPS)),
    st.tuples(st.just("wait"), st.floats(0, 5)),
)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 5), events=st.lists(event, min_size=1, max_size=25))
def test_random_input_keeps_the_phone_consistent(seed: int, events: list[tuple]) -> None:
    dev = SimDevice(size=(W, H), seed=seed)
    for ev in events:
        kind, *args = ev
        if kind == "tap":
            dev.tap(*args)
        elif kind == "hold":
            dev.long_press(*args)
        elif kind == "swipe":
            dev.swipe(*args, 200)
        elif kind == "key":
            dev.key(args[0])
        elif kind == "text":
            dev.type_text(args[0])
        elif kind == "open":
            dev.open_app(args[0])
        else:
            dev.wait(args[0])
        parse_ui_xml(dev.ui_xml())
    json.dumps(dev.state())
    assert dev.screenshot().size == (W, H)


def test_control_characters_typed_keep_the_dump_valid() -> None:
    dev = SimDevice()
    dev.open_app("notes")
    x1, y1, x2, y2 = next(e.bounds for e in parse_ui_xml(dev.ui_xml()) if e.content_desc == "New note")
    dev.tap((x1 + x2) // 2, (y1 + y2) // 2)
    dev.type_text("a\x00b\x07c\ud7ff")
    bodies = [e.text for e in parse_ui_xml(dev.ui_xml()) if e.resource_id.endswith("/body")]
    assert bodies == ["abc\ud7ff"]
