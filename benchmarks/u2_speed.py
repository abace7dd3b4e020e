"""Per-call latency of the uiautomator2 client on SimPhone vs the same work through droidpilot's AdbDevice.

Both drive one SimPhone behind the ADB front on a free loopback port: uiautomator2 through its JSON-RPC
server (``tcp:9008`` device sockets), AdbDevice through `adb shell` commands. Calls: a click (a pair that
opens Display and goes back, halved), a screenshot, a hierarchy dump, and a click by selector (u2:
``d(text=...).click()``; AdbDevice: dump, find the node, tap). One run; prints one figure per line.
Then the per-call latency of the server's less common methods and the shell's package tools (pinchIn and
gesture of 1 step, UiObject relations, waits of 0 ms, toasts; `pm install` of uiautomator2's own APK, its
`dumpsys package`, `ps -A`, `am start` of a VIEW intent).
Run: ``.venv/bin/python benchmarks/u2_speed.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.resources
import io
import re
import statistics
import time
from collections.abc import Callable

import adbutils
import uiautomator2 as u2

from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.realphone import AdbDevice
from droidpilot.device.sim.phone import SimDevice


def _median_ms(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def _center(xml: str, text: str) -> tuple[int, int]:
    pattern = f'(?:text|content-desc)="{re.escape(text)}"' + r'[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"'
    m = re.search(pattern, xml)
    if m is None:
        raise LookupError(f"no node {text!r} on the screen")
    x1, y1, x2, y2 = (int(v) for v in m.groups())
    return (x1 + x2) // 2, (y1 + y2) // 2


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    sim = SimDevice()
    sim.open_app("settings")
    with AdbServer([sim], port=0) as server:
        start = time.perf_counter()
        d = u2.connect(adbutils.AdbClient(port=server.port).device("simphone-1"))
        took = (time.perf_counter() - start) * 1e3
        print(f"u2.connect (push u2.jar, start the server, first ping): {took:.0f} ms")
        client = adbutils.AdbClient(port=server.port)
        floor = _median_ms(client.server_version, args.rounds)
        print(f"floor: one adbutils host:version round trip {floor:.1f} ms (the client opens one per "
              "HTTP call before its tcp:9008 socket, and adbutils sleeps 10 ms closing each)")
        adb = AdbDevice("simphone-1", port=server.port)
        row, up = _center(sim.ui_xml(), "Display"), (80, 188)
        sim.tap(*row)
        up = _center(sim.ui_xml(), "Navigate up")
        sim.tap(*up)
        figures = {
            "click": (lambda: (d.click(*row), d.click(*up)), lambda: (adb.tap(*row), adb.tap(*up)), 2),
            "screenshot": (d.screenshot, adb.screenshot, 1),
            "dump": (d.dump_hierarchy, adb.ui_xml, 1),
            "selector click": (lambda: (d(text="Display").click(), d(description="Navigate up").click()),
                               lambda: (adb.tap(*_center(adb.ui_xml(), "Display")),
                                        adb.tap(*_center(adb.ui_xml(), "Navigate up"))), 2),
        }
        for name, (via_u2, via_adb, calls) in figures.items():
            u2_ms = _median_ms(via_u2, args.rounds) / calls
            adb_ms = _median_ms(via_adb, args.rounds) / calls
            print(f"{name}: uiautomator2 {u2_ms:.1f} ms, AdbDevice {adb_ms:.1f} ms "
                  f"(u2/adb {u2_ms / adb_ms:.2f})")
        if sim.state()["foreground"]["screen"] != "main":
            raise SystemExit("the clicks did not leave Settings where they started: "
                             "figures are not comparable")
        _more_methods(d, args.rounds)


def _more_methods(d: u2.Device, rounds: int) -> None:
    """Per-call latency of the less common JSON-RPC methods and of the package/process shell tools."""
    sel = d(text="Display").selector
    name = d.jsonrpc.getUiObject(sel)
    point = {"x": 300, "y": 900}
    calls: dict[str, Callable[[], object]] = {
        "pinchIn (1 step)": lambda: d.jsonrpc.pinchIn(sel, 50, 1),
        "gesture (1 step)": lambda: d.jsonrpc.gesture(sel, point, point, point, point, 1),
        "getUiObject": lambda: d.jsonrpc.getUiObject(sel),
        "getParent": lambda: d.jsonrpc.getParent(name),
        "getChild": lambda: d.jsonrpc.getChild(name, {"mask": 1, "text": "Display"}),
        "getFromParent": lambda: d.jsonrpc.getFromParent(name, {"mask": 1, "text": "Display"}),
        "getClassName": lambda: d.jsonrpc.getClassName(name),
        "waitForIdle": lambda: d.jsonrpc.waitForIdle(0),
        "waitForWindowUpdate (0 ms)": lambda: d.jsonrpc.waitForWindowUpdate(None, 0),
        "setToastListener": lambda: d.jsonrpc.setToastListener(True),
        "getLastToast": lambda: d.jsonrpc.getLastToast(),
        "dumpsys package": lambda: d.shell(["dumpsys", "package", "com.github.uiautomator"]),
        "ps -A": lambda: d.shell(["ps", "-A"]),
        "am start VIEW https": lambda: d.shell(["am", "start", "-a", "android.intent.action.VIEW", "-d",
                                                "https://example.org/"]),
    }
    apk = str(importlib.resources.files("uiautomator2") / "assets/app-uiautomator.apk")
    with contextlib.redirect_stdout(io.StringIO()):  # adbutils prints each install's progress
        install_ms = _median_ms(lambda: d.app_install(apk), max(1, rounds // 4))
    print(f"app_install of app-uiautomator.apk (push + pm install): {install_ms:.1f} ms")
    for label, fn in calls.items():
        print(f"{label}: {_median_ms(fn, rounds):.1f} ms")


if __name__ == "__main__":
    main()
