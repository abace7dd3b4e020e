"""The notification shade, pulled down from the status bar: quick-settings tiles (Wi-Fi, Bluetooth,
Airplane mode, Dark theme, network speed) that change the same settings the Settings app shows, and the
notification list (tap one to open its app; Clear all)."""

from __future__ import annotations

from typing import Any

from droidpilot.device.sim.draw.canvas import Canvas, Node, Tap
from droidpilot.device.sim.draw.chrome import STATUS_H, SYSTEMUI, status_bar
from droidpilot.device.sim.draw.theme import Palette

TILES = (("Internet", "wifi", "wifi"), ("Bluetooth", "bluetooth", "bluetooth"),
         ("Airplane mode", "airplane", "airplane_mode"), ("Dark theme", "moon", "dark_mode"),
         ("Network speed", "speed", "show_network_speed"))


def shade(c: Canvas, pal: Palette, width: float, height: float, sysinfo: dict[str, Any],
          notifications: list[dict[str, Any]], icons: dict[str, dict[str, str]]) -> Node:
    """Draw the shade over whatever is below; returns its window node."""
    settings = sysinfo["settings"]
    c.rect(0, 0, width, height, pal.scrim)
    c.rect(0, 0, width, height * 0.92, pal.surface, radius=48)
    status_bar(c, pal, width, sysinfo)
    nodes: list[Node] = []
    day_box, _ = c.text(56, STATUS_H + 70, sysinfo["date_long"], 40, pal.on_surface)
    nodes.append(Node("android.widget.TextView", day_box, text=sysinfo["date_long"], package=SYSTEMUI,
                      label=True, rid=f"{SYSTEMUI}:id/date"))
    tile_w, tile_h = (width - 56 * 2 - 32) / 2, 150
    y = STATUS_H + 150
    for i, (label, glyph, key) in enumerate(TILES):
        col, row = i % 2, i // 2
        x1, y1 = 56 + col * (tile_w + 32), y + row * (tile_h + 28)
        on = bool(settings.get(key))
        c.rect(x1, y1, x1 + tile_w, y1 + tile_h, "#1A73E8" if on else pal.surface_alt, radius=tile_h / 2)
        fg = "#FFFFFF" if on else pal.on_surface
        c.glyph(glyph, x1 + 40, y1 + tile_h / 2 - 32, 64, fg)
        box, _ = c.text(x1 + 130, y1 + tile_h / 2, label, 36, fg, True, max_width=tile_w - 150)
        kids = [Node("android.widget.TextView", box, text=label, package=SYSTEMUI, label=True)]
        nodes.append(Node("android.widget.Switch", c.box(x1, y1, x1 + tile_w, y1 + tile_h), desc=label,
                          package=SYSTEMUI, clickable=True, checkable=True, checked=on,
                          rid=f"{SYSTEMUI}:id/tile_{key}", tap=Tap("system", arg=f"tile:{key}"),
                          children=kids))
    y += 3 * (tile_h + 28) + 40
    if not notifications:
        msg = "No notifications"
        box, _ = c.text((width - c.measure(msg, 38)) / 2, y + 80, msg, 38, pal.on_surface_dim)
        nodes.append(Node("android.widget.TextView", box, text=msg, package=SYSTEMUI, label=True))
    for note in reversed(notifications[-4:]):
        c.rect(40, y, width - 40, y + 200, pal.background, radius=36)
        icon = icons.get(note["app"], {"glyph": "bell", "color": "#1A73E8"})
        c.ellipse(80, y + 48, 184, y + 152, icon["color"])
        c.glyph(icon["glyph"], 104, y + 72, 56, "#FFFFFF")
        tbox, _ = c.text(224, y + 70, note["title"], 38, pal.on_surface, True, max_width=width - 300)
        bbox, _ = c.text(224, y + 134, note["text"], 34, pal.on_surface_dim, max_width=width - 300)
        kids = [Node("android.widget.TextView", tbox, text=note["title"], package=SYSTEMUI, label=True),
                Node("android.widget.TextView", bbox, text=note["text"], package=SYSTEMUI, label=True)]
        nodes.append(Node("android.widget.FrameLayout", c.box(40, y, width - 40, y + 200), desc=note["title"],
                          package=SYSTEMUI, clickable=True, rid=f"{SYSTEMUI}:id/notification",
                          tap=Tap("system", arg=f"notification:{note['app']}"), children=kids))
        y += 224
    if notifications:
        label = "Clear all"
        lw = c.measure(label, 36, True)
        box, _ = c.text(width - 80 - lw, y + 60, label, 36, pal.on_surface, True)
        nodes.append(Node("android.widget.Button", c.box(width - 120 - lw, y + 10, width - 40, y + 110),
                          text=label, package=SYSTEMUI, clickable=True, rid=f"{SYSTEMUI}:id/clear_all",
                          tap=Tap("system", arg="clear_notifications"),
                          children=[Node("android.widget.TextView", box, text=label, package=SYSTEMUI,
                                         label=True, in_xml=False)]))
    return Node("android.widget.FrameLayout", c.box(0, 0, width, height * 0.92), package=SYSTEMUI,
                children=nodes)
