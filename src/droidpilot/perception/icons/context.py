"""The thing a query says an icon sits in or on ("in the search bar", "on the cyan button"), found on
screen so candidates inside it are preferred.

A search bar is the wide field around the hint text OCR reads ("Search here", "Search or type URL"): the
pixels of the hint's surroundings, grown across the row. A named colour and a thing ("cyan button") is the
widest patch of that colour that is wider than tall. Anything else is not looked for (the words stay a
preference no candidate is weighed by).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import cv2
import numpy as np

from droidpilot.perception.icons.colours import COLOUR_NAMES, pixel_names
from droidpilot.perception.icons.imageio import channel_max
from droidpilot.perception.icons.query import COLOUR_WORDS
from droidpilot.perception.types import Box, OcrLine

SEARCH_WORDS = {"search", "address", "url", "omnibox"}
HINT = re.compile(r"^(search|find)\b|\b(search|type url|url)\b")  # a search field's hint text
TOP_FIELD = 0.25  # a search field without a hint is looked for in this top share of the screen
FIELD_TOLERANCE = 14  # a field's pixels differ from its colour around the hint by at most this per channel
MAX_FIELD_HEIGHT = 4.5  # a field taller than this many hint heights leaked into a page of its colour


def _hint_line(lines: Sequence[OcrLine], height: int) -> OcrLine | None:
    """The topmost line that reads like a search field's hint ("Search Music and Podcasts", "Search or type
    URL"); "Since you searched for ..." is not one."""
    hints = [ln for ln in lines if ln.box[1] > 0.03 * height and HINT.search(ln.text.lower())]
    return min(hints, key=lambda ln: ln.box[1], default=None)


def _search_field(image: np.ndarray, lines: Sequence[OcrLine]) -> Box | None:
    """The search field: around its hint text, else the first field at the top holding text (a search
    already typed, "Steph Curry"): wide, and a patch of its own colour, not the page."""
    h, w = image.shape[:2]
    hint = _hint_line(lines, h)
    if hint is not None:
        return field_around(image, hint.box)
    for ln in sorted((ln for ln in lines if 0.03 * h < ln.box[1] < TOP_FIELD * h), key=lambda ln: ln.box[1]):
        box = field_around(image, ln.box)
        bw, bh = box[2] - box[0], box[3] - box[1]
        if box[0] > 0 and box[2] < w and bw >= 0.35 * w and bw >= 3 * bh:
            return box
    return None


def field_around(image: np.ndarray, box: Box) -> Box:
    """The field holding the text ``box``: the connected patch of the colour just around the text, in a band
    of rows about it; the band across the screen when that colour runs on into the page."""
    h, w = image.shape[:2]
    th = max(1, box[3] - box[1])
    y1, y2 = max(0, box[1] - 2 * th), min(h, box[3] + 2 * th)
    pad = 3
    x1, x2 = max(0, box[0] - pad), min(w, box[2] + pad)
    ring = np.concatenate([image[max(0, box[1] - pad):box[1], x1:x2].reshape(-1, 3),
                           image[box[3]:min(h, box[3] + pad), x1:x2].reshape(-1, 3)])
    band_box = (0, max(0, box[1] - th), w, min(h, box[3] + th))
    if ring.size == 0:
        return band_box
    colour = np.median(ring, axis=0).astype(np.int16)
    band = image[y1:y2]
    same = (channel_max(np.abs(band.astype(np.int16) - colour)) <= FIELD_TOLERANCE).astype(np.uint8)
    same[box[1] - y1:box[3] - y1, box[0]:box[2]] = 1  # the text itself is part of the field
    _, labels = cv2.connectedComponents(same, connectivity=4)
    label = labels[(box[1] + box[3]) // 2 - y1, (box[0] + box[2]) // 2]
    ys, xs = np.nonzero(labels == label)
    if len(ys) == 0:
        return band_box
    fy1, fy2 = int(ys.min()) + y1, int(ys.max()) + y1 + 1
    if fy2 - fy1 > MAX_FIELD_HEIGHT * th or fy1 <= y1 or fy2 >= y2:
        return band_box
    return (int(xs.min()), fy1, int(xs.max()) + 1, fy2)


def coloured_patch(image: np.ndarray, colour: str) -> Box | None:
    """The widest patch of ``colour`` (a colour name) that is wider than tall, e.g. a cyan button."""
    h, w = image.shape[:2]
    step = 2  # named at half resolution: a button is far larger than two pixels
    small = np.ascontiguousarray(image[::step, ::step])
    names = pixel_names(small).reshape(small.shape[:2])
    mask = (names == COLOUR_NAMES.index(colour)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    best: Box | None = None
    for k in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[k])
        if bw > bh and bw * step >= 0.15 * w and area >= 0.5 * bw * bh and y * step > 0.04 * h:
            box = (x * step, y * step, min(w, (x + bw) * step), min(h, (y + bh) * step))
            if best is None or box[2] - box[0] > best[2] - best[0]:
                best = box
    return best


def container_box(image: np.ndarray, lines: Sequence[OcrLine], container: str | None) -> Box | None:
    """The box of the named container on screen, or None when it is not a kind looked for or not found."""
    if not container:
        return None
    words = container.split()
    if SEARCH_WORDS & set(words):
        return _search_field(image, lines)
    colour = next((COLOUR_WORDS[w] for w in words if w in COLOUR_WORDS), None)
    if colour is not None and colour in COLOUR_NAMES[:8]:
        return coloured_patch(image, colour)
    return None


def inside(box: Box, container: Box) -> bool:
    """Is the candidate inside the container (its centre in it, and clearly smaller than it)?"""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    area = (box[2] - box[0]) * (box[3] - box[1])
    c_area = max(1, (container[2] - container[0]) * (container[3] - container[1]))
    return container[0] <= cx < container[2] and container[1] <= cy < container[3] and area < 0.6 * c_area
