"""A rate shown as a percent: a near miss never reads as all or nothing."""

from __future__ import annotations

import pytest

from droidpilot.bench.percent import percent


@pytest.mark.parametrize(("rate", "shown"), [
    (1.0, "100%"), (0.0, "0%"), (0.5, "50%"), (2 / 3, "67%"),
    (275 / 276, "99.6%"),  # one failure in 276: not "100%"
    (1 / 276, "0.4%"),  # one success in 276: not "0%"
    (0.9951, "99.5%"), (0.994, "99%"),
    (1 - 1e-5, "99.999%"),  # rounds to 100.0 and 100.00: more digits until it does not
])
def test_rates_and_their_near_misses(rate, shown):
    assert percent(rate) == shown
