"""A calc parameter with ``places`` writes its result with that many decimals (a receipt's total reads
59.00, not 59), and a bad ``places`` is an error naming the parameter and what it takes."""

from __future__ import annotations

import random

import pytest

from droidpilot.bench.world.derived import derive
from droidpilot.errors import InputError


def test_places_writes_the_decimals() -> None:
    ctx = {"a": "35.00", "b": "24.00"}
    assert derive({"type": "calc", "value": "{a}+{b}", "places": 2}, random.Random(0), ctx, "t") == "59.00"
    assert derive({"type": "calc", "value": "{a}+{b}"}, random.Random(0), ctx, "t") == "59"


@pytest.mark.parametrize("places", [-1, 7, "2", True])
def test_bad_places_is_refused(places: object) -> None:
    with pytest.raises(InputError, match=r"places: .* must be a whole number of decimals from 0 to 6"):
        derive({"type": "calc", "value": "1+2", "places": places}, random.Random(0), {}, "t")
