"""Browser's task.html (AndroidWorld's Browser tasks): the Downloads row shows only when a task set a page,
and the multiply page shows its numbers one per click, five at most, and keeps what was submitted."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


def _page(page: str, **state: object) -> tuple[SimDevice, Driver]:
    phone = SimDevice(seed=0)
    phone.apply_setup({"state": {"browser.task_page": page, **{f"browser.{k}": v for k, v in state.items()}}})
    phone.open_app("browser")
    ui = Driver(phone)
    ui.tap("task.html")
    return phone, ui


def test_no_task_page_no_downloads_row() -> None:
    phone = SimDevice(seed=0)
    phone.open_app("browser")
    assert not Driver(phone).has("task.html")


def test_multiply_shows_one_number_per_click_and_stops_after_five() -> None:
    phone, ui = _page("multiply", mul_numbers=[2, 9, 4, 7, 3])
    seen = []
    for n in range(1, 6):
        ui.tap(f"Show number {n}")  # the label says which number comes next
        seen.append(ui.find(rid="mul_number").text)
    assert seen == ["2", "9", "4", "7", "3"]
    ui.tap("No more numbers")  # a sixth click shows nothing new
    assert phone.state()["browser"]["mul_shown"] == [2, 9, 4, 7, 3] and ui.has("Clicks: 5")


def test_multiply_keeps_the_submitted_text_and_the_numbers_seen() -> None:
    phone, ui = _page("multiply", mul_numbers=[2, 9, 4, 7, 3])
    for n in range(1, 5):
        ui.tap(f"Show number {n}")
    ui.tap("Submit")  # empty: refused
    assert phone.state()["browser"]["products"] == []
    ui.type_into("mul_product", "504")
    phone.key("back")
    ui.tap("Submit")
    assert phone.state()["browser"]["products"] == [{"answer": "504", "shown": 4}]
    assert ui.has("Submitted: 504")


def test_the_draw_page_reports_each_asked_colour_used_or_not() -> None:
    phone, ui = _page("draw", draw_colors=["Red", "Green", "Blue"])
    x1, y1, x2, _y2 = ui.find(rid="draw_pad").bounds
    for ink, dy in (("Red", 50), ("Yellow", 150), ("Blue", 250)):
        ui.tap(ink)
        phone.swipe(x1 + 50, y1 + dy, x2 - 50, y1 + dy)
    ui.tap("Submit")
    assert phone.state()["browser"]["drawings"] == [{"colors": ["Red", "Yellow", "Blue"], "strokes": 3}]
    assert ui.has("Red: used") and ui.has("No Green in the drawing") and ui.has("Blue: used")
