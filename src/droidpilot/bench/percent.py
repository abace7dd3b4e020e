"""Rates shown as percentages that never round a near miss into a clean sweep (or a zero)."""

from __future__ import annotations


def percent(rate: float) -> str:
    """``rate`` (0..1) as a whole percent, except where rounding would hide a difference: 275 of 276 is
    "99.6%", not "100%", and 1 of 276 "0.4%", not "0%"; only all or nothing shows as 100% or 0%."""
    pct = float(rate) * 100
    shown = f"{pct:.0f}"
    if (shown == "100" and rate < 1) or (shown == "0" and rate > 0):
        digits = 1
        while f"{pct:.{digits}f}" in (f"{100:.{digits}f}", f"{0:.{digits}f}") and digits < 6:
            digits += 1
        return f"{pct:.{digits}f}%"
    return f"{shown}%"
