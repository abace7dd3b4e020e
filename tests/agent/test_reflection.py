"""Reflection: a perceptual diff that ignores the clock, and limits on repeated failures."""

from __future__ import annotations

from PIL import Image, ImageDraw

from droidpilot.agent.reflection import FailureTracker, screen_diff


def _screen(clock: str = "12:00", button: bool = False) -> Image.Image:
    img = Image.new("RGB", (540, 1200), "white")
    draw = ImageDraw.Draw(img)
    draw.text((20, 10), clock, fill="black")  # the status bar
    draw.rectangle((40, 200, 500, 260), fill=(30, 90, 200))
    if button:
        draw.rectangle((200, 600, 340, 660), fill=(200, 40, 40))
    return img


def test_clock_change_is_not_a_change() -> None:
    assert not screen_diff(_screen("12:00"), _screen("12:59")).changed


def test_a_new_widget_is_a_change() -> None:
    diff = screen_diff(_screen(), _screen(button=True))
    assert diff.changed and diff.changed_fraction > 0


def test_size_change_is_a_change() -> None:
    assert screen_diff(_screen(), _screen().resize((600, 1200))).changed


def test_same_failing_action_ends_the_run() -> None:
    tracker = FailureTracker(max_repeated_failures=3, max_consecutive_failures=10)
    for _ in range(2):
        tracker.record("click text (OK)", failed=True)
        assert tracker.verdict() is None
    tracker.record("click text (OK)", failed=True)
    assert tracker.verdict() == "repeated_failing_action"


def test_consecutive_failures_end_the_run_and_a_success_resets() -> None:
    tracker = FailureTracker(max_repeated_failures=5, max_consecutive_failures=3)
    tracker.record("a", failed=True)
    tracker.record("b", failed=True)
    tracker.record("c", failed=False)
    tracker.record("d", failed=True)
    tracker.record("e", failed=True)
    assert tracker.verdict() is None
    tracker.record("f", failed=True)
    assert tracker.verdict() == "too_many_failures"


def test_repeating_a_working_action_too_often_ends_the_run() -> None:
    tracker = FailureTracker(max_repeated_actions=3)
    for _ in range(3):
        tracker.record("page down", failed=False)
    assert tracker.verdict() == "repeated_action"
