"""SimPhone's Camera: the shutter saves into Gallery (the shared media store) a photo at once and a video
when the recording stops, numbered in order; the mode chips pick which; the new item opens in Gallery."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


def _camera() -> tuple[SimDevice, Driver]:
    phone = SimDevice(seed=0)
    phone.open_app("camera")
    return phone, Driver(phone)


def test_a_photo_lands_in_gallery_and_shows_there() -> None:
    phone, ui = _camera()
    before = len(phone.state()["gallery"]["photos"])
    ui.tap("Take photo")
    photos = phone.state()["gallery"]["photos"]
    assert len(photos) == before + 1
    assert photos[-1] == {"title": "IMG_1", "date": "Nov 22", "album": "Camera", "kind": "photo",
                          "color": "#78909C"}
    phone.open_app("gallery")
    assert ui.has("IMG_1")


def test_video_mode_records_until_stopped() -> None:
    phone, ui = _camera()
    ui.tap("Video")
    assert not ui.has("Take photo")
    before = len(phone.state()["gallery"]["photos"])
    ui.tap("Start recording")
    assert ui.has("Stop recording") and len(phone.state()["gallery"]["photos"]) == before  # nothing yet
    ui.tap("Stop recording")
    assert phone.state()["gallery"]["photos"][-1]["kind"] == "video"
    assert phone.state()["gallery"]["photos"][-1]["title"] == "VID_1"


def test_shots_are_numbered_and_the_same_for_the_same_seed() -> None:
    runs = []
    for _ in range(2):
        phone, ui = _camera()
        ui.tap("Take photo")
        ui.tap("Take photo")
        runs.append(phone.state()["gallery"]["photos"][-2:])
    assert [p["title"] for p in runs[0]] == ["IMG_1", "IMG_2"]
    assert runs[0] == runs[1]


def test_only_lists_of_shared_providers_take_writes() -> None:
    import pytest

    from droidpilot.device.sim.appmodel import actions
    from droidpilot.errors import InputError

    with pytest.raises(InputError, match=r"sys\.photos, sys\.documents, take only append and remove"):
        actions.run(SimDevice(), [actions.Action.model_validate({"set": {"sys.photos": []}})],
                    {"sys": {"photos": []}, "state": {}})
