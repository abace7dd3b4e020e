"""Which uiautomator2 client calls work on SimPhone: each call made by hand as its users make it, against a
fresh SimPhone behind the ADB front, checked against what the phone then shows. One run; prints one line per
call (ok / FAIL and why) and the count. Run it with ``PYTHONPATH`` on another checkout's ``src`` to count
that version (before/after).

Run: ``.venv/bin/python benchmarks/u2_calls.py``.
"""

from __future__ import annotations

import importlib.resources
import time
import warnings
from collections.abc import Callable

import adbutils
import uiautomator2 as u2

from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.sim.phone import SimDevice

Check = Callable[[u2.Device, SimDevice], object]


def _home(d: u2.Device, sim: SimDevice) -> None:
    sim.reset()


def _typed(d: u2.Device, sim: SimDevice, text: str) -> bool:
    return sim.state()["foreground"]["fields"].get("q") == text


def _search_box(d: u2.Device) -> u2.UiObject:
    d.app_start("com.simphone.browser", stop=True)
    box = d(resourceId="com.simphone.browser:id/search_box")
    box.click()
    return box


def _send_keys(d: u2.Device, sim: SimDevice) -> bool:
    _search_box(d)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the set_text fallback does not count
        d.send_keys("lakers")
    return _typed(d, sim, "lakers")


def _send_action(d: u2.Device, sim: SimDevice) -> bool:
    _search_box(d)
    d(resourceId="com.simphone.browser:id/search_box").set_text("nba")
    d(resourceId="com.simphone.browser:id/search_box").click()
    d.send_action("search")
    return sim.state()["foreground"]["screen"] == "results"


def _hide(d: u2.Device, sim: SimDevice) -> bool:
    _search_box(d)
    d.hide_keyboard()
    return not d(focused=True, className="android.widget.EditText").exists


def _clear(d: u2.Device, sim: SimDevice) -> bool:
    box = _search_box(d)
    box.set_text("abc")
    box.click()
    d.clear_text()
    return _typed(d, sim, "")


def _install(d: u2.Device, sim: SimDevice) -> bool:
    apk = importlib.resources.files("uiautomator2") / "assets/app-uiautomator.apk"
    d.app_install(str(apk))
    return "com.github.uiautomator" in d.app_list()


def _timed(fn: Callable[[], object], at_least: float) -> bool:
    start = time.monotonic()
    fn()
    return time.monotonic() - start >= at_least


def _ps_user(d: u2.Device, sim: SimDevice) -> bool:
    return "app_process" in d.shell("ps -u shell").output


