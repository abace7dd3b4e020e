"""The everyday apps added for the world suite (Phone, Recorder, Calculator), driven through the UI dump
like an agent, with the effect checked in ``state()``; and the calculator's arithmetic."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.appmodel.calc import calculate
from droidpilot.device.sim.appmodel.expr import render
from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def ui() -> Driver:
    return Driver(SimDevice())


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("37×24", "888"),
        ("37*24", "888"),
        ("0.1+0.2", "0.3"),
        ("(3+4)*2", "14"),
        ("-5+2", "-3"),
        ("7÷2", "3.5"),
        ("1/3", "0.3333333333"),
        ("2.50 * 4", "10"),
        ("100−100", "0"),
        ("12/0", "Error"),
        ("12+", "Error"),
        ("(1+2", "Error"),
        ("1e5", "Error"),
        ("", "Error"),
    ],
)
def test_calculate_reads_like_a_calculator(text: str, result: str) -> None:
    assert calculate(text) == result


def test_calc_is_a_template_filter() -> None:
    assert render("{field.expr|calc}", {"field": {"expr": "6*7"}}) == "42"


def test_calculator_keypad_and_typed_expression(ui: Driver) -> None:
    ui.d.open_app("Calculator")
    for key in ("key_1", "key_2", "key_times", "key_3", "key_equals"):
        ui.tap(rid=key)
    st = ui.d.state()["calculator"]
    assert (st["display"], st["result"]) == ("12×3", "36") and ui.has("= 36")
    ui.tap(rid="key_clear")
    ui.type_into("expression", "45.5+12.25", submit=True)
    st = ui.d.state()["calculator"]
    assert st["result"] == "57.75"
    assert st["history"] == [{"expr": "12×3", "result": "36"}, {"expr": "45.5+12.25", "result": "57.75"}]
    ui.tap("History")
    assert ui.has("2 calculations") and ui.has("= 57.75")
    ui.tap("Clear history")
    assert ui.d.state()["calculator"]["history"] == []


def test_calculator_error_is_shown_not_kept(ui: Driver) -> None:
    ui.d.open_app("Calculator")
    ui.type_into("expression", "8/0", submit=True)
    st = ui.d.state()["calculator"]
    assert st["result"] == "Error" and st["history"] == [] and ui.has("= Error")


def test_phone_keypad_call_is_logged_and_missed_call_called_back(ui: Driver) -> None:
    ui.d.open_app("Phone")
    assert ui.has("Missed · Nov 21") and ui.has("2 calls")
    ui.tap(desc="Keypad")
    for key in ("key_5", "key_5", "key_1"):
        ui.tap(rid=key)
    ui.tap(rid="dial")
    assert ui.has("Calling") and ui.has("551")
    calls = ui.d.state()["dialer"]["calls"]
    assert calls[-1] == {"name": "", "number": "551", "kind": "Outgoing", "time": "10:30"}
    ui.tap("End call")
    ui.tap(desc="Recents")
    ui.tap("555-744-1902")
    assert ui.has("Missed call")
    ui.tap("Call back")
    assert ui.d.state()["dialer"]["calls"][-1]["number"] == "555-744-1902"


def test_phone_favorites_and_contact_call(ui: Driver) -> None:
    ui.d.open_app("Phone")
    ui.tap(desc="Contacts")
    ui.tap("Noah Brown")
    ui.tap("Add to favorites")
    assert ui.d.state()["dialer"]["favorites"] == ["Ava Smith", "Noah Brown"] and ui.has("Starred")
    ui.tap("Call")
    assert ui.d.state()["dialer"]["calls"][-1]["name"] == "Noah Brown"
    ui.tap("End call")
    ui.d.key("back")
    ui.tap(desc="Favorites")
    assert ui.has("Ava Smith") and ui.has("Noah Brown")


def test_recorder_record_name_play_rename_delete(ui: Driver) -> None:
    ui.d.open_app("Recorder")
    ui.tap("Record")
    assert ui.d.state()["recorder"]["recording"] is True and ui.has("Recording…")
    ui.tap("Stop")
    ui.type_into("name", "Team call")
    ui.tap("Save")
    st = ui.d.state()["recorder"]
    assert st["recording"] is False and st["recordings"][-1]["name"] == "Team call"
    ui.tap("Team call")
    ui.tap("Play")
    assert ui.d.state()["recorder"]["playing"] == "Team call" and ui.has("Now playing")
    ui.tap("Rename")
    ui.type_into("new_name", "Budget call")
    ui.tap("Save name")
    st = ui.d.state()["recorder"]
    assert [r["name"] for r in st["recordings"]] == ["Voice memo", "Budget call"] and st["playing"] is None
    assert ui.has("Budget call") and ui.has("Length 0:05") and ui.has("Play")  # back on the renamed one
    ui.d.key("back")
    ui.tap("Voice memo")
    ui.tap("Delete")
    ui.tap(rid="confirm")
    assert [r["name"] for r in ui.d.state()["recorder"]["recordings"]] == ["Budget call"]
