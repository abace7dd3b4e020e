"""Date and duration filters of app templates: what date, duration and timer pickers accept and how a
calendar writes a day.

``|date`` reads a calendar date typed as ``YYYY-MM-DD`` (also ``YYYY/MM/DD`` or ``MM/DD/YYYY``) and gives
it as ``YYYY-MM-DD``, or "" for what a date picker cannot produce (``2026-02-30``, ``13/01/2026``, text);
the others take a ``YYYY-MM-DD`` day and give "" for anything else: ``|long_date`` ("Tuesday, December 8,
2026"), ``|short_date`` ("Tue, Dec 8"), ``|weekday`` ("Tuesday"), ``|day_of_month`` ("8"), ``|month_and_day``
("12-08": when a repeating event recurs), ``|next_month`` / ``|prev_month`` (the first day of the month after
or before, for a month grid's arrows), ``|next_day`` / ``|prev_day``. ``|minutes`` reads a duration picker's
whole number of minutes (1 to 1440; "" for anything else); a timer's wheels: ``|hours`` a whole number 0-99,
``|sixty`` 0-59 (minutes or seconds), empty counting as 0, and "" for anything else (``75``, ``-1``, ``1.5``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

_ISO = re.compile(r"\s*(\d{4})[-/](\d{1,2})[-/](\d{1,2})\s*")
_US = re.compile(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*")


def read_date(text: str) -> dt.date | None:
    """The calendar date ``text`` spells (ISO, ``YYYY/MM/DD`` or ``MM/DD/YYYY``), None when it is not one."""
    match = _ISO.fullmatch(text)
    if match:
        year, month, day = (int(g) for g in match.groups())
    else:
        match = _US.fullmatch(text)
        if not match:
            return None
        month, day, year = (int(g) for g in match.groups())
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _shifted_month(day: dt.date, step: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + step
    return dt.date(index // 12, index % 12 + 1, 1)


def _on_day(make: Callable[[dt.date], str]) -> Callable[[str], str]:
    """A filter that reads an ISO day and gives ``make(day)``, or "" for anything that is not a day."""

    def apply(text: str) -> str:
        day = read_date(text) if _ISO.fullmatch(text) else None
        return make(day) if day else ""

    return apply


def _minutes(text: str) -> str:
    value = text.strip()
    return str(int(value)) if value.isdigit() and 1 <= int(value) <= 1440 else ""


def _wheel(top: int) -> Callable[[str], str]:
    def apply(text: str) -> str:
        value = text.strip() or "0"
        return str(int(value)) if value.isdigit() and int(value) <= top else ""

    return apply


DATE_FILTERS: dict[str, Callable[[str], str]] = {
    "date": lambda text: day.isoformat() if (day := read_date(text)) else "",
    "long_date": _on_day(lambda d: d.strftime("%A, %B ") + f"{d.day}, {d.year}"),
    "short_date": _on_day(lambda d: d.strftime("%a, %b ") + str(d.day)),
    "next_month": _on_day(lambda d: _shifted_month(d, 1).isoformat()),
    "prev_month": _on_day(lambda d: _shifted_month(d, -1).isoformat()),
    "next_day": _on_day(lambda d: (d + dt.timedelta(days=1)).isoformat()),
    "weekday": _on_day(lambda d: d.strftime("%A")),
    "day_of_month": _on_day(lambda d: str(d.day)),
    "month_and_day": _on_day(lambda d: d.strftime("%m-%d")),
    "prev_day": _on_day(lambda d: (d - dt.timedelta(days=1)).isoformat()),
    "minutes": _minutes,
    "hours": _wheel(99),
    "sixty": _wheel(59),
}
