"""Acceptance: the real uiautomator2 client drives SimPhone unchanged through the ADB front.

Every call of the issue's list (MobiAgent's runner and common scripts) is made with the PyPI client and
checked against SimPhone's own state, screen and `uiautomator dump`.
"""

from __future__ import annotations

import base64
import io
import re

import adbutils
import pytest
import uiautomator2 as u2
from PIL import Image, ImageChops
from tests.device.adbd_support import Front
from tests.device.u2_support import front_fixtures

pytestmark = pytest.mark.slow


front, d, fresh = front_fixtures(2)


def adb(front: Front) -> adbutils.AdbDevice:
    return adbutils.AdbClient(port=front.port).device("simphone-1")


def test_info_size_ime_and_current_app(front: Front, d: u2.Device) -> None:
    info = d.info
    assert (info["displayWidth"], info["displayHeight"]) == front.sims[0].size()
    assert info["currentPackageName"] == front.sims[0].current_app()
    assert d.window_size() == front.sims[0].size()
    assert d.app_current()["package"] == "com.simphone.launcher"
    assert d.current_ime() == "com.android.adbkeyboard/.AdbIME"
    assert d.shell(["getprop", "ro.product.model"]).output.strip() == "SimPhone"
    assert d.shell("echo hi; false") == ("hi\n", 1)


def test_dump_and_screenshot_agree_with_the_phone(front: Front, d: u2.Device) -> None:
    sim = front.sims[0]
    xml = d.dump_hierarchy()
    assert xml == adb(front).shell("uiautomator dump /dev/tty").removesuffix(
        "UI hierchary dumped to: /dev/tty")
    assert xml == sim.ui_xml()
    shot = d.screenshot()
    assert shot.size == sim.size()
    diff = ImageChops.difference(shot.convert("RGB"), sim.screenshot()).convert("L")
    assert sum(diff.histogram()[40:]) < 0.01 * shot.width * shot.height  # JPEG noise only
    # every node the dump lists is found by the selector of its text, with the dump's bounds
    x1, y1, x2, y2 = map(int, re.search(r'text="Settings"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"',
                                        xml).groups())  # type: ignore[union-attr]
    assert d(text="Settings").bounds() == (x1, y1, x2, y2)


def test_selector_click_opens_settings_and_dark_mode_toggles(front: Front, d: u2.Device) -> None:
    sim = front.sims[0]
    d(text="Settings").click()
    assert d.app_current()["package"] == "com.android.settings"
    assert sim.state()["foreground"]["app"] == "settings"
    d(text="Display").click()
    assert d(text="Dark mode").exists
    d(text="Dark mode").click()
    assert sim.state()["settings"]["dark_mode"] is True
    assert d.shell(["settings", "get", "secure", "ui_night_mode"]).output.strip() == "2"
    d(text="Dark mode").click()
    assert sim.state()["settings"]["dark_mode"] is False


def test_app_start_wait_press_back_and_home(front: Front, d: u2.Device) -> None:
    sim = front.sims[0]
    assert "com.android.settings" in d.app_list()
    d.app_start("com.android.settings", stop=True)
    pid = d.app_wait("com.android.settings", timeout=5)
    assert pid > 0
    assert d.shell(["pidof", "com.android.settings"]).output.split() == [str(pid)]
    assert sim.state()["foreground"]["app"] == "settings"
    d(text="Display").click()
    assert sim.state()["foreground"]["screen"] != "main"
    d.press("back")
    assert sim.state()["foreground"]["screen"] == "main"
    d.press("home")
    assert sim.state()["foreground"]["app"] == "launcher"
    d.app_start("com.android.settings", ".MainActivity")  # through `am start -n`
    assert d.app_current() == {"package": "com.android.settings", "activity": ".MainActivity", "pid": pid}
    assert d.app_wait("com.simphone.nothing", timeout=0.1) == 0


