"""Speed of SimPhone through the ADB front: screenshots, UI dumps and taps per second with AdbDevice
(adbutils' client over loopback TCP), and with the stock adb binary. Prints one figure per line.

    .venv/bin/python benchmarks/adb_speed.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.realphone import AdbDevice
from droidpilot.device.sim.phone import SimDevice


def rate(fn: Callable[[], object], seconds: float) -> tuple[float, float]:
    """(calls per second, mean milliseconds per call) of ``fn`` over about ``seconds``."""
    fn()  # warm up
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        fn()
        n += 1
    return n / elapsed, 1000 * elapsed / n


def measure(seconds: float) -> list[tuple[str, tuple[float, float]]]:
    """(name, (calls per second, ms per call)) for AdbDevice and the adb binary through the front."""
    sim = SimDevice()
    with AdbServer([sim], port=0).start() as server:
        dev = AdbDevice("simphone-1", port=server.port)
        toggle = iter(range(10**9))

        def fresh_screenshot() -> None:
            # app_switch flips launcher <-> recents, so every capture is a frame not seen just before
            dev.key("app_switch") if next(toggle) % 2 else None
            dev.screenshot()

        figures = [
            ("adb screenshot, unchanged screen (PNG cached by SimPhone)", rate(dev.screenshot, seconds)),
            ("adb key + screenshot, screen changes every other call", rate(fresh_screenshot, seconds)),
            ("adb tap", rate(lambda: dev.tap(540, 1500), seconds)),
            ("adb ui_xml (uiautomator dump + cat)", rate(dev.ui_xml, seconds)),
            ("adb current_app (dumpsys window | grep)", rate(dev.current_app, seconds)),
        ]
        adb = Path(str(importlib.resources.files("adbutils.binaries"))) / "adb"
        if adb.exists():
            env = {**os.environ, "ADB_MDNS": "0"}

            def binary_screencap() -> None:
                subprocess.run([str(adb), "-P", str(server.port), "exec-out", "screencap", "-p"],
                               capture_output=True, check=True, env=env)

            def binary_tap() -> None:
                subprocess.run([str(adb), "-P", str(server.port), "shell", "input", "tap", "540", "1500"],
                               capture_output=True, check=True, env=env)

            figures.append(("adb binary: exec-out screencap -p (process start included)",
                            rate(binary_screencap, seconds)))
            figures.append(("adb binary: shell input tap (process start included)",
                            rate(binary_tap, seconds)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each measurement")
    args = parser.parse_args()
    for name, (per_second, ms) in measure(args.seconds):
        print(f"{name}: {per_second:.1f}/s ({ms:.1f} ms each)")


if __name__ == "__main__":
    main()
