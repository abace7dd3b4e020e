"""The screen tools of the SimPhone shell: `input`, `screencap`, `uiautomator dump` and `wm`.

Each behaves like its Android namesake as agents use it: the same arguments, output text, files and exit
codes, so that scripts written for phones parse our answers unchanged.
"""

from __future__ import annotations

import contextlib
import io
import re
import struct
import time

from PIL import Image

from droidpilot.device.adbd.keycodes import keycode
from droidpilot.device.adbd.motion import LONG_PRESS_MS as _LONG_PRESS_MS
from droidpilot.device.adbd.motion import TOUCH_SLOP_PX as _TOUCH_SLOP_PX
from droidpilot.device.adbd.motion import MotionArgsError, motionevent
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.sh import Result, Shell
from droidpilot.device.base import DeviceError

_INPUT_SOURCES = {"keyboard", "mouse", "joystick", "touchnavigation", "touchpad", "trackball", "stylus",
                  "dpad", "gesture", "touchscreen", "gamepad", "rotaryencoder"}
_INPUT_USAGE = (
    "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\nThe commands and default sources are:\n"
    "      text <string> (Default: keyboard)\n"
    "      keyevent [--longpress|--doubletap] <key code number or name>"
    " ... (Default: keyboard)\n      tap <x> <y> (Default: touchscreen)\n"
    "      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n"
    "      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n"
    "      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)\n"
)
# AOSP InputShellCommand.sendSwipe: a missing duration is 300 ms for swipe and draganddrop alike; the shell
# command injects the gesture over that time, so it returns after it (draganddrop first holds for the
# long-press timeout, so it takes at least that long)
DEFAULT_SWIPE_MS = 300
MAX_GESTURE_MS = 60_000  # SimPhone's cap: a longer gesture is refused rather than blocking the shell for it


def _err(text: str, code: int = 1) -> Result:
    return Result(err=text.encode(), code=code)


def _phone(sh: Shell) -> Phone:
    assert isinstance(sh.ctx, Phone)
    return sh.ctx


def _numbers(args: list[str], count: int) -> list[float]:
    vals = [float(a) for a in args[:count]]
    if len(vals) < count:
        raise ValueError("missing arguments")
    return vals


def decode_input_text(text: str) -> str:
    """What `input text` types for its argument: each ``%s`` becomes a space, nothing else changes."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "%" and i + 1 < len(text) and text[i + 1] == "s":
            out.append(" ")
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def tool_input(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`input [source] [-d id] tap|swipe|draganddrop|motionevent|text|keyevent|roll|press ...`."""
    phone = _phone(sh)
    if args and args[0] in _INPUT_SOURCES:
        args = args[1:]
    if len(args) >= 2 and args[0] == "-d":
        args = args[2:]
    if not args:
        return _err(_INPUT_USAGE)
    cmd, rest = args[0], args[1:]
    dev = phone.device
    wall_ms = 0  # how long the command takes: a swipe's injection time
    try:
        with phone.lock:
            if cmd == "tap":
                x, y = _numbers(rest, 2)
                if _on_screen(phone, x, y):  # Android drops touches outside the display silently
                    dev.tap(*phone.to_device(x, y))
            elif cmd in ("swipe", "draganddrop"):
                x1, y1, x2, y2 = _numbers(rest, 4)
                dur = gesture_ms(rest[4] if len(rest) > 4 else None)
                a, b = phone.to_device(x1, y1)
                c, d = phone.to_device(x2, y2)
                still = abs(x1 - x2) <= _TOUCH_SLOP_PX and abs(y1 - y2) <= _TOUCH_SLOP_PX
                if not _on_screen(phone, x1, y1):
                    pass
                elif still and (dur >= _LONG_PRESS_MS or cmd == "draganddrop"):
                    dev.long_press(a, b, max(dur, _LONG_PRESS_MS))
                elif still:  # down and up in one place before the long-press timeout: a tap on Android
                    dev.tap(a, b)
                else:
                    dev.swipe(a, b, c, d, dur)
                wall_ms = max(dur, _LONG_PRESS_MS) if cmd == "draganddrop" else dur
            elif cmd == "text":
                if not rest:
                    return _err(_INPUT_USAGE)
                text = decode_input_text(rest[0])
                if any(ord(ch) > 126 or (ord(ch) < 32 and ch not in "\n\t") for ch in text):
                    # the virtual keyboard's key map has no keys for these characters
                    return _err("Exception occurred while executing 'text':\n"
                                "java.lang.IllegalArgumentException:"
                                f" no key events for characters in {rest[0]!r}\n", 255)
                dev.type_text(text)
            elif cmd == "keyevent":
                longpress = "--longpress" in rest
                codes = [a for a in rest if not a.startswith("--")]
                if not codes:
                    return _err(_INPUT_USAGE)
                for name in codes:
                    code = keycode(name)
                    if code is None:
                        return _err(f"Exception occurred while executing 'keyevent':\n"
                                    f"java.lang.IllegalArgumentException: Unknown keycode: {name}\n", 255)
                    press_keycode(phone, code, longpress)
            elif cmd == "motionevent":
                motionevent(phone, rest)
            elif cmd in ("press", "roll", "keycombination"):
                return Result()
            else:
                return _err(f"Error: Unknown command: {cmd}\n" + _INPUT_USAGE)
    except (DurationError, MotionArgsError) as exc:
        return _err(f"Error: Invalid arguments for command: {cmd}: {exc}\n" + _INPUT_USAGE)
    except ValueError:
        return _err(f"Error: Invalid arguments for command: {cmd}\n" + _INPUT_USAGE)
    except DeviceError as exc:
        return _err(f"Exception occurred while executing '{cmd}':\n"
                    f"java.lang.IllegalStateException: {exc}\n", 255)
    time.sleep(wall_ms / 1000)  # the phone stays unlocked meanwhile: screenshots and dumps go on
    return Result()