def test_click_swipe_and_set_text_by_resource_id(front: Front, d: u2.Device) -> None:
    sim = front.sims[0]
    x, y = d(text="Browser").center()
    d.click(x, y)
    assert sim.state()["foreground"]["app"] == "browser"
    d(resourceId="com.simphone.browser:id/search_box").set_text("Lakers game")
    assert sim.state()["foreground"]["fields"]["q"] == "Lakers game"
    assert d(resourceId="com.simphone.browser:id/search_box").get_text() == "Lakers game"
    d.press("enter")
    assert "lakers game" in [q.lower() for q in sim.state()["browser"]["queries"]]
    before = sim.state()["foreground"]
    w, h = d.window_size()
    d.swipe(w // 2, h * 0.8, w // 2, h * 0.3, duration=0.2)
    d.swipe_ext("down", scale=0.5)
    assert sim.state()["foreground"]["app"] == before["app"]


def test_chinese_text_through_the_adbkeyboard_broadcast(front: Front, d: u2.Device) -> None:
    """MobiAgent's input: switch to ADBKeyboard, broadcast ADB_INPUT_B64, switch the keyboard back."""
    sim = front.sims[0]
    d.app_start("com.simphone.browser", stop=True)
    d(resourceId="com.simphone.browser:id/search_box").click()
    current = d.current_ime()
    d.shell(["settings", "put", "secure", "default_input_method", "com.android.adbkeyboard/.AdbIME"])
    text = "湖人队比赛"
    d.shell(["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg",
             base64.b64encode(text.encode()).decode()])
    d.shell(["settings", "put", "secure", "default_input_method", current])
    assert sim.state()["foreground"]["fields"]["q"] == text
    assert d(text=text).exists


def test_selectors_over_the_dump(front: Front, d: u2.Device) -> None:
    d(text="Settings").click()
    assert d(textContains="Network").get_text() == "Network & internet"
    assert d(textMatches=r"Net.*net").exists
    assert d(textStartsWith="Disp").exists
    assert d(className="android.widget.TextView", instance=1).exists
    titles = d(resourceId="com.android.settings:id/title")
    assert titles.count == len(titles.info_list()) >= 3
    assert titles[1].get_text() == titles.info_list()[1]["text"]
    xml = d.dump_hierarchy()
    assert d(clickable=True).count == len(re.findall(r' clickable="true"', xml))
    descs = [t for t in re.findall(r'content-desc="([^"]+)"', xml)]
    if descs:
        assert d(description=descs[0]).info["contentDescription"] == descs[0]
    summary = d(text="Display").sibling(resourceId="com.android.settings:id/summary")
    assert summary.get_text() == "Dark mode, font size, brightness"
    assert d(resourceId="com.android.settings:id/content").child(text="Display").exists
    assert d(resourceId="com.android.settings:id/display").child(text="Display").count == 1
    assert d(packageName="com.android.settings", index=0).exists
    assert d(text="Nothing like this").wait(timeout=0.2) is False
    assert d(text="Display").wait_gone(timeout=0.1) is False


def test_a_selector_that_matches_nothing_raises_the_clients_own_error(d: u2.Device) -> None:
    with pytest.raises(u2.UiObjectNotFoundError) as info:
        _ = d(text="No such thing").info
    assert "UiSelector[TEXT=No such thing]" in str(info.value)
    with pytest.raises(u2.UiObjectNotFoundError):
        d(text="No such thing").click(timeout=0.2)
    with pytest.raises(u2.UiObjectNotFoundError):
        d(resourceId="com.example:id/none").set_text("x", timeout=0.1)


def test_screenshot_through_jsonrpc_is_a_jpeg(d: u2.Device) -> None:
    data = base64.b64decode(d.jsonrpc.takeScreenshot(0.5, 60))
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "JPEG"
        assert img.size == (540, 1200)


def test_app_start_with_stop_begins_the_app_afresh(front: Front, d: u2.Device) -> None:
    """`am force-stop` ends the task (screens and Recents card), so stop=True opens the app's home screen
    in a new process, as on a phone; the app's data stays."""
    sim = front.sims[0]
    d.app_start("com.android.settings", stop=True)
    first = d.app_wait("com.android.settings", timeout=5)
    d(text="Display").click()
    assert sim.state()["foreground"]["screen"] != "main"
    d.app_start("com.android.settings")  # no stop: the task resumes where it was
    assert sim.state()["foreground"]["screen"] != "main"
    d.app_start("com.android.settings", stop=True)
    assert sim.state()["foreground"]["screen"] == "main"
    second = d.app_wait("com.android.settings", timeout=5)
    assert second > 0 and second != first
