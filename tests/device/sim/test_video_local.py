"""星视频's local files and playlists on SimPhone: files listed from Internal Memory/VLCVideos, playlists
filled in the order files are tapped, and a clip whose frames each show one word in the pixels (not in the
UI dump), stepped through frame by frame."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice

FILES = [
    {"name": "clip_a.mp4", "minutes": 1, "seconds": "05"},
    {"name": "clip_b.mp4", "minutes": 0, "seconds": "41"},
    {"name": "words.mp4", "minutes": 0, "seconds": "12", "frames": ["Harbor", "Violet", "Candle"]},
]


def _mine() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"video.files": FILES}})
    ui.d.open_app("video")
    ui.tap("我的")
    return ui


def test_a_playlist_gets_its_files_in_the_order_tapped() -> None:
    ui = _mine()
    ui.tap("播放列表")
    ui.tap(desc="新建播放列表")
    ui.d.type_text("Trip")
    ui.tap("创建")
    ui.tap("添加视频")
    ui.tap("clip_b.mp4")
    ui.tap("clip_a.mp4")
    ui.d.key("back")
    texts = ui.texts()
    assert "2 个视频" in texts and texts.index("1. clip_b.mp4") < texts.index("2. clip_a.mp4")
    made = ui.d.state()["video"]["playlists"]
    assert [p["name"] for p in made] == ["Trip"]
    assert [f["name"] for f in made[0]["files"]] == ["clip_b.mp4", "clip_a.mp4"]


def test_a_clip_steps_frame_by_frame_and_its_words_are_only_in_the_pixels() -> None:
    ui = _mine()
    ui.tap("本地视频")
    ui.tap("words.mp4")
    assert ui.has("已暂停 · 第 1 帧 / 共 3 帧") and not ui.has("上一帧")
    assert not any("Harbor" in t for t in ui.texts())  # the word is drawn, not in the dump
    ui.tap("下一帧")
    ui.tap("下一帧")
    assert ui.has("已暂停 · 第 3 帧 / 共 3 帧")
    ui.tap("上一帧")
    assert ui.has("已暂停 · 第 2 帧 / 共 3 帧")
    ui.tap("下一帧")
    ui.tap("下一帧")
    assert ui.has("播放结束") and ui.has("重播") and not ui.has("下一帧")
    ui.tap("重播")
    assert ui.has("已暂停 · 第 1 帧 / 共 3 帧")


def test_a_plain_file_shows_no_frames() -> None:
    ui = _mine()
    ui.tap("本地视频")
    ui.tap("clip_a.mp4")
    assert not ui.has("播放结束") and not ui.has("下一帧") and ui.screen() == "clip"
