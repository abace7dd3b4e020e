"""``pick`` with ``order: drawn``: several distinct items in the order the seed drew them (songs asked for
"in order" must not simply follow the list), the same items as the default list order, seeded."""

from __future__ import annotations

import random
from typing import Any

import pytest

from droidpilot.bench.params import ParamError
from droidpilot.bench.world.derived import derive

SONGS = [{"name": n} for n in ("a", "b", "c", "d", "e", "f", "g")]


def _pick(seed: int, **extra: Any) -> list[str]:
    spec = {"type": "pick", "from": "songs", "count": 3, **extra}
    return [s["name"] for s in derive(spec, random.Random(seed), {"songs": SONGS}, "t")]


def test_drawn_order_keeps_the_draw_and_picks_the_same_items_as_list_order() -> None:
    for seed in range(10):
        drawn, listed = _pick(seed, order="drawn"), _pick(seed)
        assert sorted(drawn) == listed and _pick(seed, order="drawn") == drawn  # same items, seeded
    assert any(_pick(seed, order="drawn") != _pick(seed) for seed in range(10))  # not always list order


def test_an_unknown_order_is_refused_naming_the_choices() -> None:
    with pytest.raises(ParamError, match=r"t.order: 'random'; use list \(the default\) or drawn"):
        _pick(0, order="random")
