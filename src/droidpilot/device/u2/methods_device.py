"""The device-wide methods of the uiautomator server: info, dump, screenshot, touches, keys, clipboard."""

from __future__ import annotations

import base64
import io
import time
import xml.etree.ElementTree as ET
from typing import Any

from PIL import Image

from droidpilot.device.adbd.tools_input import screen_image
from droidpilot.device.base import DeviceError
from droidpilot.device.u2.args import (
    gesture_steps,
    hold_ms,
    java_int,
    jpeg_quality,
    key_code,
    meta_state,
    number,
    screenshot_scale,
)
from droidpilot.device.u2.rpc import Method, java_error
from droidpilot.device.u2.session import Session

DENSITY = 420  # ro.sf.lcd_density of SimPhone
_KEYS = {"home": 3, "back": 4, "left": 21, "right": 22, "up": 19, "down": 20, "center": 23, "menu": 82,
         "search": 84, "enter": 66, "delete": 67, "del": 67, "recent": 187, "volume_up": 24,
         "volume_down": 25, "volume_mute": 164, "camera": 27, "power": 26}
ACTION_DOWN, ACTION_UP, ACTION_MOVE = 0, 1, 2


def device_methods(s: Session) -> dict[str, Method]:
    """Method name -> function, bound to one server session."""
    phone = s.phone

    def device_info() -> dict[str, Any]:
        w, h = phone.display_size()
        with phone.lock:
            pkg = phone.device.current_app()
        return {"currentPackageName": pkg, "displayWidth": w, "displayHeight": h, "displayRotation": 0,
                "displaySizeDpX": round(w * 160 / DENSITY), "displaySizeDpY": round(h * 160 / DENSITY),
                "naturalOrientation": True, "productName": "simphone", "screenOn": True,
                "sdkInt": int(phone.props["ro.build.version.sdk"])}

    def dump(compressed: bool = False, max_depth: int = 50, root_in_active: bool | None = None) -> str:
        xml = s.xml()
        depth = java_int(max_depth, "maxDepth", 0) if max_depth else 50
        return xml if _depth(xml) <= depth else _prune(xml, depth)

    def screenshot(scale: float = 1.0, quality: int = 100) -> str:
        k, q = screenshot_scale(scale), jpeg_quality(quality)
        try:
            img = screen_image(phone).convert("RGB")
        except DeviceError as exc:
            raise java_error("java.lang.IllegalStateException", f"screenshot failed: {exc}") from None
        if k != 1.0:
            img = img.resize((max(1, round(img.width * k)), max(1, round(img.height * k))),
                             Image.Resampling.BILINEAR)
        buf = io.BytesIO()
        img.save(buf, format="JPEG", quality=q)
        return base64.b64encode(buf.getvalue()).decode("ascii")

    def click(*args: Any) -> bool:
        if args and not isinstance(args[0], (int, float)):  # click(selector[, corner])
            return s.tap(*s.find(args[0]).center)
        if len(args) not in (2, 3):
            raise java_error("java.lang.IllegalArgumentException", "click takes (x, y[, ms]) or (selector)")
        return s.tap(number(args[0], "x"), number(args[1], "y"),
                     hold_ms(args[2]) if len(args) == 3 else 0)

    def long_click(*args: Any) -> bool:
        if args and not isinstance(args[0], (int, float)):
            return s.tap(*s.find(args[0]).center, hold_ms=800)
        if len(args) not in (2, 3):
            raise java_error("java.lang.IllegalArgumentException",
                             "longClick takes (x, y[, ms]) or (selector)")
        return s.tap(number(args[0], "x"), number(args[1], "y"),
                     hold_ms(args[2]) if len(args) > 2 else 800)

    def swipe(fx: float, fy: float, tx: float, ty: float, steps: int = 55) -> bool:
        return s.swipe(fx, fy, tx, ty, gesture_steps(steps))

    def swipe_points(points: list[int], steps: int = 100) -> bool:
        if not isinstance(points, list) or len(points) < 4 or len(points) % 2:
            raise java_error("java.lang.IllegalArgumentException",
                             "swipePoints needs a list of x,y pairs (2 or more)")
        xy = [number(p, f"points[{i}]") for i, p in enumerate(points)]
        segments = len(xy) // 2 - 1
        return s.swipe(xy[0], xy[1], xy[-2], xy[-1], gesture_steps(steps, segments), segments=segments)

    def drag(sx: float, sy: float, ex: float, ey: float, steps: int = 100) -> bool:
        return s.swipe(sx, sy, ex, ey, gesture_steps(steps))

    def inject(action: int, x: float, y: float, meta: int = 0) -> bool:
        if action == ACTION_DOWN:
            s.touch, s.touch_last = (x, y, time.monotonic()), (x, y)
            return True
        if action == ACTION_MOVE:
            s.touch_last = (x, y)
            return s.touch is not None
        if action != ACTION_UP or s.touch is None:
            return False
        x0, y0, t0 = s.touch
        s.touch = s.touch_last = None
        held = int((time.monotonic() - t0) * 1000)
        if abs(x - x0) <= 8 and abs(y - y0) <= 8:  # the client held it already: no waiting again
            return s.tap(x0, y0, held, wait=False)
        return s.swipe(x0, y0, x, y, max(2, held // 5), wait=False)

    def press_key(name: str) -> bool:
        code = _KEYS.get(str(name).lower())
        if code is None:
            raise java_error("java.lang.IllegalArgumentException", f"unknown key name {name!r}; known: "
                             + ", ".join(sorted(_KEYS)))
        return s.key(code)

    def press_key_code(code: int, meta: int = 0) -> bool:
        code, _meta = key_code(code), meta_state(meta)  # SimPhone's keys ignore the meta state
        return s.key(code)

    def open_shade() -> bool:
        w, _ = phone.display_size()
        return s.swipe(w / 2, 5, w / 2, phone.display_size()[1] * 0.6, 40)

    def set_orientation(value: str) -> None:
        if str(value) not in ("natural", "n", "0"):
            raise java_error("java.lang.UnsupportedOperationException",
                             f"SimPhone's display is fixed in portrait; cannot rotate to {value!r}")

    def sleep() -> None:
        raise java_error("java.lang.UnsupportedOperationException", "SimPhone's screen stays on")

    def make_toast(text: str, duration_ms: float = 1000) -> bool:
        show = getattr(phone.device, "show_toast", None)
        if not callable(show):
            return False
        with phone.lock:
            show(str(text))
        if s.toast_listener:
            s.last_toast = str(text)
        s.toast_seen = str(text)
        return True

    def get_last_toast(cache_duration: int = 5000) -> str | None:
        java_int(cache_duration, "cacheDuration", 0, 2**63 - 1)
        s.nodes()  # a toast on screen now becomes the last one
        return s.last_toast

    def clear_last_toast() -> bool:
        s.last_toast = None
        return True

    def set_clipboard(label: str | None, text: str) -> None:
        phone.clipboard = "" if text is None else str(text)

    def paste() -> None:
        if phone.clipboard:
            s.type_text(phone.clipboard)

    def clear_input() -> None:
        field = s.focused_field()
        for _ in range(len(field.get("text")) if field is not None else 0):
            s.key(67)

    return {
        "deviceInfo": device_info, "dumpWindowHierarchy": dump, "takeScreenshot": screenshot,
        "click": click, "longClick": long_click, "swipe": swipe, "swipePoints": swipe_points, "drag": drag,
        "injectInputEvent": inject, "pressKey": press_key, "pressKeyCode": press_key_code,
        "wakeUp": lambda: None, "sleep": sleep, "setOrientation": set_orientation,
        "freezeRotation": lambda freeze=True: None,
        "getLastTraversedText": lambda: None, "clearLastTraversedText": lambda: None,
        "makeToast": make_toast, "getLastToast": get_last_toast, "clearLastToast": clear_last_toast,
        "openNotification": open_shade, "openQuickSettings": open_shade,
        "getClipboard": lambda: phone.clipboard, "setClipboard": set_clipboard, "pasteClipboard": paste,
        "clearInputText": clear_input, "ping": lambda: "pong",
    }


def _depth(xml: str) -> int:
    depth = best = 0
    for event, _ in ET.iterparse(io.BytesIO(xml.encode("utf-8")), events=("start", "end")):
        depth += 1 if event == "start" else -1
        best = max(best, depth)
    return best - 1  # the <hierarchy> root is not a node


def _prune(xml: str, max_depth: int) -> str:
    """The dump with nodes deeper than ``max_depth`` left out."""
    root = ET.fromstring(xml.encode("utf-8"))

    def cut(el: ET.Element, level: int) -> None:
        for child in list(el):
            if level >= max_depth:
                el.remove(child)
            else:
                cut(child, level + 1)

    cut(root, 0)
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" + body
