"""AdbDevice: a real phone, an emulator or a SimPhone behind `droidpilot sim serve`, driven over adb.

Built on adbutils' client (its connections, errors and sync protocol); screenshots come from
``screencap -p`` through exec-out, UI trees from ``uiautomator dump``, text from ``input text`` or the
ADBKeyboard broadcast. A dropped connection is retried once; every failure says why, in the device's words.
"""

from __future__ import annotations

import contextlib
import html
import io
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import adbutils
from adbutils._adb import AdbConnection
from PIL import Image, UnidentifiedImageError

from droidpilot.device.base import DeviceError, Key
from droidpilot.device.realphone import input as adb_input
from droidpilot.device.realphone.apps import resolve_package
from droidpilot.device.realphone.errors import command_failed, device_error, is_dropped

T = TypeVar("T")
KEYCODES: dict[str, int] = {"back": 4, "home": 3, "enter": 66, "app_switch": 187, "del": 67, "page_up": 92,
                            "page_down": 93, "menu": 82, "search": 84}
DUMP_PATH = "/sdcard/window_dump.xml"
_MAX_LINE = 900  # characters per shell command line (old adbd accepts 4 KiB requests)
_IDLE_RETRIES = 3


@dataclass
class ShellResult:
    """What a shell command printed and its exit status (None when the device cannot tell)."""

    out: bytes
    err: bytes
    code: int | None

    @property
    def text(self) -> str:
        """stdout then stderr, decoded."""
        return (self.out + self.err).decode("utf-8", "replace")


class _NoSpawnConnection(AdbConnection):
    """An adbutils connection that fails instead of starting a local adb server when none answers."""

    def _safe_connect(self):  # type: ignore[no-untyped-def]
        return self._create_socket()


class _Client(adbutils.AdbClient):
    """adbutils' client; with ``spawn=False`` it never launches `adb start-server` behind our back."""

    def __init__(self, host: str, port: int, timeout: float, spawn: bool) -> None:
        super().__init__(host=host, port=port, socket_timeout=timeout)
        self._spawn = spawn
        self._timeout = timeout

    def make_connection(self, timeout: float | None = None) -> AdbConnection:
        """A connection to the adb server (never spawning one unless allowed)."""
        if self._spawn:
            return super().make_connection(timeout)
        c = _NoSpawnConnection(self.host, self.port)
        c.conn.settimeout(timeout or self._timeout)
        return c


def parse_size(wm_size: str, dumpsys: str = "") -> tuple[int, int]:
    """(width, height) from `wm size` (the override wins) and the rotation in `dumpsys input|window`."""
    sizes = dict(re.findall(r"(Physical|Override) size:\s*(\d+x\d+)", wm_size))
    chosen = sizes.get("Override") or sizes.get("Physical")
    if not chosen:
        shown = wm_size.strip()[:200] or "no output"
        raise DeviceError(f"cannot read the screen size from `wm size`: {shown}")
    w, h = (int(v) for v in chosen.split("x"))
    m = (re.search(r"SurfaceOrientation:\s*(\d)", dumpsys) or re.search(r"\borientation=(\d)", dumpsys)
         or re.search(r"mCurrentRotation=(?:ROTATION_)?(\d+)", dumpsys))
    rotation = int(m.group(1)) if m else 0
    if rotation in (1, 3, 90, 270):
        w, h = h, w
    return w, h


def list_serials(host: str = "127.0.0.1", port: int = 5037) -> list[str]:
    """Serials of the devices the adb server at host:port lists as ready."""
    client = _Client(host, port, 10.0, spawn=False)
    try:
        return [d.serial for d in client.list() if d.state == "device"]
    except Exception as exc:
        raise device_error("adb", "listing devices", exc, f"{host}:{port}") from exc