CALLS: dict[str, Check] = {
    "info": lambda d, s: d.info["displayWidth"] > 0,
    "window_size": lambda d, s: d.window_size() == s.size(),
    "app_current": lambda d, s: d.app_current()["package"] == s.current_app(),
    "app_start": lambda d, s: d.app_start("com.android.settings") or
    s.current_app() == "com.android.settings",
    "app_stop": lambda d, s: d.app_stop("com.android.settings") is None,
    "app_list": lambda d, s: "com.android.settings" in d.app_list(),
    "app_list_running": lambda d, s: d.app_start("com.android.settings") or
    "com.android.settings" in d.app_list_running(),
    "app_wait": lambda d, s: d.app_start("com.android.settings") or d.app_wait("com.android.settings", 2) > 0,
    "app_info": lambda d, s: d.app_info("com.android.settings")["versionName"] is not None,
    "app_install": _install,
    "app_auto_grant_permissions": lambda d, s: _install(d, s) and
    d.app_auto_grant_permissions("com.github.uiautomator") is None,
    "dump_hierarchy": lambda d, s: "<hierarchy" in d.dump_hierarchy(),
    "screenshot": lambda d, s: d.screenshot().size == s.size(),
    "click": lambda d, s: d.click(*d(text="Settings").center()) or s.current_app() == "com.android.settings",
    "long_click": lambda d, s: d.long_click(10, 300, 0.6) is None,
    "click(x, y, duration)": lambda d, s: _timed(lambda: d.jsonrpc.click(10, 300, 700), 0.7),
    "swipe(duration 2.0)": lambda d, s: _timed(lambda: d.swipe(500, 1500, 500, 900, 2.0), 2.0),
    "swipe_ext": lambda d, s: d.swipe_ext("up", scale=0.5) is None,
    "swipe_points": lambda d, s: _timed(lambda: d.swipe_points([(500, 1500), (500, 1200), (500, 900)], 0.3),
                                        0.6),
    "drag": lambda d, s: _timed(lambda: d.drag(500, 1500, 500, 900, 0.5), 0.5),
    "press(home)": lambda d, s: d.press("home") or s.current_app() == "com.simphone.launcher",
    "press(back)": lambda d, s: d.app_start("com.android.settings") or d.press("back") is not None,
    "keyevent": lambda d, s: d.keyevent("home") is None,
    "selector.exists": lambda d, s: d(text="Settings").exists,
    "selector.click": lambda d, s: d(text="Settings").click() or s.current_app() == "com.android.settings",
    "selector.get_text": lambda d, s: d(text="Settings").get_text() == "Settings",
    "selector.set_text": lambda d, s: _search_box(d).set_text("abc") or _typed(d, s, "abc"),
    "selector.info": lambda d, s: d(text="Settings").info["text"] == "Settings",
    "selector.bounds": lambda d, s: len(d(text="Settings").bounds()) == 4,
    "selector.wait": lambda d, s: d(text="Settings").wait(timeout=1),
    "selector.wait_gone": lambda d, s: d(text="Nothing here").wait_gone(timeout=1),
    "selector.child": lambda d, s: d.app_start("com.android.settings") or
    d(resourceId="com.android.settings:id/content").child(text="Display").exists,
    "selector.pinch_in": lambda d, s: d(text="Settings").pinch_in(percent=50, steps=10),
    "selector.pinch_out": lambda d, s: d(text="Settings").pinch_out(percent=50, steps=10),
    "selector.gesture": lambda d, s: d(text="Settings").gesture((100, 800), (600, 800), (100, 500),
                                                                (600, 500), 10),
    "xpath(@android:id/content)": lambda d, s: d.xpath("@android:id/content").exists,
    "xpath click": lambda d, s: d.xpath('//*[@text="Settings"]').click() or
    s.current_app() == "com.android.settings",
    "send_keys (u2 keyboard)": _send_keys,
    "set_input_ime": lambda d, s: d.set_input_ime(True) or
    d.current_ime() == "com.github.uiautomator/.AdbKeyboard",
    "set_fastinput_ime": lambda d, s: d.set_fastinput_ime(True) or
    d.current_ime() == "com.github.uiautomator/.AdbKeyboard",
    "send_action": _send_action,
    "hide_keyboard": _hide,
    "clear_text": _clear,
    "clipboard": lambda d, s: d.set_clipboard("x") or d.clipboard == "x",
    "toast": lambda d, s: d.toast.show("hi") or d.toast.get_message(2) == "hi",
    "open_notification": lambda d, s: d.open_notification() or s.state()["system"]["shade_open"],
    "open_url": lambda d, s: d.open_url("https://example.org") or s.current_app() == "com.simphone.browser",
    "shell": lambda d, s: d.shell("echo hi").output == "hi\n",
    "ps -u shell (server process)": _ps_user,
}


def main() -> None:
    """Try every call on a fresh phone and print the outcome."""
    warnings.simplefilter("ignore", DeprecationWarning)
    sim = SimDevice()
    with AdbServer([sim], port=0) as server:
        d = u2.connect(adbutils.AdbClient(port=server.port).device("simphone-1"))
        ok = 0
        for name, check in CALLS.items():
            _home(d, sim)
            try:
                result = check(d, sim)
                good = bool(result)
                why = "" if good else f" (returned {result!r})"
            except BaseException as exc:  # a failing call (any error, even the client's own) is counted
                good, why = False, f" ({type(exc).__name__}: {str(exc)[:120]})"
            ok += good
            print(f"{'ok  ' if good else 'FAIL'} {name}{why}", flush=True)
        print(f"{ok} of {len(CALLS)} calls work")


if __name__ == "__main__":
    main()
