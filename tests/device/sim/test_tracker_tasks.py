"""Dated records on SimPhone: Tracker lists activities newest first with their day, distance and time and
opens one on its page; Tasks shows a task's priority at the row's end and on its page, and a done task
keeps its due date in the Completed list (the questions about completed tasks on a day need it)."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice

ACTIVITIES = [
    {"date": "2026-03-02", "kind": "Hiking", "distance": 9100, "minutes": 140},
    {"date": "2026-03-09", "kind": "Running", "distance": 5230, "minutes": 31},
    {"date": "2026-03-05", "kind": "Cycling", "distance": 21400, "minutes": 63},
]
TASKS = [
    {"title": "File taxes", "due": "Mar 12", "priority": "High"},
    {"title": "Call plumber", "due": "Mar 11", "priority": "Low"},
    {"title": "Water plants", "due": "Mar 10"},
]


@pytest.fixture
def tracker() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"date": "2026-03-10", "state": {"tracker.activities": ACTIVITIES}})
    ui.d.open_app("tracker")
    return ui


def test_activities_are_listed_newest_first_with_day_distance_and_time(tracker: Driver) -> None:
    texts = tracker.texts()
    assert "3 activities recorded" in texts
    assert texts.index("Running") < texts.index("Cycling") < texts.index("Hiking")
    assert "Mon, Mar 9 · 5230 m · 31 min" in texts


def test_an_activity_page_repeats_its_day_distance_and_time(tracker: Driver) -> None:
    tracker.tap("Cycling")
    assert tracker.screen() == "view"
    for text in ("Thursday, March 5, 2026", "Distance 21400 m", "Time 63 min"):
        assert tracker.has(text), text


def test_an_empty_tracker_says_so() -> None:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"tracker.activities": []}})
    ui.d.open_app("tracker")
    assert ui.has("No activities yet. Go out and record one.") and ui.has("0 activities recorded")


@pytest.fixture
def tasks() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"tasks.tasks": TASKS, "tasks.done": ["Call plumber"]}})
    ui.d.open_app("tasks")
    return ui


def test_a_priority_shows_at_the_row_end_and_a_task_without_one_shows_none(tasks: Driver) -> None:
    texts = tasks.texts()
    assert texts[texts.index("File taxes") :].index("High") < 4
    assert "Medium" not in texts and "Low" not in texts  # the low-priority task is done: no trailing text
    tasks.tap("File taxes")
    assert tasks.has("High priority")
    tasks.d.key("back")
    tasks.tap("Water plants")
    assert not any(t.endswith("priority") for t in tasks.texts())


def test_a_done_task_keeps_its_due_date_in_the_completed_list(tasks: Driver) -> None:
    texts = tasks.texts()
    assert texts.index("Completed") < texts.index("Call plumber")
    assert "Done · due Mar 11" in texts
