"""One phone as the ADB front sees it: the Device, a lock, its /sdcard, settings, properties and display.

The front serialises calls per phone (a Device is not thread-safe) and keeps the parts of Android that the
simulator does not model itself: files, `settings`, system properties, a `wm size` override.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from droidpilot.device.adbd.pkgdb import Installed
from droidpilot.device.adbd.ports import PortTable
from droidpilot.device.adbd.vfs import Vfs
from droidpilot.device.base import Device

ADB_IME = "com.android.adbkeyboard/.AdbIME"
LATIN_IME = "com.android.inputmethod.latin/.LatinIME"


def _default_settings() -> dict[str, dict[str, str]]:
    return {
        "secure": {
            "default_input_method": ADB_IME,
            "enabled_input_methods": f"{LATIN_IME}:{ADB_IME}",
            "android_id": "5d1f0e2a9c3b7a41",
        },
        "system": {"accelerometer_rotation": "0", "user_rotation": "0", "screen_brightness": "128",
                   "screen_off_timeout": "600000"},
        "global": {"adb_enabled": "1", "development_settings_enabled": "1", "stay_on_while_plugged_in": "7",
                   "window_animation_scale": "1.0", "transition_animation_scale": "1.0",
                   "animator_duration_scale": "1.0"},
    }


@dataclass
class Phone:
    """A Device served over ADB, with the state the front keeps for it."""

    serial: str
    transport_id: int
    device: Device
    lock: threading.RLock = field(default_factory=threading.RLock)
    fs: Vfs = field(default_factory=Vfs)
    settings: dict[str, dict[str, str]] = field(default_factory=_default_settings)
    override_size: tuple[int, int] | None = None
    ports: PortTable = field(default_factory=PortTable)  # TCP ports programs on the phone listen on
    clipboard: str = ""  # the primary clip's text (set and read through the uiautomator server)
    pids: dict[str, int] = field(default_factory=dict)  # running app package -> its pid (see `ps`)
    pid_starts: dict[str, int | None] = field(default_factory=dict)  # package -> the device's start
    # number its pid was given for (a new start gets a new pid; see tools_process.processes)
    programs: dict[int, tuple[str, str]] = field(default_factory=dict)  # pid -> (user, name) run from a shell
    installed: dict[str, Installed] = field(default_factory=dict)  # packages added with `pm install`
    realtime: bool = False  # let the phone's clock follow the wall clock between requests
    touch: Any = None  # the pointer `input motionevent DOWN` holds down until UP (motion.Pointer)
    _clock: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        follow = getattr(self.device, "follow_wall_clock", None)
        if self.realtime and callable(follow):  # the wall clock, passed on by catch_up, is the only time
            follow()

    def catch_up(self) -> None:
        """With ``realtime``, pass the wall-clock time since the last request to the phone's own clock."""
        if not self.realtime:
            return
        with self.lock:
            now = time.monotonic()
            elapsed, self._clock = now - self._clock, now
            if elapsed > 0:
                self.device.wait(elapsed)

    @property
    def props(self) -> dict[str, str]:
        """System properties as `getprop` prints them."""
        w, h = self.physical_size()
        return {
            "ro.product.model": "SimPhone",
            "ro.product.name": "simphone",
            "ro.product.device": "simphone",
            "ro.product.brand": "droidpilot",
            "ro.product.manufacturer": "droidpilot",
            "ro.product.cpu.abi": "x86_64",
            "ro.build.version.release": "14",
            "ro.build.version.sdk": "34",
            "ro.build.type": "user",
            "ro.build.fingerprint": "droidpilot/simphone/simphone:14/SIM1.0/1:user/release-keys",
            "ro.serialno": self.serial,
            "ro.sf.lcd_density": "420",
            "ro.boot.qemu": "0",
            "ro.kernel.qemu": "0",
            "persist.sys.locale": "en-US",
            "sys.boot_completed": "1",
            "init.svc.adbd": "running",
            "debug.droidpilot.screen": f"{w}x{h}",
        }

    def physical_size(self) -> tuple[int, int]:
        """The panel's (width, height) in pixels."""
        with self.lock:
            w, h = self.device.size()
        return int(w), int(h)

    def display_size(self) -> tuple[int, int]:
        """The size apps and screenshots see: the `wm size` override if one is set."""
        return self.override_size or self.physical_size()

    def to_device(self, x: float, y: float) -> tuple[int, int]:
        """Map display coordinates (override space) to the panel's pixels."""
        if self.override_size is None:
            return round(x), round(y)
        pw, ph = self.physical_size()
        ow, oh = self.override_size
        return round(x * pw / ow), round(y * ph / oh)

    def input_methods(self) -> list[str]:
        """Every input method's id: the system's two, then those of installed packages."""
        extra = [f"{p}/{svc}" for p, rec in self.installed.items() for svc in rec.info.input_methods]
        return [LATIN_IME, ADB_IME, *extra]

    @property
    def ime(self) -> str:
        """The active input method's id."""
        return self.settings["secure"].get("default_input_method", "")

    def describe(self) -> str:
        """The `adb devices -l` tail for this phone."""
        return (f"product:simphone model:SimPhone device:simphone transport_id:{self.transport_id}")
