"""SimPhone screens for benchmarks/icon_accuracy.py (``--split simphone``): its app screens and icon queries.

Every installed app's first screen and each screen one tap on a first-screen icon button opens, in both
themes and at 1080x2400 and 720x1600. The targets are the icon buttons (``ImageButton`` with a
content-desc and no text); the query for each is how a person names what the button shows
(DESC_WORDS, written from the buttons' meaning, before and independently of the matcher) plus the
third of the screen it is in, as the agent's "click icon (plus, bottom right)" asks. Buttons a person
would describe the same way on one screen are not targets (no fair answer). The text labels SimPhone
drew stand in for OCR lines, as a perfect OCR would read them. The set is built twice: with SimPhone's
own drawn glyphs (its rendering without the icon font) and with the Material font's.
"""

from __future__ import annotations

import os

import numpy as np

from droidpilot.iconfont import FONT_ENV
from droidpilot.perception.icons.rank import where_on_screen
from droidpilot.perception.types import OcrLine
from icon_screens import Screen, Target

# content-desc -> what a person calls the icon on that button
DESC_WORDS: dict[str, str] = {
    "Search": "magnifier", "Search notes": "magnifier", "搜索": "magnifier",
    "New note": "plus", "New task": "plus", "New contact": "plus", "Create event": "plus",
    "Add alarm": "plus", "Add expense": "plus", "Add location": "plus", "New chat": "plus",
    "更多功能按钮": "plus",
    "Navigate up": "back arrow", "Like": "heart", "Notifications": "heart", "Share": "share",
    "Cart": "cart", "Account": "person", "Profile": "person", "Comments": "speech bubble",
    "More options": "three dots", "聊天信息": "three dots", "Jump to today": "calendar",
    "Save": "checkmark", "Done": "checkmark", "Send": "paper plane", "Delete": "trash",
    "Post comment": "paper plane", "Compose": "pencil", "Start chat": "pencil",
    "Edit": "pencil", "Close": "x", "Clear": "x", "Settings": "gear", "Favorite": "star",
}
SIZES = ((1080, 2400), (720, 1600))


def _buttons(device: object) -> list[tuple[str, tuple[int, int, int, int]]]:
    from droidpilot.verify.frame import parse_ui_xml

    return [(el.content_desc, el.bounds) for el in parse_ui_xml(device.ui_xml())  # type: ignore[attr-defined]
            if el.cls.endswith("ImageButton") and el.content_desc and not el.text and el.bounds is not None]


def _screen(device: object, unknown: set[str]) -> Screen:
    size = device.size()  # type: ignore[attr-defined]
    image = np.asarray(device.screenshot().convert("RGB")).copy()  # type: ignore[attr-defined]
    lines = [OcrLine(text, box, 1.0) for text, box in device.labels()]  # type: ignore[attr-defined]
    found: list[Target] = []
    queries: dict[str, int] = {}
    for desc, box in _buttons(device):
        words = DESC_WORDS.get(desc)
        if words is None:
            unknown.add(desc)
            continue
        where = where_on_screen(((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), size)
        query = f"{words}, {where}"
        queries[query] = queries.get(query, 0) + 1
        found.append(Target(desc, box, query))
    return Screen(image, lines, [t for t in found if queries[t.query] == 1])


def simphone_screens(unknown: set[str] | None = None, drawn: bool = False) -> list[Screen]:
    """The SimPhone screen set (deterministic: fixed seed, clock and date); ``drawn``: with SimPhone's own
    glyph shapes, as it draws them without the icon font (the rendering before the font)."""
    if not drawn:
        return _screens(set() if unknown is None else unknown)
    from droidpilot.device.sim.draw.glyphs import glyph_mask

    saved = os.environ.get(FONT_ENV)
    os.environ[FONT_ENV] = "/nonexistent/no-icon-font.ttf"  # only while SimPhone draws these screens
    glyph_mask.cache_clear()
    try:
        return _screens(set() if unknown is None else unknown)
    finally:
        glyph_mask.cache_clear()
        if saved is None:
            del os.environ[FONT_ENV]
        else:
            os.environ[FONT_ENV] = saved


def _screens(unknown: set[str]) -> list[Screen]:
    from droidpilot.device.sim.phone import SimDevice

    out: list[Screen] = []
    for width, height in SIZES:
        for theme in ("light", "dark"):
            apps = SimDevice(size=(width, height), theme=theme)._world.installed
            for app in apps:
                device = SimDevice(size=(width, height), theme=theme)
                device.open_app(app)
                first = _screen(device, unknown)
                out.append(first)
                for desc, box in _buttons(device):
                    if desc == "Navigate up":
                        continue
                    other = SimDevice(size=(width, height), theme=theme)
                    other.open_app(app)
                    before = other.ui_xml()
                    other.tap((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
                    if other.ui_xml() != before:
                        out.append(_screen(other, unknown))
    return [s for s in out if s.targets]

