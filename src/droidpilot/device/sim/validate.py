"""Checks of SimDevice's options (screen size, clock, date) with errors that say what is expected."""

from __future__ import annotations

import datetime as dt

from droidpilot.device.base import DeviceError


def parse_size(text: str) -> tuple[int, int]:
    """``"720x1600"`` -> (720, 1600); DeviceError for anything else."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise DeviceError(f"screen size {text!r} is not WIDTHxHEIGHT (for example 1080x2400)") from None
    if not (240 <= w <= 4000 and 320 <= h <= 8000):
        raise DeviceError(f"screen size {text!r} is out of range (240..4000 x 320..8000)")
    return w, h


def check_clock(clock: str, date: str) -> None:
    """DeviceError unless ``clock`` is HH:MM and ``date`` is YYYY-MM-DD."""
    try:
        dt.datetime.strptime(clock, "%H:%M")
    except ValueError:
        raise DeviceError(f"clock {clock!r} is not HH:MM (for example 10:30)") from None
    try:
        dt.date.fromisoformat(date)
    except ValueError:
        raise DeviceError(f"date {date!r} is not YYYY-MM-DD (for example 2026-11-22)") from None
