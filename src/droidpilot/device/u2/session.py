"""What the server's methods act through: the phone's UI tree, touches and keys in display pixels, waits.

Coordinates are display pixels (the `wm size` override space, like `input tap` and the dump's bounds);
every device call holds the phone's lock. Waits let the phone's own clock run with the wall clock, so a
loading screen that SimPhone finishes after N seconds is seen finished after N seconds of waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.tools_input import press_keycode, window_xml
from droidpilot.device.base import DeviceError
from droidpilot.device.u2.rpc import java_error, not_found
from droidpilot.device.u2.selector import SelectorError, describe, select
from droidpilot.device.u2.tree import DumpError, UiNode, parse_dump

POLL = 0.1  # seconds between looks at the screen while waiting
_LONG_PRESS_S = 0.5  # a touch held this long (injectInputEvent down..up) is a long press


STEP_S = 0.005  # UiAutomator injects one gesture step every 5 ms


@dataclass(frozen=True)
class Relation:
    """A UiObject named by getParent/getChild/getFromParent: the nodes related to another object's node."""

    base: object  # a selector or the name of another object
    kind: str  # "parent", "child" (descendants matching sub) or "fromParent" (the parent's descendants)
    sub: Mapping[str, Any] | None = None


class Session:
    """One running uiautomator server on one phone: its handles to the phone and its own small state."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.last_toast: str | None = None
        self.objects: dict[str, Mapping[str, Any] | Relation] = {}  # names handed out (childByText & co.)
        self.toast_listener = True  # setToastListener(false): toasts are no longer recorded
        self.toast_seen: str | None = None  # the toast on screen at the last look (recorded once)
        self.touch: tuple[float, float, float] | None = None  # injectInputEvent: x, y, wall time of DOWN
        self.touch_last: tuple[float, float] | None = None
        self.cancelled: Callable[[], bool] = lambda: False  # set per request: the client went away

    # ---- the tree --------------------------------------------------------------------------------
    def xml(self) -> str:
        """The current dump, exactly as `uiautomator dump` writes it."""
        try:
            return window_xml(self.phone)
        except DeviceError as exc:
            raise java_error("java.lang.IllegalStateException", f"could not get idle state: {exc}") from None

    def nodes(self) -> list[UiNode]:
        """The dump's nodes (remembering a toast for getLastToast)."""
        try:
            found = parse_dump(self.xml())
        except DumpError as exc:
            raise java_error("java.lang.IllegalStateException", str(exc)) from None
        toasts = (n.get("text") for n in found if n.get("class") == "android.widget.Toast")
        shown = next((t for t in toasts if t), None)
        if shown is not None and shown != self.toast_seen and self.toast_listener:
            self.last_toast = shown  # a toast that appeared since the last look is the last toast
        self.toast_seen = shown
        return found

    def resolve(self, sel: object) -> Mapping[str, Any] | Relation:
        """A selector object, or the one a name from childByText/childByInstance stands for."""
        if isinstance(sel, str):
            if sel not in self.objects:
                raise not_found(f"UiObject {sel[:120]!r} (no object with that name)")
            return self.objects[sel]
        if not isinstance(sel, Mapping):
            raise java_error("java.lang.IllegalArgumentException",
                             f"a selector must be an object, got {sel!r}")
        return sel

    def find_all(self, sel: object) -> list[UiNode]:
        """Every node the selector matches now."""
        resolved = self.resolve(sel)
        if isinstance(resolved, Relation):
            return self._related(resolved)
        try:
            return select(resolved, self.nodes())
        except SelectorError as exc:
            raise java_error("java.lang.IllegalArgumentException", str(exc)) from None
        except (TypeError, ValueError, OverflowError) as exc:
            raise java_error("java.lang.IllegalArgumentException", f"bad selector {resolved!r}: {exc}") \
                from None

    def find(self, sel: object) -> UiNode:
        """The first node the selector matches; UiObjectNotFoundException when none does."""
        found = self.find_all(sel)
        if not found:
            resolved = self.resolve(sel)
            raise not_found(describe(resolved) if not isinstance(resolved, Relation) else
                            f"the {resolved.kind} of UiObject {str(resolved.base)[:120]}")
        return found[0]

    def _related(self, rel: Relation) -> list[UiNode]:
        """The nodes a Relation stands for now (none when its base matches nothing)."""
        base = self.find_all(rel.base)
        if not base:
            return []
        node = base[0]
        if rel.kind == "parent":
            return [node.parent] if node.parent is not None else []
        scope = node if rel.kind == "child" else node.parent
        if scope is None or rel.sub is None:
            return []
        pool = [n for n in scope.descendants() if n is not node or rel.kind == "child"]
        try:
            return select(rel.sub, pool)
        except SelectorError as exc:
            raise java_error("java.lang.IllegalArgumentException", str(exc)) from None

    def wait_for(self, test: Callable[[], bool], timeout_ms: float) -> bool:
        """Poll ``test`` until it holds or ``timeout_ms`` passed (letting the phone's clock run)."""
        deadline = time.monotonic() + max(0.0, float(timeout_ms)) / 1000
        while True:
            if test():
                return True
            left = deadline - time.monotonic()
            if left <= 0 or self.cancelled():
                return False
            step = min(POLL, left)
            time.sleep(step)
            self.let_time_pass(step)

    def hold(self, seconds: float) -> None:
        """Block for a gesture's ``seconds`` of wall-clock time, as UiAutomator's injection does (ends early
        when the client went away); the phone is not locked meanwhile."""
        deadline = time.monotonic() + max(0.0, seconds)
        while not self.cancelled():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(POLL, left))

    def let_time_pass(self, seconds: float) -> None:
        """The phone's clock moves on by ``seconds`` (with --realtime it follows the wall clock anyway)."""
        if self.phone.realtime:
            self.phone.catch_up()
            return
        with self.phone.lock:
            self.phone.device.wait(seconds)

    # ---- input -----------------------------------------------------------------------------------
    def on_screen(self, x: float, y: float) -> bool:
        """Whether (x, y) lies on the display (touches elsewhere are dropped, as Android drops them)."""
        w, h = self.phone.display_size()
        return 0 <= x < w and 0 <= y < h

    def tap(self, x: float, y: float, hold_ms: int = 0, wait: bool = True) -> bool:
        """A click (a long click when ``hold_ms`` is 500 or more) that blocks while held (``wait``: the
        client has not already held it); False when off the screen."""
        if not self.on_screen(x, y):
            return False
        px, py = self.phone.to_device(x, y)
        with self.phone.lock:
            try:
                if hold_ms >= _LONG_PRESS_S * 1000:
                    self.phone.device.long_press(px, py, int(hold_ms))
                else:
                    self.phone.device.tap(px, py)
            except DeviceError as exc:
                raise java_error("java.lang.IllegalStateException", str(exc)) from None
        if wait:
            self.hold(hold_ms / 1000)
        return True

    def swipe(self, x1: float, y1: float, x2: float, y2: float, steps: int, segments: int = 1,
              wait: bool = True) -> bool:
        """A swipe of ``steps`` 5 ms steps (per segment of a path), as UiDevice.swipe; it blocks for that
        long; False when it starts off the screen."""
        if not self.on_screen(x1, y1):
            return False
        a, b = self.phone.to_device(x1, y1)
        c, d = self.phone.to_device(x2, y2)
        ms = max(10, int(steps) * segments * 5)
        with self.phone.lock:
            try:
                self.phone.device.swipe(a, b, c, d, ms)
            except DeviceError as exc:
                raise java_error("java.lang.IllegalStateException", str(exc)) from None
        if wait:
            self.hold(max(0, int(steps)) * segments * STEP_S)
        return True

    def key(self, code: int) -> bool:
        """Press an Android key code (codes SimPhone has no use for do nothing, as on a phone)."""
        with self.phone.lock:
            try:
                press_keycode(self.phone, int(code))
            except DeviceError as exc:
                raise java_error("java.lang.IllegalStateException", str(exc)) from None
        return True

    def type_text(self, text: str) -> None:
        """Type into the focused field."""
        with self.phone.lock:
            try:
                self.phone.device.type_text(text)
            except DeviceError as exc:
                raise java_error("java.lang.IllegalStateException", str(exc)) from None

    def focused_field(self) -> UiNode | None:
        """The focused text field, if any."""
        return next((n for n in self.nodes() if n.flag("focused") and "EditText" in n.get("class")), None)
