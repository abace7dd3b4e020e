"""The uiautomator server's two-pointer gestures, UiObject relations, window waits and toast listener:
``gesture``/``performTwoPointerGesture``, ``pinchIn``/``pinchOut``, ``getParent``/``getChild``/
``getFromParent``/``getUiObject``, ``getClassName``, ``waitForIdle``, ``waitForWindowUpdate``,
``clickAndWaitForNewWindow`` and ``setToastListener``, with the real server's arguments and errors.

SimPhone has no multi-touch views: a two-pointer gesture whose pointers move the same way acts as a
one-finger swipe of the first pointer (a two-finger scroll); a pinch changes nothing on SimPhone's screens.
Both block for their steps (5 ms each) and answer true, as UiObject does when the events were injected.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from droidpilot.device.u2.args import bad, gesture_steps, java_int, number
from droidpilot.device.u2.rpc import Method, not_found
from droidpilot.device.u2.session import STEP_S, Relation, Session

_names = itertools.count(1)
MAX_OBJECTS = 10_000  # named UiObjects a server keeps
_MAX_WAIT_MS = 10 * 60 * 1000  # waits longer than 10 minutes are refused (a client would time out first)


def _point(value: Any, name: str) -> tuple[float, float]:
    """An android.graphics.Point as JSON (``{"x": .., "y": ..}``)."""
    if not isinstance(value, Mapping) or set(value) - {"x", "y"} or not {"x", "y"} <= set(value):
        raise bad(f"{name} must be a Point object {{\"x\": X, \"y\": Y}}, got {str(value)[:80]}")
    return number(value["x"], f"{name}.x"), number(value["y"], f"{name}.y")


def _timeout(value: Any, name: str = "timeout") -> int:
    return java_int(value, name, 0, _MAX_WAIT_MS) if not isinstance(value, int) or value >= 0 else 0


def gesture_methods(s: Session) -> dict[str, Method]:
    """Method name -> function, bound to one server session."""

    def name_for(target: Mapping[str, Any] | Relation) -> str:
        name = f"simphone-object-g{next(_names)}"
        s.objects[name] = target
        while len(s.objects) > MAX_OBJECTS:  # a client that never calls removeUiObject: oldest go first
            del s.objects[next(iter(s.objects))]
        return name

    def two_pointer(sel: Any, start1: Any, start2: Any, end1: Any, end2: Any, steps: Any = 100) -> bool:
        s.find(sel)  # UiObjectNotFoundException when the object is not there
        a, b, c, d = (_point(p, n) for p, n in ((start1, "startPoint1"), (start2, "startPoint2"),
                                                  (end1, "endPoint1"), (end2, "endPoint2")))
        n = gesture_steps(steps)
        moves = ((c[0] - a[0], c[1] - a[1]), (d[0] - b[0], d[1] - b[1]))
        if moves[0][0] * moves[1][0] + moves[0][1] * moves[1][1] > 0:  # both fingers go the same way
            s.swipe(a[0], a[1], c[0], c[1], n)
        else:
            s.hold(n * STEP_S)
        return True

    def pinch(sel: Any, percent: Any, steps: Any) -> bool:
        s.find(sel)
        java_int(percent, "percent")  # UiObject clamps it to 0..100
        s.hold(gesture_steps(steps) * STEP_S)  # SimPhone has nothing to zoom: it takes its time, no more
        return True

    def get_ui_object(sel: Any) -> str:
        s.find(sel)
        return name_for(s.resolve(sel))

    def get_parent(obj: Any) -> str:
        node = s.find(obj)
        if node.parent is None:
            raise not_found(f"the parent of {_shown(obj)} (it is the root of its window)")
        return name_for(Relation(obj, "parent"))

    def get_child(obj: Any, sel: Any) -> str:
        rel = Relation(obj, "child", _selector(sel))
        s.find(obj)
        return name_for(rel)

    def get_from_parent(obj: Any, sel: Any) -> str:
        rel = Relation(obj, "fromParent", _selector(sel))
        s.find(obj)
        return name_for(rel)

    def remove_ui_object(obj: Any) -> None:
        if isinstance(obj, str):
            s.objects.pop(obj, None)

    def get_class_name(obj: Any) -> str:
        return s.find(obj).get("class")

    def wait_for_idle(timeout: Any = 10000) -> None:
        _timeout(timeout)  # SimPhone is idle after every event: nothing to wait for

    def wait_for_window_update(package: Any, timeout: Any) -> bool:
        ms = _timeout(timeout)
        if package is not None and not isinstance(package, str):
            raise bad(f"packageName must be a string or null, got {str(package)[:80]}")
        with s.phone.lock:
            current = s.phone.device.current_app()
        if package and package != current:
            return False  # UiDevice returns at once when another package is in front
        before = s.xml()
        return s.wait_for(lambda: s.xml() != before, ms)

    def click_and_wait(sel: Any, timeout: Any = 5500) -> bool:
        ms = _timeout(timeout)
        node = s.find(sel)
        before = _windows(s)
        s.tap(*node.center)
        return s.wait_for(lambda: _windows(s) != before, ms)

    def set_toast_listener(enabled: Any) -> None:
        if not isinstance(enabled, bool):
            raise bad(f"enabled must be true or false, got {str(enabled)[:80]}")
        s.toast_listener = enabled

    return {
        "gesture": two_pointer, "performTwoPointerGesture": two_pointer,
        "pinchIn": pinch, "pinchOut": pinch,
        "getUiObject": get_ui_object, "getParent": get_parent, "getChild": get_child,
        "getFromParent": get_from_parent, "removeUiObject": remove_ui_object,
        "getUiObjects": lambda: sorted(s.objects), "getClassName": get_class_name,
        "waitForIdle": wait_for_idle, "waitForWindowUpdate": wait_for_window_update,
        "clickAndWaitForNewWindow": click_and_wait, "setToastListener": set_toast_listener,
    }


def _shown(obj: Any) -> str:
    return f"UiObject {obj[:120]!r}" if isinstance(obj, str) else str(obj)[:120]


def _selector(sel: Any) -> Mapping[str, Any]:
    if not isinstance(sel, Mapping):
        raise bad(f"a selector must be an object, got {str(sel)[:80]}")
    return sel


def _windows(s: Session) -> tuple[object, ...]:
    """What makes a new window: the foreground package and each window's package, class and bounds, plus the
    top screen's title node (SimPhone's screens are activities)."""
    nodes = s.nodes()
    tops = tuple((n.get("package"), n.get("class"), n.bounds) for n in nodes if n.parent is None)
    with s.phone.lock:
        current = s.phone.device.current_app()
    state = getattr(s.phone.device, "state", None)
    screen = None
    if callable(state):
        with s.phone.lock:
            fg = state().get("foreground", {})
        screen = (fg.get("app"), fg.get("screen"), repr(fg.get("params"))[:200])
    return (current, tops, screen)
