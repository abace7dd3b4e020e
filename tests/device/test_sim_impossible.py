"""What the world suite's infeasible tasks ask for is impossible in SimPhone's apps: a time that is not a time
of day is refused with a message on the screen and nothing saved; the missing features have no control."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from tests.device.sim_driver import Driver

from droidpilot.device.sim import apps
from droidpilot.device.sim.appmodel.expr import time_of_day
from droidpilot.device.sim.phone import SimDevice

REFUSED = "Not a time of day: use HH:MM, 00:00 to 23:59"


@pytest.fixture
def ui() -> Driver:
    return Driver(SimDevice())


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("23:59", "23:59"),
        ("00:00", "00:00"),
        ("7:05", "07:05"),
        (" 07:30 ", "07:30"),
        ("24:00", ""),
        ("39:00", ""),
        ("7:60", ""),
        ("12:5", ""),
        ("abc", ""),
        ("7", ""),
        ("-1:00", ""),
        ("123:00", ""),
        ("", ""),
    ],
)
def test_time_of_day_reads_only_what_a_time_picker_gives(text: str, read: str) -> None:
    assert time_of_day(text) == read


def _new_alarm(ui: Driver, time: str) -> None:
    ui.d.open_app("clock")
    ui.tap(desc="Add alarm")
    ui.type_into("time", time)
    ui.type_into("label", "Gym")
    ui.tap(desc="Save")


@pytest.mark.parametrize("time", ["39:00", "24:00", "7:60", "abc", "25:30"])
def test_clock_refuses_a_time_that_is_not_a_time_of_day(ui: Driver, time: str) -> None:
    before = ui.d.state()["clock"]["alarms"]
    _new_alarm(ui, time)
    assert ui.has(REFUSED)  # shown on the screen, the form still open
    assert ui.screen() == "new"
    assert ui.d.state()["clock"]["alarms"] == before


@pytest.mark.parametrize(("time", "saved"), [("23:59", "23:59"), ("7:05", "07:05"), ("00:00", "00:00")])
def test_clock_saves_a_time_of_day_as_hh_mm(ui: Driver, time: str, saved: str) -> None:
    _new_alarm(ui, time)
    assert not ui.has(REFUSED)
    assert ui.d.state()["clock"]["alarms"][-1] == {"time": saved, "label": "Gym"}
    assert ui.has("Alarm saved")


def _new_event(ui: Driver, title: str, time: str) -> None:
    ui.d.open_app("calendar")
    ui.tap(desc="Create event")
    ui.type_into("title", title)
    if time:
        ui.type_into("time", time)
    ui.tap(desc="Save")


def test_calendar_refuses_an_impossible_time_but_keeps_all_day_events(ui: Driver) -> None:
    before = list(ui.d.state()["calendar"]["events"])
    _new_event(ui, "Yoga", "24:00")
    assert ui.has(REFUSED) and ui.d.state()["calendar"]["events"] == before
    for time, saved in (("9:15", "09:15"), ("", "All day")):
        fresh = Driver(SimDevice())
        _new_event(fresh, "Yoga", time)
        assert fresh.d.state()["calendar"]["events"][-1]["time"] == saved


# The features the infeasible templates ask for: no screen of the app offers a control named for them.
MISSING = {
    "settings": ("5G", "NFC", "Always-on display", "One-handed mode", "Blue light filter", "Call recording"),
    "calendar": ("Guests", "Invite", "Reminder", "Video call", "Share", "Attach", "PDF"),
    "messages": ("Schedule", "Send later"),
    "food": ("Coupon", "Promo code", "Schedule", "Split"),
    "notes": ("Lock", "Password", "Pin", "Reminder", "Share", "Bold"),
    "calculator": ("Graph", "Plot"),
    "files": ("Compress", "ZIP", "Rename", "Share", "Upload", "Lock"),  # copy and move it can (storage.py)
    "recorder": ("Transcribe", "Transcript", "Share", "Trim", "Speed"),
    "tasks": ("Share", "Email", "Assign", "Reminder", "Move to", "Attach"),
    "expenses": ("Export", "PDF", "Split", "Receipt", "Reimbursed", "Currency"),
    "mail": ("Unsend", "Undo send", "Snooze", "Spam", "Archive", "Schedule"),
    "ride": ("Schedule", "Later", "Reserve", "Add stop", "Passengers"),
    "gallery": ("Crop", "Edit", "Rotate", "Share", "Filter", "Wallpaper"),
    "dialer": ("Block", "Voicemail", "Report spam", "Mute", "Ringtone"),
    "bank": ("Loan", "Request", "Schedule", "Recurring", "Monthly", "Split"),
    "chat": ("视频通话", "语音通话", "转账", "红包", "位置", "Video call"),
}


def _labels(node: object) -> set[str]:
    """Every text, content-desc, hint and title in an app's definition, lower-cased."""
    if isinstance(node, dict):
        found = {str(v).strip().lower() for k, v in node.items() if k in LABEL_KEYS and isinstance(v, str)}
        return found.union(*(_labels(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_labels(v) for v in node))
    return set()


LABEL_KEYS = ("text", "desc", "hint", "title")


@pytest.mark.parametrize("app", sorted(MISSING))
def test_the_apps_offer_no_control_for_the_missing_features(app: str) -> None:
    folder = Path(apps.__file__).parent
    labels = _labels(yaml.safe_load((folder / f"{app}.yaml").read_text(encoding="utf-8"))["screens"])
    assert len(labels) > 3  # the app's screens were read
    for missing in MISSING[app]:
        assert not any(missing.lower() in label for label in labels), (app, missing)


@pytest.mark.parametrize(
    ("app", "present"),
    [("recorder", "Rename"), ("files", "Add star"), ("dialer", "Call back"), ("gallery", "Favorite")],
)
def test_the_label_scan_finds_the_features_the_twins_use(app: str, present: str) -> None:
    folder = Path(apps.__file__).parent
    labels = _labels(yaml.safe_load((folder / f"{app}.yaml").read_text(encoding="utf-8"))["screens"])
    assert present.lower() in labels
