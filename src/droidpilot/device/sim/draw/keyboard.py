"""The on-screen keyboard shown while a text field has focus: QWERTY with a number row, shift,
backspace, space and enter. Its keys are tappable but, as on Android, not part of the app's dump."""

from __future__ import annotations

from droidpilot.device.sim.draw.canvas import Canvas, Node, Tap
from droidpilot.device.sim.draw.theme import Palette

ROW_PITCH = 132
KEYBOARD_H = 5 * ROW_PITCH + 36
IME = "com.simphone.keyboard"
_ROWS = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"]


def keyboard(c: Canvas, pal: Palette, width: float, top: float, shift: bool) -> list[Node]:
    """Draw the keyboard with its top edge at ``top``; returns the key nodes (for hit-testing)."""
    c.rect(0, top, width, top + KEYBOARD_H, pal.keyboard)
    kw = width / 10
    nodes: list[Node] = []

    def key(x: float, y: float, w: float, label: str, action: str, special: bool = False,
            glyph: str = "") -> None:
        x1, y1, x2, y2 = x + 8, y + 8, x + w - 8, y + ROW_PITCH - 8
        c.rect(x1, y1 + 4, x2, y2 + 4, "#00000022", radius=14)
        c.rect(x1, y1, x2, y2, pal.key_special if special else pal.key, radius=14)
        if glyph:
            c.glyph(glyph, (x1 + x2) / 2 - 30, (y1 + y2) / 2 - 30, 60, pal.on_key)
        elif label:
            size = 44 if len(label) == 1 else 34
            c.text((x1 + x2 - c.measure(label, size)) / 2, (y1 + y2) / 2, label, size, pal.on_key)
        nodes.append(Node("android.inputmethodservice.Keyboard$Key", c.box(x, y, x + w, y + ROW_PITCH),
                          text=label, package=IME, clickable=True, tap=Tap("system", arg=f"ime:{action}"),
                          in_xml=False))

    y = top + 18
    for row_index, row in enumerate(_ROWS):
        x = (width - kw * len(row)) / 2
        if row_index == 3:
            key(0, y, kw * 1.5, "", "shift", special=True, glyph="shift")
            x = kw * 1.5
        for ch in row:
            shown = ch.upper() if shift and ch.isalpha() else ch
            key(x, y, kw, shown, f"char:{shown}")
            x += kw
        if row_index == 3:
            key(width - kw * 1.5, y, kw * 1.5, "", "backspace", special=True, glyph="backspace")
        y += ROW_PITCH
    key(0, y, kw * 1.5, "?123", "noop", special=True)
    key(kw * 1.5, y, kw, ",", "char:,")
    key(kw * 2.5, y, kw * 5, "", "char: ")
    key(kw * 7.5, y, kw, ".", "char:.")
    key(kw * 8.5, y, kw * 1.5, "", "enter", special=True, glyph="enter")
    return nodes
