"""A two-coloured region is read colour by colour, shape included: a thin white magnifier beside a blue
patch of a video frame is a white magnifier, not an unknown white blob; a white ring is a circle."""

from __future__ import annotations

import cv2
import numpy as np

from droidpilot.perception.icons.candidates import find_regions
from droidpilot.perception.icons.describe import describe_region
from droidpilot.perception.icons.readings import readings_of


def _frame(draw_white) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    img = np.full((200, 260, 3), (70, 30, 20), np.uint8)  # a dark blue frame (BGR)
    cv2.rectangle(img, (40, 60), (90, 140), (230, 120, 40), -1)  # a blue patch of the frame, in the box
    draw_white(img)
    return img, (40, 55, 200, 150)


def _magnifier(img: np.ndarray) -> None:
    cv2.circle(img, (140, 92), 26, (250, 250, 250), 3, cv2.LINE_AA)
    cv2.line(img, (159, 111), (182, 136), (250, 250, 250), 4, cv2.LINE_AA)


def _ring(img: np.ndarray) -> None:
    cv2.circle(img, (150, 100), 30, (250, 250, 250), 3, cv2.LINE_AA)


def _white_part_shapes(img: np.ndarray, box: tuple[int, int, int, int]) -> dict[str, float]:
    desc = describe_region(img, box)
    parts = [r for r in readings_of(desc) if r.label == "white part"]
    assert parts, [r.label for r in readings_of(desc)]
    return parts[0].shapes


def test_the_white_part_of_a_two_coloured_region_is_classified() -> None:
    shapes = _white_part_shapes(*_frame(_magnifier))
    assert max(shapes, key=shapes.get) == "magnifier", shapes


def test_a_white_ring_part_is_a_circle_not_a_magnifier() -> None:
    shapes = _white_part_shapes(*_frame(_ring))
    assert max(shapes, key=shapes.get) == "circle", shapes
    assert shapes.get("magnifier", 0.0) < shapes["circle"]


def test_a_sliver_cut_by_the_screen_side_is_no_candidate() -> None:
    # a picture scrolled off the right edge leaves a strip 6 px wide: not an icon one can tap; the same
    # strip a little inside the screen (a kebab menu's dots) stays
    img = np.full((1170, 540, 3), 250, np.uint8)
    img[400:440, 534:540] = (40, 40, 40)
    img[600:640, 500:506] = (40, 40, 40)
    boxes = [r.box for r in find_regions(img, [])]
    assert not any(b[2] == 540 and b[1] >= 390 and b[3] <= 450 for b in boxes)
    assert any(b[0] >= 495 and b[2] <= 510 and 590 <= b[1] <= 610 for b in boxes)


def test_white_ink_on_a_textured_picture_is_proposed() -> None:
    # a video's white heart on a busy picture: the texture glues it to the picture in the difference and
    # edge masks; the white-ink proposal still sees it alone
    rng = np.random.default_rng(3)
    img = rng.integers(90, 170, (1170, 540, 3), dtype=np.uint8)
    cv2.circle(img, (485, 630), 16, (255, 255, 255), -1)
    boxes = find_regions(img, [])
    assert any(abs(r.box[0] - 469) <= 3 and abs(r.box[3] - 647) <= 3 for r in boxes)
