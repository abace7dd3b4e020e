"""uiautomator2 beyond the core loop, called exactly as its users call it: the android:id/content node,
processes in `ps`, gestures that take their duration, VIEW intents and open_url, and the JSON-RPC methods
the real server has beyond the common ones (pinch, two-pointer gestures, UiObject relations, waits, toasts).
"""

from __future__ import annotations

import re
import time

import pytest
import uiautomator2 as u2
from tests.device.adbd_support import Front
from tests.device.u2_support import front_fixtures

pytestmark = pytest.mark.slow
SETTINGS_CONTENT = "com.android.settings:id/content"


front, d, fresh = front_fixtures(1)


def _clock(front: Front) -> float:
    return float(front.sims[0].state()["system"]["time"])


def test_android_content_holds_each_apps_views(d: u2.Device) -> None:
    assert d.xpath("@android:id/content").exists  # the launcher is an app too
    d.app_start("com.android.settings")
    content = d.xpath("@android:id/content").get()
    assert content.attrib["package"] == "com.android.settings"
    assert content.info["className"] == "android.widget.FrameLayout"
    assert d.xpath('//*[@resource-id="android:id/content"]//*[@text="Display"]').exists
    assert d(resourceId=SETTINGS_CONTENT).child(text="Display").exists  # the app's own id stays
    assert len(d.xpath("@android:id/content").all()) == 1


def test_ps_as_toybox_prints_it_with_the_server_and_apps(front: Front, d: u2.Device) -> None:
    d.app_start("com.simphone.browser")
    pid = int(d.shell("pidof com.simphone.browser").output)
    everyone = d.shell("ps -A").output
    assert re.search(rf"^u0_a\d+ +{pid} +\d+ .* com\.simphone\.browser$", everyone, re.M)
    server = d.shell("pidof app_process").output.split()
    assert len(server) == 1  # the uiautomator server the client started
    mine = d.shell("ps -u shell").output.splitlines()
    assert mine[0].split() == ["USER", "PID", "PPID", "VSZ", "RSS", "WCHAN", "ADDR", "S", "NAME"]
    assert any(line.split()[1] == server[0] and line.endswith(" app_process") for line in mine[1:])
    assert not any("com.simphone.browser" in line for line in mine)
    cols = d.shell("ps -A -o PID,NAME").output.splitlines()
    assert cols[0].split() == ["PID", "NAME"] and f"{pid} com.simphone.browser" in [" ".join(c.split())
                                                                                   for c in cols]
    assert d.shell("ps -o FOO").exit_code == 1
    assert "com.simphone.browser" in d.app_list_running()
    assert d.app_wait("com.simphone.browser", timeout=1) == pid


