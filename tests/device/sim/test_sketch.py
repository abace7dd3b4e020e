"""SimPhone's drawing canvas: a drag on the pad leaves a stroke (stored relative to the pad), a tap or a
drag that barely moves leaves none, a drag off the pad is not a stroke, Clear empties it, and Save keeps
the drawing with its strokes, flagged blank when it has none."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.draw.sketch import INK, ink_of, strokes_of
from droidpilot.device.sim.phone import SimDevice


def _pad() -> tuple[SimDevice, Driver, tuple[int, int, int, int]]:
    phone = SimDevice(seed=0)
    phone.open_app("sketch")
    ui = Driver(phone)
    ui.tap(desc="New drawing")
    return phone, ui, ui.find(rid="sketch_pad").bounds


def test_a_drag_leaves_a_stroke_relative_to_the_pad() -> None:
    phone, ui, (x1, y1, x2, y2) = _pad()
    phone.swipe(x1, y1, (x1 + x2) // 2, y2)
    assert phone.state()["sketch"]["strokes"] == [[[0, 0], [500, 1000]]]
    assert ui.has("1 strokes")


def test_a_tap_a_tiny_drag_and_a_drag_from_outside_leave_nothing() -> None:
    phone, _ui, (x1, y1, x2, y2) = _pad()
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    phone.tap(cx, cy)
    phone.swipe(cx, cy, cx + 5, cy + 5)
    phone.swipe(cx, y1 - 60, cx, y2)  # starts above the pad: a scroll, not a line
    assert phone.state()["sketch"]["strokes"] == []


def test_save_keeps_the_strokes_and_flags_a_blank_drawing() -> None:
    phone, ui, (x1, y1, x2, y2) = _pad()
    ui.type_into("drawing_title", "Cat")
    phone.key("back")
    ui.tap("Save")
    ui.tap(desc="New drawing")
    phone.swipe(x1 + 50, y1 + 50, x2 - 50, y2 - 50)
    ui.tap("Clear")
    phone.swipe(x1 + 50, y2 - 50, x2 - 50, y1 + 50)
    ui.tap("Save")
    blank, drawn = phone.state()["sketch"]["drawings"]
    assert blank == {"title": "Cat", "strokes": [], "blank": True}
    assert drawn["title"] == "Untitled" and drawn["blank"] is False and len(drawn["strokes"]) == 1


def test_malformed_strokes_in_state_are_skipped_not_drawn() -> None:
    good = [[1, 2], [3, 4]]
    assert strokes_of([good, "x", [[1, 2]], [[1, "a"], [3, 4]]]) == [good]
    assert strokes_of(None) == []


def test_a_pad_with_a_pen_colour_keeps_each_strokes_ink_and_runs_its_stroke_actions() -> None:
    phone = SimDevice(seed=0)
    phone.apply_setup({"state": {"browser.task_page": "draw",
                                 "browser.draw_colors": ["Red", "Pink", "Blue"]}})
    phone.open_app("browser")
    ui = Driver(phone)
    ui.tap("task.html")
    x1, y1, x2, _y2 = ui.find(rid="draw_pad").bounds
    ui.tap("Pink")
    phone.swipe(x1 + 50, y1 + 50, x2 - 50, y1 + 50)
    phone.swipe(x1 + 50, y1 + 150, x2 - 50, y1 + 150)
    ui.tap("Blue")
    phone.swipe(x1 + 50, y1 + 250, x2 - 50, y1 + 250)
    browser = phone.state()["browser"]
    assert [s[2] for s in browser["draw_strokes"]] == ["Pink", "Pink", "Blue"]
    assert browser["draw_used"] == ["Pink", "Blue"]  # each ink noted once, in the order first used
    assert ui.has("Pen: Blue · 3 strokes")


def test_inks_are_named_colours_or_hex_and_an_unknown_name_draws_in_the_default_ink() -> None:
    assert ink_of("Red") == ink_of("red") != INK
    assert ink_of("#123456") == "#123456"
    assert ink_of("Chartreuse") == INK
    assert strokes_of([[[1, 2], [3, 4], "Red"], [[1, 2], [3, 4], 5]]) == [[[1, 2], [3, 4], "Red"]]
