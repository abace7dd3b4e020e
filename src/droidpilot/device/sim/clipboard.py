"""SimPhone's clipboard, one for every app: a long press on a text field or a message bubble opens a
small Copy / Paste menu over it (as Android's text selection toolbar); Copy puts the field's whole text
or the bubble's text on the clipboard, Paste types the clipboard into the field; Back or a touch outside
closes the menu."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from droidpilot.device.sim.draw.canvas import Node
    from droidpilot.device.sim.world import View, World

COPYABLE = (":id/message",)  # resource-ids of text a long press may copy (chat bubbles)


def open_menu(w: World, view: View, target: Node | None, x: int, y: int) -> bool:
    """After a long press at (x, y): open the menu for the focused field ``target`` stands for, or for
    copyable text under the point; False when there is nothing to copy or paste there."""
    stack = w.stack()
    if stack is None:
        return False
    if target is not None and target.tap is not None and target.tap.kind == "focus":
        text = str(stack[-1].fields.get(target.tap.arg, ""))
        items = [v for v, ok in (("Copy", text), ("Paste", w.clipboard)) if ok]
        menu: dict[str, Any] = {"field": target.tap.arg, "text": text}
    else:
        node = next((n for n in reversed(view.targets)
                     if n.text and n.rid.endswith(COPYABLE) and n.contains(x, y)), None)
        if node is None:
            return False
        items, menu = ["Copy"], {"field": None, "text": node.text}
    if not items:
        return False
    w.clip_menu = {**menu, "items": items, "box": (target or node).bounds}
    return True


def run_verb(w: World, verb: str) -> str | None:
    """Copy or Paste from the open menu; the text to type into the focused field (Paste), else None."""
    menu, w.clip_menu = w.clip_menu, None
    if menu is None or verb not in menu["items"]:
        return None
    if verb == "Copy":
        w.clipboard = menu["text"]
        return None
    return w.clipboard


__all__ = ["COPYABLE", "open_menu", "run_verb"]
