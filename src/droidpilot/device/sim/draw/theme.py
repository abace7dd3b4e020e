"""Light and dark palettes: every colour the renderer uses comes from here or from an app's data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Palette:
    """The system colours of one theme (RGB hex strings)."""

    name: str
    background: str
    surface: str
    surface_alt: str
    on_surface: str
    on_surface_dim: str
    divider: str
    status_bar: str
    on_status_bar: str
    nav_bar: str
    on_nav_bar: str
    keyboard: str
    key: str
    key_special: str
    on_key: str
    scrim: str
    toast: str
    on_toast: str
    link: str
    switch_off: str
    wallpaper_top: str
    wallpaper_bottom: str
    on_wallpaper: str


LIGHT = Palette(
    name="light", background="#FFFFFF", surface="#F3F4F8", surface_alt="#E6E8EE", on_surface="#1B1B1F",
    on_surface_dim="#5F6368", divider="#E0E0E0", status_bar="#FFFFFF", on_status_bar="#1B1B1F",
    nav_bar="#F8F8F8", on_nav_bar="#3C4043", keyboard="#E8EAED", key="#FFFFFF", key_special="#C9CDD4",
    on_key="#202124", scrim="#00000080", toast="#303134", on_toast="#FFFFFF", link="#1A0DAB",
    switch_off="#9AA0A6", wallpaper_top="#1E3C72", wallpaper_bottom="#6A8CC9", on_wallpaper="#FFFFFF",
)

DARK = Palette(
    name="dark", background="#121212", surface="#1F1F23", surface_alt="#2C2C31", on_surface="#E8E8EC",
    on_surface_dim="#A0A4AB", divider="#33343A", status_bar="#121212", on_status_bar="#E8E8EC",
    nav_bar="#0B0B0C", on_nav_bar="#D0D0D4", keyboard="#202124", key="#3C4043", key_special="#2A2B2E",
    on_key="#E8EAED", scrim="#000000A0", toast="#E8EAED", on_toast="#202124", link="#8AB4F8",
    switch_off="#5F6368", wallpaper_top="#0B1426", wallpaper_bottom="#2B3F66", on_wallpaper="#FFFFFF",
)


def palette(dark: bool) -> Palette:
    """The palette for the current theme."""
    return DARK if dark else LIGHT


def rgb(color: str) -> tuple[int, ...]:
    """``#RRGGBB`` or ``#RRGGBBAA`` as a tuple of ints."""
    raw = color.lstrip("#")
    return tuple(int(raw[i:i + 2], 16) for i in range(0, len(raw), 2))


def mix(color: str, other: str, t: float) -> str:
    """``color`` blended toward ``other`` by ``t`` (0..1), as hex."""
    a, b = rgb(color)[:3], rgb(other)[:3]
    return "#" + "".join(f"{round(x + (y - x) * t):02X}" for x, y in zip(a, b, strict=True))