class DurationError(ValueError):
    """The duration of `input swipe|draganddrop` is not a whole number of milliseconds in range."""


def gesture_ms(text: str | None) -> int:
    """The duration argument of `input swipe|draganddrop` in ms: ``DEFAULT_SWIPE_MS`` when absent.

    Android parses it with Integer.parseInt (and quietly takes 300 ms for a negative one); SimPhone refuses
    a negative, fractional or non-numeric duration, and one over ``MAX_GESTURE_MS``, saying which."""
    if text is None:
        return DEFAULT_SWIPE_MS
    shown = repr(text[:40])
    if not re.fullmatch(r"[+-]?[0-9]+", text.strip()):
        raise DurationError(f"duration {shown} is not a whole number of milliseconds (e.g. 500)")
    ms = int(text)
    if ms < 0:
        raise DurationError(f"duration {shown} is negative; give 0 or more milliseconds")
    if ms > MAX_GESTURE_MS:
        raise DurationError(f"duration {shown} is over SimPhone's {MAX_GESTURE_MS} ms limit for one gesture")
    return ms


_CORE_KEYS = {3: "home", 4: "back", 66: "enter", 160: "enter", 187: "app_switch"}
_EXTRA_KEYS = {67: "del", 92: "page_up", 93: "page_down", 82: "menu", 84: "search"}


def _on_screen(phone: Phone, x: float, y: float) -> bool:
    w, h = phone.display_size()
    return 0 <= x < w and 0 <= y < h


def press_keycode(phone: Phone, code: int, longpress: bool = False) -> None:
    """Send an Android key code to the phone; codes the phone has no use for do nothing, as on Android."""
    if code in _CORE_KEYS:
        phone.device.key(_CORE_KEYS[code])  # type: ignore[arg-type]
    elif code in _EXTRA_KEYS:
        with contextlib.suppress(DeviceError):  # a Device without this key: the event has no effect
            phone.device.key(_EXTRA_KEYS[code])  # type: ignore[arg-type]


def screen_png(phone: Phone) -> bytes:
    """The current screen as PNG bytes at display size."""
    encoded = getattr(phone.device, "screenshot_png", None)
    if phone.override_size is None and callable(encoded):
        with phone.lock:
            data = encoded()
        assert isinstance(data, bytes)
        return data
    img = screen_image(phone)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def screen_image(phone: Phone) -> Image.Image:
    """The current screen, scaled to the `wm size` override when one is set."""
    with phone.lock:
        img = phone.device.screenshot()
    if phone.override_size and img.size != phone.override_size:
        img = img.resize(phone.override_size, Image.Resampling.BILINEAR)
    return img


