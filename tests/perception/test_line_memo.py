"""The line memory: keys that tell crops and widths apart, least-recently-used eviction, and switching off."""

from __future__ import annotations

import numpy as np

from droidpilot.perception.line_memo import LineMemo


def crop(value: int, width: int = 40) -> np.ndarray:
    return np.full((20, width, 3), value, np.uint8)


def test_a_key_is_the_crop_pixels_shape_and_input_width() -> None:
    base = LineMemo.key(crop(200), 160)
    assert LineMemo.key(crop(200), 160) == base
    assert LineMemo.key(crop(201), 160) != base  # other pixels
    assert LineMemo.key(crop(200, 41), 160) != base  # other shape
    assert LineMemo.key(crop(200), 192) != base  # read at another width
    view = np.zeros((40, 80, 3), np.uint8)[10:30, 20:60]  # a non-contiguous view keys like its copy
    assert LineMemo.key(view, 160) == LineMemo.key(np.ascontiguousarray(view), 160)


def test_the_least_recently_used_line_goes_first_and_zero_entries_remember_nothing() -> None:
    memo = LineMemo(max_entries=2)
    a, b, c = (LineMemo.key(crop(v), 160) for v in (1, 2, 3))
    memo.put(a, ("Wi-Fi", 0.99))
    memo.put(b, ("Bluetooth", 0.98))
    assert memo.get(a) == ("Wi-Fi", 0.99)  # a is now the most recent
    memo.put(c, ("Airplane mode", 0.97))
    assert memo.get(b) is None and memo.get(a) is not None and memo.get(c) is not None
    assert (memo.hits, memo.misses, len(memo)) == (3, 1, 2)
    memo.clear()
    assert len(memo) == 0
    off = LineMemo(max_entries=0)
    off.put(a, ("Wi-Fi", 0.99))
    assert off.get(a) is None and len(off) == 0
