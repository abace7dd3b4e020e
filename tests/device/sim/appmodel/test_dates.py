"""The date and duration filters of app templates: what Calendar's and Clock's pickers accept."""

from __future__ import annotations

import pytest

from droidpilot.device.sim.appmodel.expr import render
from droidpilot.errors import InputError


def _f(value: str, name: str) -> str:
    return str(render(f"{{v|{name}}}", {"v": value}))


@pytest.mark.parametrize(("typed", "day"), [("2026-12-08", "2026-12-08"), ("2026/12/8", "2026-12-08"),
                                            ("12/08/2026", "2026-12-08"), (" 2028-02-29 ", "2028-02-29")])
def test_date_reads_a_day_written_three_ways(typed: str, day: str) -> None:
    assert _f(typed, "date") == day


@pytest.mark.parametrize("typed", ["2026-02-30", "2027-02-29", "2026-13-01", "13/01/2026", "tomorrow", "",
                                   "2026-12", "20261208"])
def test_date_gives_nothing_for_what_a_date_picker_cannot_produce(typed: str) -> None:
    assert _f(typed, "date") == ""


def test_days_are_written_long_and_short_and_step_by_month_and_day() -> None:
    assert _f("2026-12-08", "long_date") == "Tuesday, December 8, 2026"
    assert _f("2026-12-08", "short_date") == "Tue, Dec 8"
    assert _f("2026-12-31", "next_month") == "2027-01-01"
    assert _f("2026-01-15", "prev_month") == "2025-12-01"
    assert _f("2026-12-31", "next_day") == "2027-01-01"
    assert _f("2026-03-01", "prev_day") == "2026-02-28"
    assert _f("not a day", "long_date") == "" and _f("12/08/2026", "next_month") == ""
    parts = [_f("2026-12-08", name) for name in ("weekday", "day_of_month", "month_and_day")]
    assert parts == ["Tuesday", "8", "12-08"]


@pytest.mark.parametrize(("typed", "minutes", "sixty", "hours"),
                         [("30", "30", "30", "30"), ("0", "", "0", "0"), ("", "", "0", "0"),
                          ("59", "59", "59", "59"), ("60", "60", "", "60"), ("99", "99", "", "99"),
                          ("100", "100", "", ""), ("1440", "1440", "", ""), ("1441", "", "", ""),
                          ("-5", "", "", ""), ("1.5", "", "", ""),
                          ("ten", "", "", "")])
def test_duration_and_timer_wheels_take_only_whole_numbers_in_range(typed: str, minutes: str, sixty: str,
                                                                    hours: str) -> None:
    assert (_f(typed, "minutes"), _f(typed, "sixty"), _f(typed, "hours")) == (minutes, sixty, hours)


def test_an_unknown_filter_names_the_known_ones() -> None:
    with pytest.raises(InputError, match=r"known: .*long_date.*sixty"):
        render("{v|fortnight}", {"v": "2026-12-08"})
