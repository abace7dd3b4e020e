"""Maps' saved places, markers and tracks, driven through the UI dump like an agent: a place's page saves
it or marks it (each button shows when done and undoes it), and the track editor keeps waypoints in the
order they were added until Save track."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def ui() -> Driver:
    d = SimDevice()
    d.open_app("maps")
    return Driver(d)


def _open_place(ui: Driver, query: str, name: str) -> None:
    ui.type_into("search_box", query, submit=True)
    ui.tap(name)
    assert ui.screen() == "place"


def test_save_and_marker_are_separate_lists(ui: Driver) -> None:
    _open_place(ui, "coffee", "Lakeside Coffee")
    ui.tap("Save")
    assert ui.has("Saved")
    maps = ui.d.state()["maps"]
    assert maps["favorites"] == ["Lakeside Coffee"] and maps["markers"] == []
    ui.tap("Marker")
    assert ui.d.state()["maps"]["markers"] == ["Lakeside Coffee"]
    ui.tap("Saved")  # a second tap undoes the favourite, not the marker
    maps = ui.d.state()["maps"]
    assert maps["favorites"] == [] and maps["markers"] == ["Lakeside Coffee"]


def test_saved_screen_lists_favourites_and_markers(ui: Driver) -> None:
    _open_place(ui, "gas station", "Shell Gas Station")
    ui.tap("Save")
    ui.d.key("back")
    ui.tap("Sinopec Gas Station")
    ui.tap("Marker")
    ui.d.key("back")
    ui.d.key("back")
    ui.tap("Your places")
    texts = ui.texts()
    assert "Favorites · 1" in texts and "Markers · 1" in texts
    assert texts.index("Shell Gas Station") < texts.index("Markers · 1") < texts.index("Sinopec Gas Station")


def _add_waypoint(ui: Driver, query: str, name: str) -> None:
    ui.type_into("waypoint_search", query)
    ui.tap(name)  # the last match: the result row, below the search field that echoes the query


def test_track_keeps_waypoints_in_the_order_added(ui: Driver) -> None:
    ui.tap("Tracks")
    assert ui.has("No tracks yet")
    ui.tap(desc="New track")
    _add_waypoint(ui, "Seoul", "Seoul Garden")
    _add_waypoint(ui, "Bibim", "Bibim Bowl")
    assert ui.has("Waypoints · 2")
    assert ui.d.state()["maps"]["tracks"] == []  # nothing saved until Save track
    ui.tap("Save track")
    assert ui.d.state()["maps"]["tracks"] == [{"waypoints": ["Seoul Garden", "Bibim Bowl"]}]
    assert ui.has("Seoul Garden to Bibim Bowl") and ui.has("2 waypoints")


def test_empty_track_is_not_saved(ui: Driver) -> None:
    ui.tap("Tracks")
    ui.tap(desc="New track")
    ui.tap("Save track")
    assert ui.d.state()["maps"]["tracks"] == []
    assert ui.screen() == "track_edit"
