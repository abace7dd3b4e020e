"""Boxes from masks and clusters of boxes: the geometry the proposal sources share."""

from __future__ import annotations

import cv2
import numpy as np

from droidpilot.perception.types import Box


def components(mask: np.ndarray) -> list[Box]:
    """Boxes (x1, y1, x2, y2 exclusive) of the 8-connected components of a 0/1 mask."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _ in stats[1:count]]


class DisjointSets:
    """Union-find over 0..n-1, to cluster boxes that belong together."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        self.parent[self.find(i)] = self.find(j)


def group(boxes: list[Box], gap_ratio: float = 0.3) -> list[tuple[Box, int]]:
    """Clusters of boxes whose gap is small relative to their size: (union box, number of parts)."""
    n = len(boxes)
    sets = DisjointSets(n)

    order = sorted(range(n), key=lambda i: boxes[i][0])
    for pos, i in enumerate(order):
        a = boxes[i]
        sa = max(a[2] - a[0], a[3] - a[1])
        for j in order[pos + 1:]:
            b = boxes[j]
            sb = max(b[2] - b[0], b[3] - b[1])
            gap = max(3.0, gap_ratio * min(sa, sb))
            if b[0] > a[2] + gap:
                break
            dy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
            dx = max(0, b[0] - a[2])
            if dx <= gap and dy <= gap:
                sets.join(i, j)
    clusters: dict[int, list[int]] = {}
    for i in range(n):
        clusters.setdefault(sets.find(i), []).append(i)
    out = []
    for members in clusters.values():
        if len(members) < 2:
            continue
        xs1, ys1, xs2, ys2 = zip(*(boxes[m] for m in members), strict=True)
        out.append(((min(xs1), min(ys1), max(xs2), max(ys2)), len(members)))
    return out


def dot_rows(boxes: list[Box], max_side: float, min_dots: int = 3) -> list[Box]:
    """Rows or columns of ``min_dots`` or more alike dots (a kebab menu's three dots): each dot no
    larger than ``max_side``, centred on one line, spaced at most 2.5 dot sizes apart. Each dot alone
    is too small to propose, and their gaps are wider than ``group`` joins for parts so small."""
    dots = sorted(b for b in boxes if max(b[2] - b[0], b[3] - b[1]) <= max_side)
    out: list[Box] = []
    for axis in (0, 1):  # 0: a column of dots (stacked vertically), 1: a row
        along, across = (1, 0) if axis == 0 else (0, 1)
        lines: dict[int, list[Box]] = {}
        for b in dots:
            lines.setdefault((b[across] + b[across + 2]) // 2, []).append(b)
        for centre in sorted(lines):
            chain = sorted(lines[centre] + lines.get(centre + 1, []), key=lambda b: b[along])
            run = [chain[0]] if chain else []
            for b in chain[1:]:
                prev = run[-1]
                size = max(prev[2] - prev[0], prev[3] - prev[1])
                slack = max(1, round(0.4 * size))  # JPEG blurs a 4-px dot to 3-5 px
                alike = all(abs((b[i + 2] - b[i]) - (prev[i + 2] - prev[i])) <= slack for i in (0, 1))
                if alike and 0 <= b[along] - prev[along + 2] <= 2.5 * size:
                    run.append(b)
                    continue
                if len(run) >= min_dots:
                    out.append(_union(run))
                run = [b]
            if len(run) >= min_dots:
                out.append(_union(run))
    return sorted(set(out))


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))
