"""System UI around the apps: status bar, navigation bar, toasts and heads-up notifications."""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.draw.canvas import Canvas, Node, Tap
from droidpilot.device.sim.draw.theme import Palette

STATUS_H = 100
NAV_H = 132
APPBAR_H = 176
TABS_H = 196
SYSTEMUI = "com.android.systemui"


def status_bar(c: Canvas, pal: Palette, width: float, sysinfo: dict[str, Any], fg: str | None = None,
               bg: str | None = None) -> None:
    """Clock on the left; network speed, Bluetooth, Wi-Fi/airplane and battery on the right, drawn in the
    system's icon style whatever the app's."""
    with c.icon_style_as("filled"):
        _status_bar(c, pal, width, sysinfo, fg, bg)


def _status_bar(c: Canvas, pal: Palette, width: float, sysinfo: dict[str, Any], fg: str | None,
                bg: str | None) -> None:
    fg = fg or pal.on_status_bar
    if bg:
        c.rect(0, 0, width, STATUS_H, bg)
    cy = STATUS_H / 2 + 4
    c.text(56, cy, sysinfo["clock"], 38, fg, True)
    nx = 56 + c.measure(sysinfo["clock"], 38, True) + 28
    for glyph in sysinfo.get("notification_glyphs", [])[-3:]:
        c.glyph(glyph, nx, cy - 22, 44, fg)
        nx += 60
    settings = sysinfo.get("settings", {})
    x = width - 56
    level = int(sysinfo.get("battery", 85))
    if settings.get("battery_percentage", True):
        label = f"{level}%"
        x -= c.measure(label, 32)
        c.text(x, cy, label, 32, fg)
    x -= 70
    c.rect(x, cy - 16, x + 54, cy + 16, None, radius=6, outline=fg, width=3)
    c.rect(x + 54, cy - 7, x + 60, cy + 7, fg)
    c.rect(x + 6, cy - 10, x + 6 + 42 * level / 100, cy + 10, fg, radius=3)
    x -= 20
    airplane = bool(settings.get("airplane_mode"))
    if airplane:
        x -= 50
        c.glyph("airplane", x, cy - 25, 50, fg)
    elif settings.get("wifi"):
        x -= 52
        c.glyph("wifi", x, cy - 26, 52, fg)
    if settings.get("bluetooth"):
        x -= 50
        c.glyph("bluetooth", x, cy - 25, 46, fg)
    if settings.get("show_network_speed"):
        fast = settings.get("wifi") and not airplane
        top, unit = ("2.4", "KB/s") if fast else ("0", "B/s")
        x -= 16 + max(c.measure(top, 28, True), c.measure(unit, 28))
        c.text(x, cy - 16, top, 28, fg, True)
        c.text(x, cy + 18, unit, 28, fg)


def nav_bar(c: Canvas, pal: Palette, width: float, height: float, fg: str | None = None,
            bg: str | None = None) -> list[Node]:
    """Three-button navigation (back, home, recents); taps become system keys. Not part of the dump."""
    top = height - NAV_H
    fg = fg or pal.on_nav_bar
    c.rect(0, top, width, height, bg or pal.nav_bar)
    nodes = []
    for frac, glyph, key, desc in ((0.25, "back", "back", "Back"), (0.5, "home", "home", "Home"),
                                   (0.75, "recents", "app_switch", "Overview")):
        cx = width * frac
        c.glyph(glyph, cx - 36, top + NAV_H / 2 - 36, 72, fg)
        nodes.append(Node("android.widget.ImageView", c.box(cx - 110, top, cx + 110, height), desc=desc,
                          package=SYSTEMUI, clickable=True, tap=Tap("system", arg=f"key:{key}"),
                          in_xml=False))
    return nodes


def toast(c: Canvas, pal: Palette, width: float, height: float, text: str, bottom: float) -> Node:
    """A short message near the bottom of the screen."""
    tw = c.measure(text, 38)
    w = min(tw + 100, width - 96)
    x1 = (width - w) / 2
    y2 = bottom - 120
    c.rect(x1, y2 - 116, x1 + w, y2, pal.toast, radius=58)
    box, _ = c.text(x1 + 50, y2 - 58, text, 38, pal.on_toast, max_width=w - 100)
    return Node("android.widget.Toast", box, text=text, package="android", label=True)


def heads_up(c: Canvas, pal: Palette, width: float, note: dict[str, Any], icon: dict[str, str]) -> Node:
    """A notification banner sliding over the top of the screen; tapping it opens its app."""
    x1, y1, x2, y2 = 32, STATUS_H + 12, width - 32, STATUS_H + 252
    c.rect(x1 + 2, y1 + 6, x2 + 2, y2 + 6, "#00000030", radius=44)
    c.rect(x1, y1, x2, y2, pal.surface, radius=44)
    c.rect(x1 + 40, y1 + 60, x1 + 156, y1 + 176, icon["color"], radius=58)
    c.glyph(icon["glyph"], x1 + 66, y1 + 86, 64, "#FFFFFF")
    title_box, _ = c.text(x1 + 196, y1 + 84, note["title"], 40, pal.on_surface, True, max_width=x2 - x1 - 240)
    text_box, _ = c.text(x1 + 196, y1 + 156, note["text"], 36, pal.on_surface_dim, max_width=x2 - x1 - 240)
    kids = [Node("android.widget.TextView", title_box, text=note["title"], package=SYSTEMUI, label=True),
            Node("android.widget.TextView", text_box, text=note["text"], package=SYSTEMUI, label=True)]
    return Node("android.widget.FrameLayout", c.box(x1, y1, x2, y2), desc="Notification", package=SYSTEMUI,
                rid=f"{SYSTEMUI}:id/notification", clickable=True,
                tap=Tap("system", arg=f"open:{note['app']}"), children=kids)


def clip_menu(c: Canvas, pal: Palette, width: float, items: list[str], top: float, bottom: float) -> Node:
    """The Copy / Paste toolbar floating above the long-pressed field or bubble (``top``..``bottom``, base
    units), below it when above would cover the app bar."""
    widths = [c.measure(t, 38, True) + 96 for t in items]
    x1 = max(32.0, min(width - 32 - sum(widths), 120.0))
    y1 = top - 150 if top - 150 > STATUS_H + 180 else bottom + 20
    y2 = y1 + 124
    c.rect(x1 + 2, y1 + 6, x1 + sum(widths) + 2, y2 + 6, "#00000030", radius=28)
    c.rect(x1, y1, x1 + sum(widths), y2, pal.surface, radius=28)
    kids, x = [], x1
    for text, w in zip(items, widths, strict=True):
        box, _ = c.text(x + 48, (y1 + y2) / 2, text, 38, pal.on_surface, True)
        kids.append(Node("android.widget.Button", c.box(x, y1, x + w, y2), text=text, package=SYSTEMUI,
                         clickable=True, tap=Tap("system", arg=f"clip:{text}"),
                         children=[Node("android.widget.TextView", box, text=text, package=SYSTEMUI,
                                        label=True)]))
        x += w
    return Node("android.widget.LinearLayout", c.box(x1, y1, x, y2), desc="Text actions", package=SYSTEMUI,
                rid=f"{SYSTEMUI}:id/text_actions", children=kids)
