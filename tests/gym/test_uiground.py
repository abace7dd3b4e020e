"""Grounding on SimPhone's own labels: text and apps without OCR, icons on small screens as on large ones."""

from __future__ import annotations

import pytest

from droidpilot.agent.actions import parse_action
from droidpilot.agent.coords import CoordFrame
from droidpilot.device.sim.phone import SimDevice
from droidpilot.gym.uiground import ground

SMALL, LARGE = (540, 1200), (1080, 2400)


def _new_contact(size):
    dev = SimDevice(size=size)
    dev.open_app("contacts")
    dev.tap(*ground(parse_action("click icon (plus, bottom right)"), dev, CoordFrame("device", size)).point)
    dev.type_text("Ann")
    return dev


def test_an_icon_is_found_on_a_half_size_screen_where_the_full_size_finds_it():
    # the save arrow was not found at 540 px wide before the screen was enlarged for the icon search
    small = ground(parse_action("click icon (black arrow, top right)"), _new_contact(SMALL),
                   CoordFrame("device", SMALL))
    large = ground(parse_action("click icon (black arrow, top right)"), _new_contact(LARGE),
                   CoordFrame("device", LARGE))
    assert small.status == large.status == "found"
    assert small.point == pytest.approx((large.point[0] / 2, large.point[1] / 2), abs=3)
    x1, y1, x2, y2 = small.box
    assert x1 <= small.point[0] <= x2 and y1 <= small.point[1] <= y2 and x2 <= SMALL[0]


def test_text_and_apps_are_found_from_the_labels_and_a_near_miss_is_not():
    dev = SimDevice(size=SMALL)
    frame = CoordFrame("device", SMALL)
    app = ground(parse_action("open App (Contacts)"), dev, frame)
    assert app.ok
    dev.tap(*app.point)
    assert dev.current_app() == "com.simphone.contacts"
    missing = ground(parse_action("click text (Contacts and more)"), dev, frame)
    assert not missing.ok and "Contacts and more" in missing.message


def test_taps_read_their_numbers_in_the_frame_given():
    dev = SimDevice(size=SMALL)
    got = ground(parse_action("tap (500, 500)"), dev, CoordFrame("thousand", SMALL))
    assert got.status == "direct" and got.point == (270, 600)


def test_an_app_off_the_first_home_page_is_looked_for_as_the_agent_does():
    # Tracker is not on the launcher's first page: before, open App failed where the agent loop finds it
    dev = SimDevice(size=SMALL)
    assert "Tracker" not in [text for text, _ in dev.labels()]
    got = ground(parse_action("open App (Tracker)"), dev, CoordFrame("device", SMALL))
    assert got.status == "found" and [c.text for c in got.candidates] == ["Tracker"]
    dev.tap(*got.point)
    assert dev.current_app() == "com.simphone.tracker"


def test_an_app_the_phone_does_not_have_ends_in_a_clear_failure_not_a_near_name():
    dev = SimDevice(size=SMALL)
    got = ground(parse_action("open App (Trackers Pro)"), dev, CoordFrame("device", SMALL))
    assert got.status == "not_found" and "Trackers Pro" in got.message