def test_swipe_drag_points_and_click_take_their_duration(front: Front, d: u2.Device) -> None:
    d.app_start("com.android.settings")
    w, h = d.window_size()
    before, started = _clock(front), time.monotonic()
    d.swipe(w // 2, h // 2, w - 1, h // 2, 2.0)  # upstream's mobile_tests/test_swipe.py
    assert time.monotonic() - started >= 2.0  # blocks for the gesture, as a phone does
    assert _clock(front) - before >= 2.0  # and the phone's clock moved on by as much
    started = time.monotonic()
    d.drag(w // 2, h * 0.4, w // 2, h * 0.6, 0.5)
    assert time.monotonic() - started >= 0.5
    started = time.monotonic()
    d.swipe_points([(w // 2, h * 0.7), (w // 2, h * 0.6), (w // 2, h * 0.5)], 0.3)
    assert time.monotonic() - started >= 0.6  # 0.3 s between each pair of points
    started = time.monotonic()
    d.long_click(w // 2, h // 2, 1.0)
    assert time.monotonic() - started >= 1.0


def test_open_url_and_view_intents_open_the_browser(front: Front, d: u2.Device) -> None:
    sim = front.sims[0]
    d.open_url("https://example.org/news?id=7")
    fg = sim.state()["foreground"]
    assert (fg["app"], fg["screen"]) == ("browser", "page")
    assert fg["params"]["page"]["url"] == "https://example.org/news?id=7"
    assert d.app_current()["package"] == "com.simphone.browser"
    assert d(text="https://example.org/news?id=7").exists
    assert sim.state()["browser"]["visited"][-1] == "https://example.org/news?id=7"
    out = d.shell(["am", "start", "-a", "android.intent.action.VIEW", "-d", "tel:555"])
    assert out.exit_code == 1 and "unable to resolve Intent" in out.output
    bad = d.shell(["am", "start", "-a", "android.intent.action.VIEW", "-d", "https://"])
    assert bad.exit_code == 1 and "names no host" in bad.output


def test_pinch_and_two_pointer_gestures(front: Front, d: u2.Device) -> None:
    d.app_start("com.android.settings")
    target = d(resourceId=SETTINGS_CONTENT)
    started = time.monotonic()
    assert target.pinch_in(percent=60, steps=40) is True
    assert target.pinch_out(percent=60, steps=40) is True
    assert time.monotonic() - started >= 0.4  # 40 steps of 5 ms each, twice
    w, h = d.window_size()
    assert target.gesture((w // 3, h // 2), (2 * w // 3, h // 2), (w // 3, h // 3), (2 * w // 3, h // 3),
                          steps=20) is True
    assert d.jsonrpc.performTwoPointerGesture(target.selector, {"x": 10, "y": 900}, {"x": 500, "y": 900},
                                              {"x": 200, "y": 900}, {"x": 300, "y": 900}, 10) is True
    with pytest.raises(u2.UiObjectNotFoundError):
        d(text="No such thing").pinch_in()
    with pytest.raises(u2.exceptions.RPCError, match="Point object"):
        d.jsonrpc.gesture(target.selector, [1, 2], {"x": 1, "y": 2}, {"x": 1, "y": 2}, {"x": 1, "y": 2}, 5)
    with pytest.raises(u2.exceptions.RPCError, match="up to 60 s"):
        d.jsonrpc.pinchIn(target.selector, 50, 10**6)


def test_ui_object_relations_and_class_name(front: Front, d: u2.Device) -> None:
    d.app_start("com.android.settings")
    j = d.jsonrpc  # one wrapper remembers the method name: calls are made one at a time, never nested
    display = j.getUiObject(d(text="Display").selector)
    parent = j.getParent(display)
    class_name = j.getClassName(parent)
    assert class_name == j.objInfo(parent)["className"]
    child = j.getChild(parent, {"mask": 1, "text": "Display"})
    assert j.getText(child) == "Display"
    summary = j.getFromParent(display, {"mask": 1, "resourceId": "com.android.settings:id/summary"})
    assert j.getText(summary) == "Dark mode, font size, brightness"
    assert j.getClassName(d(text="Display").selector) == "android.widget.TextView"
    assert display in j.getUiObjects()
    j.removeUiObject(display)
    with pytest.raises(u2.UiObjectNotFoundError):
        j.getParent(display)
    root = j.getUiObject({"mask": 1, "className": "android.widget.FrameLayout", "instance": 0})
    with pytest.raises(u2.UiObjectNotFoundError, match="root of its window"):
        j.getParent(root)
    with pytest.raises(u2.UiObjectNotFoundError):
        j.getChild("simphone-object-none", {"mask": 1, "text": "x"})


def test_waits_and_new_windows(front: Front, d: u2.Device) -> None:
    j = d.jsonrpc
    assert j.waitForIdle(1000) is None
    assert j.waitForWindowUpdate("com.example.other", 2000) is False  # another package is in front
    started = time.monotonic()
    assert j.waitForWindowUpdate(None, 300) is False  # nothing changes on an idle home screen
    assert time.monotonic() - started >= 0.3
    assert j.clickAndWaitForNewWindow(d(text="Settings").selector, 3000) is True
    assert d.app_current()["package"] == "com.android.settings"
    assert j.clickAndWaitForNewWindow(d(resourceId=SETTINGS_CONTENT).selector, 300) is False


def test_toast_listener_and_getters(front: Front, d: u2.Device) -> None:
    d.clear_toast()  # as upstream's mobile_tests/test_toast.py calls it
    assert d.last_toast is None
    j = d.jsonrpc
    assert j.clearLastToast() is True
    j.setToastListener(False)
    d.toast.show("Saved quietly")
    assert d(text="Saved quietly").exists  # shown on the screen at once, but not recorded
    assert j.getLastToast() is None
    j.setToastListener(True)
    d.toast.show("Saved")
    assert d.toast.get_message(wait_timeout=2) == "Saved"
    assert j.getLastToast(5000) == "Saved"
    assert d.last_toast == "Saved"
    d.toast.reset()
    assert j.getLastToast() is None  # the toast still shown is not recorded again
    with pytest.raises(u2.exceptions.RPCError, match="true or false"):
        j.setToastListener("yes")
