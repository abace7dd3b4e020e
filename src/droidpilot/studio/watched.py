"""A Device wrapper that serialises calls and tells listeners when the screen may have changed.

The studio drives one phone from several threads (the agent's, the web server's); every call goes through
one lock, and every input call bumps ``version`` and notifies, so viewers get a new frame at once (push)
instead of polling. A real phone also changes on its own, which the session covers by polling.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from droidpilot.device.base import Device

Listener = Callable[[], None]


class WatchedDevice:
    """Implements ``Device`` over ``inner``; input calls notify the listeners after they are done."""

    def __init__(self, inner: Device) -> None:
        self.inner = inner
        self.serial = inner.serial
        self.lock = threading.RLock()
        self.version = 0
        self.changed_at = time.time()
        self._listeners: list[Listener] = []

    @property
    def pushes(self) -> bool:
        """True when every change comes through this wrapper (SimPhone); a real phone also changes alone."""
        return callable(getattr(self.inner, "state", None)) and hasattr(self.inner, "screenshot_png")

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` (from any thread) after each input call."""
        self._listeners.append(listener)

    def changed(self) -> None:
        """Note a change and tell the listeners."""
        self.version += 1
        self.changed_at = time.time()
        for listener in list(self._listeners):
            listener()

    def _input(self, name: str, *args: Any, **kwargs: Any) -> None:
        try:
            with self.lock:
                getattr(self.inner, name)(*args, **kwargs)
        finally:
            self.changed()

    # -- reading --------------------------------------------------------------------------------
    def screenshot(self) -> Image.Image:
        with self.lock:
            return self.inner.screenshot()

    def ui_xml(self) -> str:
        with self.lock:
            return self.inner.ui_xml()

    def size(self) -> tuple[int, int]:
        with self.lock:
            return self.inner.size()

    def current_app(self) -> str:
        with self.lock:
            return self.inner.current_app()

    def state(self) -> dict[str, Any] | None:
        """SimPhone's state oracle (None on a real phone)."""
        state = getattr(self.inner, "state", None)
        if not callable(state):
            return None
        with self.lock:
            return state()

    # -- input ----------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        self._input("tap", x, y)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self._input("long_press", x, y, duration_ms=duration_ms)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self._input("swipe", x1, y1, x2, y2, duration_ms=duration_ms)

    def type_text(self, text: str) -> None:
        self._input("type_text", text)

    def key(self, key: Any) -> None:
        self._input("key", key)

    def open_app(self, name_or_package: str) -> None:
        self._input("open_app", name_or_package)

    def wait(self, seconds: float) -> None:
        if self.pushes:  # virtual time: the screen may change (toasts fade), and it returns at once
            self._input("wait", seconds)
        else:  # a real wait must not hold the lock, or nobody could look at the phone meanwhile
            self.inner.wait(seconds)
            self.changed()
