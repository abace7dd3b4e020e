"""The selector methods of the uiautomator server: exists, wait, info, count, text, scroll, child lookups."""

from __future__ import annotations

import itertools
from typing import Any

from droidpilot.device.u2.args import gesture_steps, number
from droidpilot.device.u2.rpc import Method, java_error
from droidpilot.device.u2.session import Session
from droidpilot.device.u2.tree import UiNode

_names = itertools.count(1)


def obj_info(node: UiNode, screen: tuple[int, int]) -> dict[str, Any]:
    """The objInfo of a node, with the field names of UiObject's info."""
    x1, y1, x2, y2 = node.bounds
    w, h = screen
    vis = (max(0, x1), max(0, y1), min(w, x2), min(h, y2))
    return {
        "bounds": {"left": x1, "top": y1, "right": x2, "bottom": y2},
        "visibleBounds": {"left": vis[0], "top": vis[1], "right": vis[2], "bottom": vis[3]},
        "childCount": len(node.children), "className": node.get("class"),
        "contentDescription": node.get("content-desc") or None, "packageName": node.get("package"),
        "resourceName": node.get("resource-id") or None, "text": node.get("text"),
        "checkable": node.flag("checkable"), "checked": node.flag("checked"),
        "clickable": node.flag("clickable"),
        "enabled": node.flag("enabled"), "focusable": node.flag("focusable"), "focused": node.flag("focused"),
        "longClickable": node.flag("long-clickable"), "scrollable": node.flag("scrollable"),
        "selected": node.flag("selected"),
    }


def object_methods(s: Session) -> dict[str, Method]:
    """Method name -> function, bound to one server session."""
    phone = s.phone

    def exist(sel: Any) -> bool:
        return bool(s.find_all(sel))

    def wait_exists(sel: Any, timeout_ms: float = 0) -> bool:
        return s.wait_for(lambda: bool(s.find_all(sel)), timeout_ms)

    def wait_gone(sel: Any, timeout_ms: float = 0) -> bool:
        return s.wait_for(lambda: not s.find_all(sel), timeout_ms)

    def info(sel: Any) -> dict[str, Any]:
        return obj_info(s.find(sel), phone.display_size())

    def info_all(sel: Any) -> list[dict[str, Any]]:
        return [obj_info(n, phone.display_size()) for n in s.find_all(sel)]

    def get_text(sel: Any) -> str:
        return s.find(sel).get("text")

    def set_text(sel: Any, text: str | None) -> bool:
        node = s.find(sel)
        if "EditText" not in node.get("class"):
            return False  # ACTION_SET_TEXT only works on editable fields
        if not node.flag("focused"):
            s.tap(*node.center)
        field = s.focused_field()
        if field is None:
            return False
        for _ in range(len(field.get("text"))):
            s.key(67)
        if text:
            s.type_text(str(text))
        return True

    def scroll(sel: Any, vertical: bool = True, steps: int = 55, forward: bool = True) -> bool:
        node = s.find(sel)
        steps = gesture_steps(steps)
        x1, y1, x2, y2 = node.bounds
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        before = s.xml()
        if vertical:
            a, b = y1 + (y2 - y1) * 0.8, y1 + (y2 - y1) * 0.2
            s.swipe(cx, a if forward else b, cx, b if forward else a, steps)
        else:
            a, b = x1 + (x2 - x1) * 0.8, x1 + (x2 - x1) * 0.2
            s.swipe(a if forward else b, cy, b if forward else a, cy, steps)
        return s.xml() != before  # True while the content still moved, as UiScrollable answers

    def scroll_to_end(sel: Any, vertical: bool = True, max_swipes: int = 500, steps: int = 55,
                      forward: bool = True) -> bool:
        for _ in range(int(max_swipes)):
            if not scroll(sel, vertical, steps, forward):
                break
        return True

    def scroll_to(sel: Any, target: Any, vertical: bool = True) -> bool:
        for _ in range(30):
            if s.find_all(target):
                return True
            if not scroll(sel, vertical):
                break
        return bool(s.find_all(target))

    def child_by(sel: Any, child: Any, test: str, value: Any, allow_scroll: bool = True) -> str:
        parent = dict(s.resolve(sel))
        sub = dict(s.resolve(child))
        if test == "instance":
            sub["instance"] = int(value)
        else:
            sub[test] = str(value)
        parent["childOrSibling"] = [*parent.get("childOrSibling", []), "child"]
        parent["childOrSiblingSelector"] = [*parent.get("childOrSiblingSelector", []), sub]
        s.find(parent)  # UiObjectNotFoundException when no such child exists now
        name = f"simphone-object-{next(_names)}"
        s.objects[name] = parent
        return name

    def drag_to(sel: Any, *target: Any) -> bool:
        node = s.find(sel)
        if len(target) >= 2 and all(isinstance(t, (int, float)) for t in target[:2]):
            x, y, steps = target[0], target[1], target[2] if len(target) > 2 else 100
        elif target and not isinstance(target[0], (int, float)):
            x, y = s.find(target[0]).center
            steps = target[1] if len(target) > 1 else 100
        else:
            raise java_error("java.lang.IllegalArgumentException", "dragTo takes (selector, x, y, steps) or "
                             "(selector, selector, steps)")
        return s.swipe(*node.center, number(x, "destX"), number(y, "destY"), gesture_steps(steps))

    return {
        "exist": exist, "waitForExists": wait_exists, "waitUntilGone": wait_gone, "objInfo": info,
        "objInfoOfAllInstances": info_all, "count": lambda sel: len(s.find_all(sel)),
        "getText": get_text, "setText": set_text, "clearTextField": lambda sel: set_text(sel, ""),
        "scrollForward": lambda sel, vertical=True, steps=55: scroll(sel, vertical, steps, True),
        "scrollBackward": lambda sel, vertical=True, steps=55: scroll(sel, vertical, steps, False),
        "scrollToEnd": lambda sel, vertical=True, max_swipes=500, steps=55:
            scroll_to_end(sel, vertical, max_swipes, steps, True),
        "scrollToBeginning": lambda sel, vertical=True, max_swipes=500, steps=55:
            scroll_to_end(sel, vertical, max_swipes, steps, False),
        "scrollTo": scroll_to,
        "flingForward": lambda sel, vertical=True: scroll(sel, vertical, 10, True),
        "flingBackward": lambda sel, vertical=True: scroll(sel, vertical, 10, False),
        "flingToEnd": lambda sel, vertical=True, max_swipes=500:
            scroll_to_end(sel, vertical, max_swipes, 10, True),
        "flingToBeginning": lambda sel, vertical=True, max_swipes=500:
            scroll_to_end(sel, vertical, max_swipes, 10, False),
        "childByText": lambda sel, child, text, allow_scroll=True: child_by(sel, child, "text", text),
        "childByDescription": lambda sel, child, text, allow_scroll=True:
            child_by(sel, child, "description", text),
        "childByInstance": lambda sel, child, inst: child_by(sel, child, "instance", inst),
        "dragTo": drag_to,
    }
