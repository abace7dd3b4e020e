"""SimPhone as a phone: system navigation, keyboard, scrolling, toasts, recents, themes and sizes,
determinism, the dump's bounds against the pixels, and clear errors."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from tests.device.sim_driver import Driver

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def ui() -> Driver:
    return Driver(SimDevice())


def _run_script(seed: int) -> tuple[str, dict, str]:
    ui = Driver(SimDevice(seed=seed))
    ui.d.open_app("clips")
    ui.d.swipe(540, 1700, 540, 600)
    ui.tap(desc="Like")
    ui.d.open_app("notes")
    ui.tap(desc="New note")
    ui.d.type_text("determinism")
    png = ui.d.screenshot_png()
    return hashlib.sha256(png).hexdigest(), ui.d.state(), ui.d.ui_xml()


def test_same_seed_same_pixels_xml_and_state() -> None:
    assert _run_script(3) == _run_script(3)


def test_seed_orders_the_video_feed_and_reset_restores() -> None:
    firsts = set()
    for seed in range(6):
        ui = Driver(SimDevice(seed=seed))
        ui.d.open_app("clips")
        firsts.add(ui.find(rid="caption").text)
    assert len(firsts) >= 2
    dev = SimDevice(seed=1)
    initial = dev.state()
    dev.open_app("settings")
    Driver(dev).tap("Display")
    Driver(dev).tap("Dark mode")
    dev.reset()
    assert dev.state() == initial and dev.current_app() == "com.simphone.launcher"
    dev.reset(seed=2)
    assert dev.state()["system"]["seed"] == 2


def test_state_is_json_and_a_copy(ui: Driver) -> None:
    import json

    st = ui.d.state()
    json.dumps(st)
    st["settings"]["wifi"] = False
    assert ui.d.state()["settings"]["wifi"] is True
    assert {"settings", "notes", "mail", "browser", "maps", "store", "music", "shop", "clips", "tube",
            "calendar", "weather", "chat", "video", "foreground", "system"} <= set(st)


def test_home_keeps_the_task_and_back_at_root_closes_it(ui: Driver) -> None:
    ui.d.open_app("settings")
    ui.tap("Display")
    ui.d.key("home")
    assert ui.d.current_app() == "com.simphone.launcher"
    ui.tap("Settings")
    assert ui.screen() == "display"
    ui.tap(desc="Navigate up")
    ui.d.key("back")
    assert ui.d.state()["foreground"]["app"] == "launcher"
    assert ui.d.state()["system"]["recents"] == []


def test_recents_lists_tasks_and_switches(ui: Driver) -> None:
    ui.d.open_app("notes")
    ui.d.open_app("mail")
    ui.d.key("app_switch")
    assert ui.d.state()["foreground"]["app"] == "recents"
    assert ui.has("Mail") and ui.has("Notes")
    ui.tap("Notes")
    assert ui.d.current_app() == "com.simphone.notes"
    ui.d.key("app_switch")
    mail = ui.find(desc="Mail")
    assert mail.bounds is not None
    x = (mail.bounds[0] + mail.bounds[2]) // 2
    ui.d.swipe(x, mail.bounds[3] - 100, x, 300, 200)  # swipe the Mail card away
    assert ui.d.state()["system"]["recents"] == ["notes"] and not ui.has("Mail")
    ui.tap("Clear all")
    assert ui.d.state()["system"]["recents"] == [] and ui.d.state()["foreground"]["app"] == "launcher"


def test_launcher_search_filters_and_enter_opens(ui: Driver) -> None:
    ui.tap("Search apps")
    assert ui.find(rid="search_box").focused
    ui.d.type_text("mu")
    labels = [e.text for e in ui.elements() if e.resource_id.endswith("/icon")]
    assert labels == ["Music"]
    ui.d.key("enter")
    assert ui.d.current_app() == "com.simphone.music"


def test_keyboard_keys_type_shift_backspace_and_enter() -> None:
    dev = SimDevice()
    ui = Driver(dev)
    dev.open_app("browser")
    ui.tap(rid="search_box")
    keys = {n.text: n for n in dev.view().targets if n.cls.endswith("Keyboard$Key") and n.text}
    assert {"q", "a", "z", "1", "?123"} <= set(keys)
    assert not any("Keyboard" in e.cls for e in ui.elements())  # the IME is not in the app's dump

    def press(label: str | None = None, action: str | None = None) -> None:
        node = next(n for n in dev.view().targets if n.tap and n.tap.arg == f"ime:{action}") if action else \
            next(n for n in dev.view().targets if n.cls.endswith("Keyboard$Key") and n.text == label)
        x1, y1, x2, y2 = node.bounds
        dev.tap((x1 + x2) // 2, (y1 + y2) // 2)

    press(action="shift")
    press("N")  # shift shows capitals and applies to one letter
    for ch in "bax":
        press(ch)
    press(action="backspace")
    assert dev.state()["foreground"]["fields"]["q"] == "Nba"
    press(action="enter")
    assert dev.state()["browser"]["queries"] == ["Nba"] and dev.state()["foreground"]["screen"] == "results"


def test_type_text_without_focus_goes_nowhere(ui: Driver) -> None:
    ui.d.open_app("settings")
    before = ui.d.state()
    ui.d.type_text("hello")
    after = ui.d.state()
    assert after["settings"] == before["settings"] and after["foreground"]["fields"] == {}


def test_scrolling_moves_content_and_culls_offscreen_items(ui: Driver) -> None:
    ui.d.open_app("settings")
    assert not ui.has("About phone")
    shot = ui.d.screenshot()
    ui.d.swipe(540, 1800, 540, 600, 300)
    assert ui.has("About phone") and not ui.has("Network & internet")
    assert ui.d.screenshot().tobytes() != shot.tobytes()
    content = ui.find(rid="content")
    assert content.bounds is not None
    for el in ui.elements():
        if el.text and el.resource_id.endswith(("settings:id/title", "settings:id/summary")):
            assert content.bounds[1] <= el.bounds[1] and el.bounds[3] <= content.bounds[3]
    ui.tap("About phone")
    assert ui.screen() == "about"
    ui.d.key("back")
    ui.d.key("page_up")
    ui.d.key("page_up")
    assert ui.has("Network & internet")
    ui.d.key("page_down")
    assert not ui.has("Network & internet")


def test_dialog_dismisses_on_outside_tap_and_back(ui: Driver) -> None:
    ui.d.open_app("mail")
    ui.tap("Compose")
    ui.d.type_text("a@b.c")
    ui.tap(desc="Send")
    assert ui.has("Send email?")
    ui.d.tap(540, 400)
    assert ui.screen() == "compose"
    ui.tap(desc="Send")
    ui.d.key("back")
    assert ui.screen() == "compose" and ui.d.state()["mail"]["sent"] == []


def test_toast_fades_after_a_few_events(ui: Driver) -> None:
    ui.d.open_app("shop")
    ui.type_into("search_box", "cap", submit=True)
    ui.tap(rid="title")
    ui.tap("Add to cart")
    assert ui.has("Added to cart")
    ui.d.wait(3)
    assert not ui.has("Added to cart")


def test_edge_swipe_goes_back(ui: Driver) -> None:
    ui.d.open_app("settings")
    ui.tap("Display")
    ui.d.swipe(5, 1200, 600, 1200, 200)
    assert ui.screen() == "main"


@pytest.mark.parametrize("size", [(1080, 2400), (720, 1600)])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_sizes_and_themes(size: tuple[int, int], theme: str) -> None:
    dev = SimDevice(size=size, theme=theme)
    dev.open_app("settings")
    img = dev.screenshot()
    assert img.size == size == dev.size() and img.mode == "RGB"
    bg = np.asarray(img)[size[1] // 2, 5].sum()
    assert (bg < 150) == (theme == "dark")
    el = Driver(dev).find("Display")
    scale = size[0] / 1080
    ref = Driver(SimDevice()).d
    ref.open_app("settings")
    ref_el = Driver(ref).find("Display")
    assert el.bounds is not None and ref_el.bounds is not None
    assert all(abs(a - b * scale) <= 2 for a, b in zip(el.bounds, ref_el.bounds, strict=True))


SCREENS = [
    ("launcher", []), ("settings", []), ("notes", [("desc", "New note")]), ("mail", [("text", "Compose")]),
    ("maps", []), ("clips", []), ("calendar", []), ("微聊", []),
]


@pytest.mark.parametrize("app,steps", SCREENS)
def test_dump_bounds_match_the_pixels(app: str, steps: list[tuple[str, str]]) -> None:
    """Every text node sits where its text was drawn: inside the screen, with ink inside its bounds and
    a tap at its centre reaching the widget that owns it."""
    dev = SimDevice()
    ui = Driver(dev)
    if app != "launcher":
        dev.open_app(app)
    for kind, value in steps:
        ui.tap(desc=value) if kind == "desc" else ui.tap(value)
    arr = np.asarray(dev.screenshot()).astype(int)
    w, h = dev.size()
    for el in ui.elements():
        assert el.bounds is not None
        x1, y1, x2, y2 = el.bounds
        assert 0 <= x1 <= x2 <= w and 0 <= y1 <= y2 <= h, el
        if el.text and el.cls.endswith("TextView"):
            patch = arr[y1:y2, x1:x2]
            assert patch.size and patch.std() > 8, f"no ink under {el.text!r} at {el.bounds}"
    for label, box in dev.labels():
        x1, y1, x2, y2 = box
        assert arr[y1:y2, x1:x2].std() > 8, label


def test_unknown_app_names_the_apps(ui: Driver) -> None:
    with pytest.raises(DeviceError) as err:
        ui.d.open_app("Snapgram")
    msg = str(err.value)
    assert "Snapgram" in msg and "settings (Settings, com.android.settings)" in msg and "微聊" in msg


def test_bad_key_point_size_theme_are_device_errors(ui: Driver) -> None:
    with pytest.raises(DeviceError, match="unknown key"):
        ui.d.key("volume_up")
    with pytest.raises(DeviceError, match="outside"):
        ui.d.tap(5000, 10)
    with pytest.raises(DeviceError, match="WIDTHxHEIGHT"):
        SimDevice(size="big")
    with pytest.raises(DeviceError, match="theme"):
        SimDevice(theme="blue")
    with pytest.raises(DeviceError, match="negative"):
        ui.d.wait(-1)
    with pytest.raises(DeviceError, match="HH:MM"):
        SimDevice(clock="25:99")
    with pytest.raises(DeviceError, match="YYYY-MM-DD"):
        ui.d.set_clock(date="22/11/2026")


def test_bad_app_file_is_named(tmp_path: Path) -> None:
    head = "name: broken\npackage: x.y\nlabel: B\nhome: main\n"
    path = tmp_path / "broken.yaml"
    path.write_text(head + "icon: {glyph: gear, color: '#000'}\nscreens:\n  main:\n"
                    "    widgets:\n      - {kind: row, text: Go, on_tap: [{go: nowhere}]}\n")
    with pytest.raises(DeviceError, match=r"broken\.yaml.*unknown screen 'nowhere'"):
        SimDevice(apps_dir=tmp_path)
    path.write_text(head + "icon: {glyph: unicorn, color: '#000'}\nscreens: {main: {}}\n")
    with pytest.raises(DeviceError, match=r"unknown glyph.*unicorn"):
        SimDevice(apps_dir=tmp_path)


def test_screenshot_png_is_the_screenshot(ui: Driver) -> None:
    import io

    ui.d.open_app("weather")
    decoded = Image.open(io.BytesIO(ui.d.screenshot_png())).convert("RGB")
    assert decoded.tobytes() == ui.d.screenshot().tobytes()


def test_sim_shot_cli(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from droidpilot.cli import _discover, app

    _discover()
    out = tmp_path / "shot.png"
    res = CliRunner().invoke(app, ["sim", "shot", "--app", "Maps", "--theme", "dark", "--size", "720x1600",
                                   str(out)])
    assert res.exit_code == 0, res.output
    assert Image.open(out).size == (720, 1600)
    res = CliRunner().invoke(app, ["sim", "shot", "--app", "nope", str(out)])
    assert res.exit_code == 2 and "unknown app 'nope'" in res.output


def test_notification_shade_tiles_and_notifications(ui: Driver) -> None:
    ui.d.open_app("store")
    ui.type_into("search_box", "WhatsApp", submit=True)
    ui.tap(rid="title")
    ui.tap("Install")
    ui.d.wait(5)  # the heads-up banner has gone; the notification stays in the shade
    assert not ui.has("WhatsApp installed")
    ui.d.swipe(540, 40, 540, 1400, 300)
    assert ui.d.state()["system"]["shade_open"] and ui.d.current_app() == "com.simphone.store"
    assert ui.has("WhatsApp installed") and ui.find(desc="Internet").checked
    ui.tap(desc="Airplane mode")
    assert ui.d.state()["settings"]["airplane_mode"] is True and ui.d.state()["settings"]["wifi"] is False
    ui.tap(desc="Dark theme")
    assert ui.d.state()["system"]["dark_mode"] is True
    ui.tap("WhatsApp installed")
    assert ui.d.current_app() == "com.whatsapp" and not ui.d.state()["system"]["shade_open"]
    ui.d.swipe(540, 40, 540, 1400, 300)
    ui.tap("Clear all")
    assert ui.d.state()["system"]["notifications"] == [] and ui.has("No notifications")
    ui.d.swipe(540, 1600, 540, 300, 300)
    assert not ui.d.state()["system"]["shade_open"]
