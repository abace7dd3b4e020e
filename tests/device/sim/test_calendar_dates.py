"""Calendar with dates: today comes from the task's setup, the month grid picks a day, the form takes a
date, duration, place and repeat and refuses a day that does not exist, the agenda lists events by day
and time, and deleting removes exactly the event shown."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.phone import SimDevice

EVENTS = [
    {"title": "Book club", "date": "2026-04-02", "time": "19:00"},
    {"title": "Lunch with Ava", "date": "2026-03-12", "time": "12:30", "location": "Lisbon",
     "with": "Ava Smith"},
    {"title": "Lunch with Ava", "date": "2026-03-19", "time": "12:30", "location": "Lisbon"},
    {"title": "Gym", "date": "2026-03-12", "time": "07:15"},
    {"title": "Old dinner", "date": "2026-03-01", "time": "20:00"},
]


@pytest.fixture
def cal() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"date": "2026-03-10", "state": {"calendar.events": EVENTS, "calendar.today": []}})
    ui.d.open_app("calendar")
    return ui


def test_setup_date_is_today_for_the_task_and_reset_gives_the_phone_its_date_back(cal: Driver) -> None:
    assert cal.has("Today is Tuesday, March 10, 2026")
    assert cal.d.state()["system"]["date"] == "2026-03-10"
    cal.d.reset()
    assert cal.d.state()["system"]["date"] == "2026-11-22"


@pytest.mark.parametrize("bad", ["2026-02-30", "March 10", "10/03"])
def test_setup_date_that_is_no_day_is_refused_naming_the_form(bad: str) -> None:
    with pytest.raises(DeviceError, match=r"setup.date: .* write it as YYYY-MM-DD"):
        SimDevice().apply_setup({"date": bad})


def test_the_month_grid_picks_a_day_and_lists_its_events_by_time(cal: Driver) -> None:
    cal.tap(desc="Thursday, March 12")
    texts = cal.texts()
    assert "Thursday, March 12, 2026" in texts
    assert texts.index("Gym") < texts.index("Lunch with Ava")  # 07:15 before 12:30
    assert "Book club" not in texts
    cal.tap(desc="Friday, March 13")
    assert cal.has("No events")


def test_month_arrows_step_to_the_first_of_the_next_and_previous_month(cal: Driver) -> None:
    cal.tap("Next month")
    assert cal.has("April 2026") and cal.has("Wednesday, April 1, 2026")
    cal.tap(desc="Thursday, April 2")
    assert cal.has("Book club")
    cal.tap("Previous month")
    cal.tap("Previous month")
    assert cal.has("February 2026")


def test_upcoming_lists_from_today_by_day_then_time_and_leaves_the_past_out(cal: Driver) -> None:
    cal.tap(desc="Upcoming")
    texts = cal.texts()
    order = [t for t in texts if t in ("Gym", "Lunch with Ava", "Book club", "Old dinner")]
    assert order == ["Gym", "Lunch with Ava", "Lunch with Ava", "Book club"]
    assert "Thu, Mar 12 · 07:15" in texts and "Lisbon" in texts


def test_deleting_removes_that_event_only_not_its_namesake_on_another_day(cal: Driver) -> None:
    cal.tap(desc="Upcoming")
    first = next(e for e in cal.elements() if e.text == "Lunch with Ava")  # March 12, listed first
    x1, y1, x2, y2 = first.bounds
    cal.d.tap((x1 + x2) // 2, (y1 + y2) // 2)
    assert cal.has("With Ava Smith") and cal.has("Thursday, March 12, 2026")
    cal.tap("Delete event")
    left = cal.d.state()["calendar"]["events"]
    assert len(left) == 4 and {"title": "Lunch with Ava", "date": "2026-03-19", "time": "12:30",
                               "location": "Lisbon"} in left
    assert not any(e["date"] == "2026-03-12" and e["title"] == "Lunch with Ava" for e in left)


def _new(cal: Driver, **fields: str) -> None:
    cal.tap(desc="Create event")
    for rid, text in fields.items():
        cal.type_into(rid, text)
    cal.d.key("back")  # the keyboard away, so the repeat chips show


def test_the_form_saves_date_time_duration_place_and_repeat(cal: Driver) -> None:
    _new(cal, title="Swim", date="2026-03-24", time="7:30", minutes="45", location="Oslo")
    cal.tap("Weekly")
    cal.tap(desc="Save")
    assert cal.d.state()["calendar"]["events"][-1] == {
        "title": "Swim", "date": "2026-03-24", "time": "07:30", "minutes": "45", "location": "Oslo",
        "notes": "", "repeat": "Weekly"}


def test_the_form_saves_on_the_day_the_grid_shows_when_no_date_is_typed(cal: Driver) -> None:
    cal.tap(desc="Friday, March 13")
    _new(cal, title="Swim")
    assert cal.has("Day: Friday, March 13, 2026")
    cal.tap(desc="Save")
    saved = cal.d.state()["calendar"]["events"][-1]
    assert (saved["date"], saved["time"], saved["repeat"]) == ("2026-03-13", "All day", "Once")


@pytest.mark.parametrize(("field", "bad", "message"), [
    ("date", "2026-02-30", "Not a date: use YYYY-MM-DD, e.g. 2026-12-08"),
    ("date", "next week", "Not a date: use YYYY-MM-DD, e.g. 2026-12-08"),
    ("minutes", "0", "Duration: a whole number of minutes, 1 to 1440"),
    ("minutes", "1h", "Duration: a whole number of minutes, 1 to 1440"),
])
def test_the_form_refuses_what_a_picker_cannot_produce_and_saves_nothing(cal: Driver, field: str, bad: str,
                                                                         message: str) -> None:
    _new(cal, title="Swim", **{field: bad})
    cal.tap(desc="Save")
    assert cal.has(message) and cal.d.state()["calendar"]["events"] == EVENTS


@pytest.mark.parametrize(("repeat", "shown", "not_shown"), [
    ("Weekly", ["Thursday, March 19", "Thursday, April 2"], ["Wednesday, March 18", "Thursday, March 5"]),
    ("Daily", ["Friday, March 13", "Tuesday, March 31"], ["Wednesday, March 11"]),
    ("Monthly", ["Sunday, April 12"], ["Friday, March 13", "Thursday, February 12"]),
    ("Yearly", ["Thursday, March 12"], ["Sunday, April 12"]),
])
def test_a_repeating_event_shows_on_the_days_it_recurs_from_its_first_day_on(repeat: str, shown: list[str],
                                                                            not_shown: list[str]) -> None:
    ui = Driver(SimDevice())
    swim = {"title": "Swim", "date": "2026-03-12", "time": "07:00", "repeat": repeat}
    ui.d.apply_setup({"date": "2026-03-10", "state": {"calendar.events": [swim], "calendar.today": []}})
    ui.d.open_app("calendar")
    for day in [*shown, *not_shown]:
        month = day.split(", ")[1].split()[0]
        while not ui.has(f"{month} 2026"):
            ui.tap("Next month" if month in ("April", "May") else "Previous month")
        ui.tap(desc=day)
        assert ui.has("Swim") is (day in shown), day