def tool_screencap(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`screencap [-p] [-d id] [FILE]`: PNG with -p or a .png name, raw RGBA otherwise."""
    phone = _phone(sh)
    png = "-p" in args
    files = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "-d")]
    if any(a.startswith("-") and a not in ("-p", "-d", "-a") for a in args):
        return _err("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
    target = files[0] if files else None
    if target and target.endswith(".png"):
        png = True
    try:
        if png:
            data = screen_png(phone)
        else:
            img = screen_image(phone).convert("RGBA")
            data = struct.pack("<IIII", img.width, img.height, 1, 0) + img.tobytes()
    except DeviceError as exc:
        return _err(f"Error: screenshot failed: {exc}\n")
    if target is None:
        return Result(out=data)
    try:
        sh.fs.write(_abs(sh, target), data)  # type: ignore[attr-defined]
    except OSError as exc:
        return _err(f"Error opening file: {target} ({exc})\n")
    return Result()


_BOUNDS = re.compile(r'bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"')


def window_xml(phone: Phone) -> str:
    """The uiautomator dump of the current screen, bounds in display (override) coordinates."""
    with phone.lock:
        xml = phone.device.ui_xml()
    if not phone.override_size:
        return xml
    pw, ph = phone.physical_size()
    ow, oh = phone.override_size

    def scale(m: re.Match[str]) -> str:
        x1, y1, x2, y2 = (int(v) for v in m.groups())
        return (f'bounds="[{round(x1 * ow / pw)},{round(y1 * oh / ph)}]'
                f'[{round(x2 * ow / pw)},{round(y2 * oh / ph)}]"')

    return _BOUNDS.sub(scale, xml)


def tool_uiautomator(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`uiautomator dump [--compressed] [FILE]` (default /sdcard/window_dump.xml; /dev/tty prints it)."""
    if not args or args[0] != "dump":
        return _err("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
                    "help: displays help message\n\ndump: creates an XML dump of current UI hierarchy\n")
    files = [a for a in args[1:] if not a.startswith("--")]
    target = files[0] if files else "/sdcard/window_dump.xml"
    try:
        xml = window_xml(_phone(sh))
    except DeviceError as exc:
        return _err(f"ERROR: could not get idle state. ({exc})\n")
    done = f"UI hierchary dumped to: {target}\n".encode()
    if target in ("/dev/tty", "/dev/stdout"):
        return Result(out=xml.encode("utf-8") + done)
    try:
        sh.fs.write(_abs(sh, target), xml.encode("utf-8"))  # type: ignore[attr-defined]
    except OSError as exc:
        return _err(f"ERROR: could not write {target}: {exc}\n")
    return Result(out=done)


def tool_wm(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`wm size [WxH|reset]`, `wm density`."""
    phone = _phone(sh)
    if not args or args[0] not in ("size", "density"):
        return _err("Window manager (window) commands:\n  size [reset|WxH|WdpxHdp]\n"
                    "  density [reset|DENSITY]\n")
    if args[0] == "density":
        return Result(out=b"Physical density: 420\n")
    if len(args) == 1:
        w, h = phone.physical_size()
        text = f"Physical size: {w}x{h}\n"
        if phone.override_size:
            text += f"Override size: {phone.override_size[0]}x{phone.override_size[1]}\n"
        return Result(out=text.encode())
    if args[1] == "reset":
        phone.override_size = None
        return Result()
    m = re.fullmatch(r"(\d+)x(\d+)", args[1])
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        return _err(f"Error: bad size {args[1]}\n", 255)
    size = (int(m.group(1)), int(m.group(2)))
    phone.override_size = None if size == phone.physical_size() else size
    return Result()


def _abs(sh: Shell, path: str) -> str:
    return path if path.startswith("/") else f"{sh.cwd.rstrip('/')}/{path}"
