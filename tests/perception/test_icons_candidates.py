"""The proposal stage's box arithmetic (perception/icons/candidates.py): which proposals are mostly
inside a text line, every pair at once, as one pair at a time would say."""

from __future__ import annotations

import numpy as np

from droidpilot.perception.icons.candidates import _overlap_share, mostly_inside


def test_mostly_inside_is_the_overlap_share_of_every_pair() -> None:
    rng = np.random.default_rng(3)
    corners = rng.integers(0, 300, size=(400, 2, 2))
    boxes = [(int(min(a[0], b[0])), int(min(a[1], b[1])), int(max(a[0], b[0])), int(max(a[1], b[1])))
             for a, b in corners]
    boxes += [(10, 10, 10, 40), (5, 5, 25, 25)]  # an empty box, and one exactly 0.6 inside the next
    lines = [*boxes[:30], (5, 5, 17, 25)]
    expected = [any(_overlap_share(b, t) >= 0.6 for t in lines) for b in boxes]
    assert mostly_inside(boxes, lines) == expected
    assert mostly_inside(boxes, []) == [False] * len(boxes) and mostly_inside([], lines) == []
    assert mostly_inside([(5, 5, 25, 25)], [(5, 5, 17, 25)]) == [True]  # 12 of 20 columns: 0.6 inside
