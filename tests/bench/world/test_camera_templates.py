"""Camera templates judged on real SimPhone state: the shutter's item in Gallery is what passes, and near
misses fail (a photo taken in video mode, a video for a photo, two photos, nothing taken, a Gallery photo
deleted on the way)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.bench.world.played import judge_played, world_task
from tests.device.sim_driver import Driver

from droidpilot.bench.suite import BenchTask

Play = Callable[[Driver], None]


def _task(template: str, seed: int) -> BenchTask:
    return world_task(template, seed)


def _judge(task: BenchTask, play: Play) -> bool:
    def in_camera(ui: Driver, _: BenchTask) -> None:
        ui.d.open_app("camera")
        play(ui)

    return judge_played(task, in_camera)


def _photo(ui: Driver) -> None:
    ui.tap("Photo")
    ui.tap("Take photo")


def _video(ui: Driver) -> None:
    ui.tap("Video")
    ui.tap("Start recording")
    ui.tap("Stop recording")


def _in_mode_as_set_up(ui: Driver) -> None:
    """Press the shutter in whatever mode the camera opened in, as an agent that ignores the mode does."""
    if ui.has("Take photo"):
        ui.tap("Take photo")
    else:
        ui.tap("Start recording")
        ui.tap("Stop recording")


def _delete_one(ui: Driver) -> None:
    _photo(ui)
    ui.d.open_app("gallery")
    ui.tap(rid="photo_item")
    ui.tap("Delete photo")


PLAYS: dict[str, Play] = {
    "photo": _photo, "video": _video, "as-set-up": _in_mode_as_set_up, "nothing": lambda ui: None,
    "two-photos": lambda ui: (_photo(ui), ui.tap("Take photo")), "photo-then-delete-another": _delete_one,
}


@pytest.mark.parametrize(("template", "seed", "case", "ok"), [
    ("camera-photo", 0, "photo", True), ("camera-photo", 1, "photo", True),
    ("camera-photo", 0, "video", False), ("camera-photo", 0, "as-set-up", False),
    ("camera-photo", 0, "nothing", False), ("camera-photo", 1, "two-photos", False),
    ("camera-photo", 1, "photo-then-delete-another", False),
    ("camera-video", 0, "video", True), ("camera-video", 2, "video", True),
    ("camera-video", 0, "photo", False), ("camera-video", 0, "nothing", False),
])
def test_camera_judging(template: str, seed: int, case: str, ok: bool) -> None:
    task = _task(template, seed)
    if case == "as-set-up":  # the near miss only means something when the camera opens in the other mode
        assert task.setup["state"]["camera.mode"] == "video"
    assert _judge(task, PLAYS[case]) is ok