class AdbDevice:
    """A phone behind an adb server (default: the local one on 5037); implements the Device protocol."""

    def __init__(self, serial: str | None = None, host: str = "127.0.0.1", port: int = 5037, *,
                 timeout: float = 30.0, start_server: bool = False) -> None:
        """``start_server=True`` lets adbutils run `adb start-server` when nothing answers (port 5037 only);
        by default a missing server is an error that says so, and nothing is left running behind anyone."""
        self.host, self.port = host, port
        self._where = f"{host}:{port}"
        self._client = _Client(host, port, timeout, spawn=start_server and port == 5037)
        if serial is None:
            try:
                serials = [d.serial for d in self._client.list() if d.state == "device"]
            except Exception as exc:
                raise device_error("adb", "listing devices", exc, self._where) from exc
            if len(serials) != 1:
                found = ", ".join(serials) or "none"
                raise DeviceError(f"pick a device with a serial: the adb server at {self._where} lists "
                                  f"{len(serials)} ready devices ({found})")
            serial = serials[0]
        self.serial: str = serial
        self._features: set[str] | None = None

    # ---- plumbing --------------------------------------------------------------------------------
    def _retry(self, what: str, op: Callable[[], T], idempotent: bool = True) -> T:
        """Run ``op``; on a dropped connection reconnect once (non-idempotent ops only if nothing ran)."""
        try:
            return op()
        except DeviceError:
            raise
        except Exception as exc:
            if not is_dropped(exc) or (not idempotent and getattr(exc, "_dp_started", False)):
                raise device_error(self.serial, what, exc, self._where) from exc
            first = exc
        time.sleep(0.3)
        try:
            return op()
        except DeviceError:
            raise
        except Exception as exc:
            raise device_error(self.serial, what, exc, self._where, retried=True) from first

    def _open(self, service: str) -> AdbConnection:
        c = self._client.make_connection()
        try:
            c.send_command(f"host:transport:{self.serial}")
            c.check_okay()
            c.send_command(service)
            c.check_okay()
        except BaseException:
            c.close()
            raise
        return c

    def features(self) -> set[str]:
        """The feature list the device (and server) advertise, e.g. ``shell_v2``."""
        if self._features is None:
            def op() -> set[str]:
                with self._client.make_connection() as c:
                    c.send_command(f"host-serial:{self.serial}:features")
                    c.check_okay()
                    return set(c.read_string_block().split(","))
            self._features = self._retry("reading features", op)
        return self._features

    def shell(self, command: str, *, idempotent: bool = True) -> ShellResult:
        """Run a shell command line; stdout, stderr and the exit status (shell v2 when available)."""
        v2 = "shell_v2" in self.features()

        def op() -> ShellResult:
            c = self._open(f"shell,v2,raw:{command}" if v2 else f"shell:{command}; echo DPEXIT:$?")
            try:
                if v2:
                    return _read_v2(c)
                raw = _read_all(c)
                m = re.search(rb"DPEXIT:(\d+)\s*$", raw)
                if m is None:
                    return ShellResult(raw, b"", None)
                return ShellResult(raw[:m.start()], b"", int(m.group(1)))
            except BaseException as exc:
                exc._dp_started = True  # type: ignore[attr-defined]
                raise
            finally:
                _close(c)

        return self._retry(f"`{command[:80]}`", op, idempotent)

    def exec_out(self, command: str) -> bytes:
        """The raw stdout of a command (``exec:``, binary clean; stderr is mixed in by adbd)."""
        def op() -> bytes:
            c = self._open(f"exec:{command}")
            try:
                return _read_all(c)
            finally:
                _close(c)
        return self._retry(f"`{command[:80]}`", op)

    def _check(self, command: str, *, idempotent: bool = False) -> str:
        res = self.shell(command, idempotent=idempotent)
        text = res.text
        if (res.code not in (0, None)) or "Exception occurred" in text or "Error:" in text:
            raise command_failed(self.serial, command, text, res.code)
        return res.out.decode("utf-8", "replace")

    # ---- the Device protocol -----------------------------------------------------------------------
    def screenshot(self) -> Image.Image:
        """The screen as screencap's PNG, decoded to RGB."""
        data = self.exec_out("screencap -p")
        if not data.startswith(b"\x89PNG"):
            raise command_failed(self.serial, "screencap -p", data[:300].decode("utf-8", "replace"))
        try:
            img = Image.open(io.BytesIO(data))
            img.load()
        except (UnidentifiedImageError, OSError) as exc:
            raise command_failed(self.serial, "screencap -p", f"unreadable PNG ({exc})") from exc
        return img if img.mode == "RGB" else img.convert("RGB")

    def ui_xml(self) -> str:
        """A uiautomator dump; retried while the screen is animating ("could not get idle state")."""
        last = ""
        for attempt in range(_IDLE_RETRIES):
            # remove the previous dump first: a failed dump must not leave a stale file to read
            res = self.shell(f"rm -f {DUMP_PATH}; uiautomator dump {DUMP_PATH} && cat {DUMP_PATH}")
            text = res.text
            start = min((i for i in (text.find("<?xml"), text.find("<hierarchy")) if i >= 0), default=-1)
            if start >= 0 and res.code in (0, None) and "</hierarchy>" in text:
                return text[start:text.rindex("</hierarchy>") + len("</hierarchy>")]
            last = text
            if attempt == _IDLE_RETRIES - 1 or ("idle state" not in text and attempt):
                break
            time.sleep(0.4 * (attempt + 1))
        raise command_failed(self.serial, f"uiautomator dump {DUMP_PATH}", last)

    def size(self) -> tuple[int, int]:
        """Screen size in the current rotation, honouring a `wm size` override."""
        res = self.shell("wm size; dumpsys input | grep -E 'SurfaceOrientation|orientation='")
        text = res.out.decode("utf-8", "replace")
        return parse_size(text, text)

    def tap(self, x: int, y: int) -> None:
        """`input tap x y`."""
        self._check(f"input tap {int(x)} {int(y)}")

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        """A swipe that stays put for ``duration_ms`` (Android's long press)."""
        self._check(f"input swipe {int(x)} {int(y)} {int(x)} {int(y)} {int(duration_ms)}")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """`input swipe x1 y1 x2 y2 duration`."""
        self._check(f"input swipe {int(x1)} {int(y1)} {int(x2)} {int(y2)} {int(duration_ms)}")

    def type_text(self, text: str) -> None:
        """ASCII through `input text` (escaped for sh and for `%s`), anything else through ADBKeyboard."""
        if not text:
            return
        if adb_input.is_plain_ascii(text):
            batch: list[str] = []
            for cmd in adb_input.input_text_commands(text):
                if batch and sum(len(c) + 4 for c in batch) + len(cmd) > _MAX_LINE:
                    self._check(" && ".join(batch))
                    batch = []
                batch.append(cmd)
            self._check(" && ".join(batch))
            return
        ime = self.shell("settings get secure default_input_method").out.decode("utf-8", "replace").strip()
        if not adb_input.is_adb_keyboard(ime):
            raise DeviceError(f"{self.serial}: {adb_input.INSTALL_HINT} The active input method is "
                              f"{ime or 'unknown'!r}.")
        out = self._check(adb_input.ime_broadcast_command(text))
        if "Broadcast completed" not in out:
            raise command_failed(self.serial, "am broadcast -a ADB_INPUT_B64", out)

    def key(self, key: Key) -> None:
        """back, home, enter, app_switch (and del, page_up, page_down, menu, search) as `input keyevent`."""
        code = KEYCODES.get(str(key))
        if code is None:
            raise DeviceError(f"unknown key {key!r}: use one of {', '.join(KEYCODES)}")
        self._check(f"input keyevent {code}")

    def packages(self) -> list[str]:
        """Installed packages (`pm list packages`)."""
        out = self._check("pm list packages", idempotent=True)
        return [ln[len("package:"):].strip() for ln in out.splitlines() if ln.startswith("package:")]

    def open_app(self, name_or_package: str) -> None:
        """Launch an app by package or by name through its launcher activity (`monkey -p`); a label no
        package resolves (e.g. a Chinese app name) is looked up among the home screen's icons instead."""
        try:
            pkg = resolve_package(name_or_package, self.packages())
        except DeviceError as exc:
            if not self._tap_launcher_icon(name_or_package):
                raise DeviceError(f"{self.serial}: {exc}; no home-screen icon is labelled "
                                  f"{name_or_package!r} either") from None
            return
        res = self.shell(f"monkey -p {pkg} -c android.intent.category.LAUNCHER 1", idempotent=False)
        if "Events injected: 1" not in res.text:
            raise command_failed(self.serial, f"monkey -p {pkg}", res.text, res.code)

    def _tap_launcher_icon(self, label: str) -> bool:
        """Go home and tap the icon whose text or content-desc is ``label``; True if an app came up."""
        self.key("home")
        launcher = self.current_app()
        want = label.strip().casefold()
        for m in re.finditer(r"<node\b[^>]*>", self.ui_xml()):
            attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(0)))
            names = {html.unescape(attrs.get("text", "")).casefold(),
                     html.unescape(attrs.get("content-desc", "")).casefold()}
            box = re.fullmatch(r"\[(\d+),(\d+)\]\[(\d+),(\d+)\]", attrs.get("bounds", ""))
            if want in names and attrs.get("clickable") == "true" and box:
                x1, y1, x2, y2 = (int(v) for v in box.groups())
                self.tap((x1 + x2) // 2, (y1 + y2) // 2)
                return self.current_app() != launcher
        return False

    def current_app(self) -> str:
        """The package of the focused window (`dumpsys window`), else the resumed activity's."""
        for cmd in ("dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'",
                    "dumpsys activity activities | grep -E 'mResumedActivity|ResumedActivity'"):
            text = self.shell(cmd).out.decode("utf-8", "replace")
            m = re.search(r"\su\d+\s+([A-Za-z][\w.]*)/", text)
            if m:
                return m.group(1)
        raise DeviceError(f"{self.serial}: cannot tell the foreground app: `dumpsys window` shows no focused "
                          "window (is the screen off or locked?)")

    def wait(self, seconds: float) -> None:
        """Let time pass on the device (`sleep` in its shell, so a simulated phone's clock moves too)."""
        if seconds < 0:
            raise DeviceError(f"cannot wait a negative time ({seconds} s)")
        self._check(f"sleep {float(seconds):.3f}", idempotent=True)

    def __repr__(self) -> str:
        return f"AdbDevice(serial={self.serial!r}, server={self._where})"


def _read_all(c: AdbConnection) -> bytes:
    """Everything until the server closes, in large reads (no quadratic re-copying of a 3 MB PNG)."""
    chunks = []
    while chunk := c.conn.recv(1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _close(c: AdbConnection) -> None:
    """Close a connection whose reply was read to the end (adbutils' close() waits 10 ms per call)."""
    with contextlib.suppress(OSError):
        c.conn.close()


def _read_v2(c: AdbConnection) -> ShellResult:
    out, err = bytearray(), bytearray()
    while True:
        head = c.read_exact(5)
        kind, length = head[0], int.from_bytes(head[1:5], "little")
        data = c.read_exact(length) if length else b""
        if kind == 1:
            out += data
        elif kind == 2:
            err += data
        elif kind == 3:
            return ShellResult(bytes(out), bytes(err), data[0] if data else 255)
