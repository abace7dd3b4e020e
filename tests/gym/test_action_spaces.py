"""Reading structured and touch actions: right ones in several spellings, near misses refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from droidpilot.gym.action_spaces import (
    LIFT,
    REPEAT,
    STRUCTURED_TYPES,
    TOUCH,
    ActionError,
    TouchGestures,
    action_space,
    from_structured,
    from_text,
)


def _structured(name, coords=(0.25, 0.5, 0.75, 0.1), text=""):
    return {"action_type": STRUCTURED_TYPES.index(name), "coords": np.array(coords, dtype=np.float32),
            "text": text}


def test_structured_actions_become_the_agents_actions():
    tap = from_structured(_structured("tap"))
    assert tap.action.name == "tap" and tap.action.coords == (0.25, 0.5) and tap.space == "normalized"
    assert from_structured(_structured("swipe")).action.coords == pytest.approx((0.25, 0.5, 0.75, 0.1))
    assert from_structured(_structured("click_text", text="Save")).action.format() == "click text (Save)"
    assert from_structured(_structured("type", text="  two spaces")).action.text == "  two spaces"
    assert from_structured(_structured("back")).action.format() == "back"
    # an int-like numpy scalar and a list of coordinates are read as well
    alt = from_structured({"action_type": np.int64(0), "coords": [0.25, 0.5, 0, 0], "text": ""})
    assert alt.action == tap.action


def test_every_sampled_structured_action_is_readable_or_refused_by_name():
    space = action_space("structured", 50)
    space.seed(3)
    for _ in range(200):
        sample = space.sample()
        name = STRUCTURED_TYPES[int(sample["action_type"])]
        if name in ("type", "click_text", "open_app", "answer") and not sample["text"].strip():
            with pytest.raises(ActionError, match=f"\\({name}\\) needs a non-empty text"):
                from_structured(sample)
        else:
            assert from_structured(sample).action.name in (name, "wait")


@pytest.mark.parametrize(("value", "message"), [
    ({"action_type": len(STRUCTURED_TYPES)}, "out of range 0..13"),
    ({"action_type": -1}, "out of range"),
    ({"action_type": "tap"}, "must be an int"),
    ({"coords": [0.5, 0.5]}, "dict with action_type"),
    ("tap (1, 2)", "dict with action_type"),
    ({"action_type": 0, "coords": [0.5, 0.5]}, "coords must be 4 finite numbers"),
    ({"action_type": 0, "coords": [0.5, float("nan"), 0, 0]}, "coords must be 4 finite numbers"),
    ({"action_type": STRUCTURED_TYPES.index("click_text"), "text": "   "}, "needs a non-empty text"),
])
def test_structured_near_misses_are_refused_with_the_field(value, message):
    with pytest.raises(ActionError, match=message):
        from_structured(value)


def test_out_of_range_coordinates_are_clamped_onto_the_screen():
    assert from_structured(_structured("tap", coords=(1.5, -0.2, 0, 0))).action.coords == (1.0, 0.0)


@pytest.mark.parametrize("reply", [
    "Action: click text (Save)",
    "Thought: save it\nAction: `click text (Save)`",
    '{"action": "click_text", "text": "Save"}',
    "click text (Save)",
])
def test_text_replies_in_different_styles_read_the_same_action(reply):
    assert from_text(reply, "image").action.format() == "click text (Save)"


def test_text_replies_naming_two_actions_or_none_are_refused():
    with pytest.raises(ActionError, match="two different actions"):
        from_text("Action: back\nAction: home", "image")
    with pytest.raises(ActionError, match="a text action is a str"):
        from_text(b"Action: back", "image")


def _touch(kind, x=0.5, y=0.5):
    return {"action_type": kind, "touch_position": np.array([x, y], dtype=np.float32)}


def test_touch_then_lift_in_place_is_a_tap_and_held_is_a_long_press():
    g = TouchGestures(long_steps=4)
    assert g.feed(_touch(TOUCH, 0.2, 0.3)) is None
    tap = g.feed(_touch(LIFT))
    assert tap.name == "tap" and tap.coords == pytest.approx((0.2, 0.3))
    for _ in range(4):
        assert g.feed(_touch(TOUCH, 0.2, 0.31)) is None
    assert g.feed(_touch(LIFT)).name == "long_press"


def test_a_moving_touch_is_a_swipe_and_repeat_repeats_the_last_event():
    g = TouchGestures()
    g.feed(_touch(TOUCH, 0.5, 0.8))
    g.feed(_touch(REPEAT))
    g.feed(_touch(TOUCH, 0.5, 0.2))
    swipe = g.feed(_touch(LIFT))
    assert swipe.name == "swipe" and swipe.coords == pytest.approx((0.5, 0.8, 0.5, 0.2))
    assert g.feed(_touch(REPEAT)) is None  # repeating a lift with the finger up does nothing


def test_a_lift_with_no_touch_does_nothing_and_bad_touches_are_named():
    g = TouchGestures()
    assert g.feed(_touch(LIFT)) is None
    with pytest.raises(ActionError, match="0 \\(touch\\), 1 \\(lift\\) or 2 \\(repeat\\)"):
        g.feed(_touch(3))
    with pytest.raises(ActionError, match="touch_position must be 2 finite numbers"):
        g.feed({"action_type": TOUCH, "touch_position": [0.5]})


def test_an_unknown_mode_is_refused():
    with pytest.raises(ActionError, match="one of: text, structured, touch"):
        action_space("joystick", 10)
