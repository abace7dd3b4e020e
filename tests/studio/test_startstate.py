"""Where a recording starts: a fresh SimPhone (seed or suite task) or the phone as it is; bad fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.bench.suite import suite_folder
from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.errors import StudioError
from droidpilot.studio.recording import Recording, save_as_task
from droidpilot.studio.startstate import StartState, fresh_phone, from_request, prepare


def test_a_simphone_starts_fresh_by_default_and_a_task_brings_its_seed_and_setup() -> None:
    phone = SimDevice()
    assert from_request({}, phone, 7) == StartState(7)
    assert from_request({"start": "current"}, phone, 7) is None
    start = from_request({"task_file": str(suite_folder("mobile-eval") / "notes-2.yaml")}, phone, 7)
    assert start is not None and start.task_file is not None and start.to_dict()["fresh"] is True


def test_prepare_and_fresh_phone_give_the_same_screen() -> None:
    live = SimDevice(seed=5)
    live.open_app("Notes")
    prepare(live, StartState(5))
    assert live.current_app() == "com.simphone.launcher"
    assert fresh_phone(live, StartState(5)).screenshot().tobytes() == live.screenshot().tobytes()


@pytest.mark.parametrize(("body", "message"), [
    ({"start": "fresh-ish"}, "field 'start' must be fresh or current, got 'fresh-ish'"),
    ({"seed": -1}, "field 'seed' must be a whole number from 0"),
    ({"seed": True}, "field 'seed' must be a whole number from 0"),
    ({"seed": "3"}, "field 'seed' must be a whole number from 0"),
    ({"task_file": "/no/such/task.yaml"}, "field 'task_file': "),
])
def test_bad_start_fields(body: dict[str, object], message: str) -> None:
    with pytest.raises(StudioError, match=message.replace("(", r"\(")):
        from_request(body, SimDevice(), 0)


def test_a_real_phone_cannot_start_fresh() -> None:
    class Real:  # no reset: what an ADB phone offers
        pass

    assert from_request({}, Real(), 0) is None
    with pytest.raises(StudioError, match="only a SimPhone can start fresh"):
        from_request({"start": "fresh"}, Real(), 0)


def test_save_as_task_without_a_task_file_needs_a_recording_started_from_one(tmp_path: Path) -> None:
    phone = SimDevice()
    rec = Recording(tmp_path / "rec", "Go home.", {"serial": phone.serial}, start=StartState(0).to_dict())
    rec.stop(phone.screenshot(), phone.ui_xml())
    with pytest.raises(StudioError, match="did not start from a suite task; name the task file"):
        save_as_task(tmp_path / "rec", None, tmp_path / "out.yaml")
