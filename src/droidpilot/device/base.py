"""The Device interface every phone backend implements (SimPhone, real phones over ADB).

All coordinates are device pixels of the full-resolution screenshot. Every failing call raises a
DeviceError whose message carries the device's own error text.
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from PIL import Image

from droidpilot.errors import DroidpilotError

Key = Literal["back", "home", "enter", "app_switch"]


class DeviceError(DroidpilotError):
    """A device call failed (device gone, command refused, ...)."""


@runtime_checkable
class Device(Protocol):
    """A phone the agent can see and touch."""

    serial: str

    def screenshot(self) -> Image.Image:
        """The current screen at full resolution (RGB), in device pixels."""
        ...

    def ui_xml(self) -> str:
        """A uiautomator dump of the current screen (optional for a pure-vision agent)."""
        ...

    def size(self) -> tuple[int, int]:
        """(width, height) in device pixels, as the screenshot is."""
        ...

    def tap(self, x: int, y: int) -> None: ...

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None: ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None: ...

    def type_text(self, text: str) -> None:
        """Type any Unicode text into the focused field."""
        ...

    def key(self, key: Key) -> None: ...

    def open_app(self, name_or_package: str) -> None: ...

    def current_app(self) -> str:
        """The package of the app in the foreground."""
        ...

    def wait(self, seconds: float) -> None: ...
