"""Colour names for icon pixels by HSV bins: the twelve words a model uses ("red", "gray", ...).

Each pixel gets one name; a region's colour is the distribution of its foreground pixels' names, so a
description can be matched against the share of the asked colour, not only against the winner.
"""

from __future__ import annotations

import cv2
import numpy as np

COLOUR_NAMES: tuple[str, ...] = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "pink",
                                 "brown", "black", "white", "gray")

# Colours a person may call by a neighbour's name: partial credit when ranking ("orange" vs "red").
NEIGHBOURS: dict[str, dict[str, float]] = {
    "red": {"orange": 0.35, "pink": 0.35, "brown": 0.25},
    "orange": {"red": 0.35, "yellow": 0.35, "brown": 0.35},
    "yellow": {"orange": 0.35, "green": 0.15},
    "green": {"cyan": 0.3, "yellow": 0.15},
    "cyan": {"blue": 0.35, "green": 0.3},
    "blue": {"cyan": 0.35, "purple": 0.25},
    "purple": {"pink": 0.35, "blue": 0.25},
    "pink": {"red": 0.35, "purple": 0.35},
    "brown": {"orange": 0.35, "red": 0.25, "black": 0.15},
    # People call dark icons gray and light-gray ones white: enough credit to match, less than exact.
    "black": {"gray": 0.6, "brown": 0.1},
    "white": {"gray": 0.6},
    "gray": {"black": 0.6, "white": 0.6},
}


CHROMATIC = frozenset(COLOUR_NAMES[:8])
MULTI_SHARE = 0.12  # a hue with at least this share of an icon's pixels is one of its colours


def pixel_names(bgr: np.ndarray) -> np.ndarray:
    """The index into COLOUR_NAMES of each pixel of an (N, 3) or (H, W, 3) BGR uint8 array."""
    return _names_and_hue(bgr)[0]


def _names_and_hue(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(colour name index, OpenCV hue) of each pixel."""
    flat = np.ascontiguousarray(bgr.reshape(-1, 1, 3).astype(np.uint8))
    hsv = cv2.cvtColor(flat, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.int32)
    hue, sat, val = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    b, g, r = (flat[:, 0, k].astype(np.int32) for k in range(3))  # (max - min without a slow axis reduce)
    chroma = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    idx = np.empty(len(hue), np.int8)
    # Hue bins (OpenCV hue is degrees / 2).
    idx[:] = COLOUR_NAMES.index("red")
    for name, lo, hi in (("orange", 8, 21), ("yellow", 21, 35), ("green", 35, 82), ("cyan", 82, 100),
                         ("blue", 100, 128), ("purple", 128, 150), ("pink", 150, 168)):
        idx[(hue >= lo) & (hue < hi)] = COLOUR_NAMES.index(name)
    reddish = (hue >= 168) | (hue < 8)
    idx[reddish & (sat < 166) & (val > 170)] = COLOUR_NAMES.index("pink")
    warm = reddish | ((hue >= 8) & (hue < 21))
    idx[warm & (val < 150) & (sat < 200)] = COLOUR_NAMES.index("brown")
    # Achromatic pixels: by brightness only.
    grey = (chroma < 28) | (sat < 40)
    idx[grey] = COLOUR_NAMES.index("gray")
    idx[grey & (val >= 215)] = COLOUR_NAMES.index("white")
    idx[(val < 55) | (grey & (val < 70))] = COLOUR_NAMES.index("black")
    return idx, hue


# Hue boundaries (OpenCV hue) between neighbouring names. Near a boundary a colour is seen as both
# (teal is greenish cyan, Material pink is a pinkish red): a pixel's weight is shared out linearly
# within a blend width of hue units, half and half on the boundary itself. The wide blends are where
# people's names overlap most (teal, rose).
HUE_BOUNDARIES: tuple[tuple[int, str, str, float], ...] = (
    (8, "red", "orange", 4.0), (21, "orange", "yellow", 4.0), (35, "yellow", "green", 5.0),
    (82, "green", "cyan", 10.0), (100, "cyan", "blue", 6.0), (128, "blue", "purple", 6.0),
    (150, "purple", "pink", 6.0), (168, "pink", "red", 10.0))


def colour_weight_sums(bgr: np.ndarray) -> np.ndarray:
    """The weights of each colour name summed over the pixels (each pixel's weights sum to 1):
    perceptual naming, a pixel near a hue boundary counting partly for both names."""
    idx, hue_int = _names_and_hue(bgr)
    counts = np.bincount(idx.astype(np.int64), minlength=len(COLOUR_NAMES)).astype(np.float64)
    hue = hue_int.astype(np.float32)
    for at, below, above, blend in HUE_BOUNDARIES:
        near = np.abs(hue - at) < blend  # only pixels within the blend width share their weight
        if not near.any():
            continue
        share = 0.5 - np.abs(hue[near] - at) / (2 * blend)
        names = idx[near]
        lo, hi = COLOUR_NAMES.index(below), COLOUR_NAMES.index(above)
        for own, other in ((lo, hi), (hi, lo)):
            moved = float(share[names == own].sum())
            counts[own] -= moved
            counts[other] += moved
    return counts


def colour_distribution(bgr_pixels: np.ndarray) -> dict[str, float]:
    """Share of each colour name among the given pixels (names with no share are left out)."""
    if bgr_pixels.size == 0:
        return {}
    counts = colour_weight_sums(bgr_pixels)
    total = float(counts.sum())
    return {COLOUR_NAMES[i]: float(c) / total for i, c in enumerate(counts) if c > 1e-6}


def dominant_colour(distribution: dict[str, float]) -> tuple[str, float]:
    """The most frequent colour name and its share; ("gray", 0.0) for an empty distribution."""
    if not distribution:
        return "gray", 0.0
    name = max(distribution, key=lambda k: distribution[k])
    return name, distribution[name]


def colour_match(distribution: dict[str, float], wanted: str) -> float:
    """How well a region's colours fit the wanted name, 0..1: its share, plus partial neighbour credit."""
    if not distribution:
        return 0.0
    share = distribution.get(wanted, 0.0)
    near = sum(w * distribution.get(n, 0.0) for n, w in NEIGHBOURS.get(wanted, {}).items())
    top = max(distribution.values())
    if share + near <= 0:
        return 0.0
    # A region is "red" when red is (nearly) its main colour, whatever the share of anti-aliased edges.
    fit = min(1.0, (share + near) / max(top, 1e-6))
    # ...but not when other strong hues share it: a multicoloured logo is not "blue".
    rivals = sum(v for k, v in distribution.items() if k in CHROMATIC and k != wanted
                 and k not in NEIGHBOURS.get(wanted, {}) and v >= MULTI_SHARE)
    return fit * (share + near) / (share + near + rivals)
