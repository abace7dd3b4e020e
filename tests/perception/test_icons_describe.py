"""Colour names and shape classes of rendered icons, measured on shapes drawn by the test itself."""

from __future__ import annotations

import numpy as np
import pytest

from droidpilot.perception.icons.colours import COLOUR_NAMES, colour_distribution, colour_match
from droidpilot.perception.icons.describe import describe_region
from droidpilot.perception.icons.drawing import NAMED_RGB, SHAPES, draw_icon
from droidpilot.perception.icons.shapes import classify_shape

BACKGROUNDS = {"light": 250, "dark": 18}


def _canvas(theme: str, size: int = 220) -> np.ndarray:
    return np.full((size, size, 3), BACKGROUNDS[theme], np.uint8)


def _expected(shape: str) -> str:
    return "plus" if shape == "cross" else shape


@pytest.mark.parametrize("colour", COLOUR_NAMES)
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_colour_of_a_filled_circle_is_named(colour: str, theme: str) -> None:
    if (colour, theme) in (("white", "light"), ("black", "dark")):
        pytest.skip("an icon the colour of its page is invisible")
    img = _canvas(theme)
    drawn = draw_icon(img, "circle", (110, 110), 90, colour)
    desc = describe_region(img, drawn.box)
    assert desc.colour == colour, desc.colours


def test_colour_ignores_the_background_and_antialiased_rim() -> None:
    img = _canvas("light")
    drawn = draw_icon(img, "star", (110, 110), 60, "red")
    desc = describe_region(img, drawn.box)
    assert desc.colour == "red"
    assert desc.colour_share > 0.9
    assert "white" not in desc.colours


def test_colour_match_gives_partial_credit_to_neighbours() -> None:
    red = np.array([[NAMED_RGB["red"][::-1]]] * 10, np.uint8)
    dist = colour_distribution(red)
    assert colour_match(dist, "red") == 1.0
    assert 0 < colour_match(dist, "orange") < 0.5
    assert colour_match(dist, "blue") == 0.0


def test_white_icon_on_a_blue_button_is_white() -> None:
    img = _canvas("light")
    draw_icon(img, "circle", (110, 110), 140, "blue")
    drawn = draw_icon(img, "plus", (110, 110), 60, "white")
    desc = describe_region(img, drawn.box)
    assert (desc.colour, desc.shape) == ("white", "plus")


def _render_set() -> list[tuple[str, np.ndarray, tuple[int, int, int, int]]]:
    """Every shape in several sizes, colours, rotations and both themes."""
    out = []
    colours = ["red", "blue", "green", "gray", "orange", "purple"]
    i = 0
    for theme in ("light", "dark"):
        for size in (28, 48, 80, 128):
            for shape in SHAPES:
                for rotation in (0, 10):
                    if rotation and shape in ("circle",):
                        continue
                    img = _canvas(theme)
                    drawn = draw_icon(img, shape, (110, 110), size, colours[i % len(colours)], rotation)
                    out.append((shape, img, drawn.box))
                    i += 1
    return out


def test_shape_classification_accuracy_on_rendered_shapes() -> None:
    samples = _render_set()
    wrong = []
    for shape, img, box in samples:
        got = describe_region(img, box).shape
        if got != _expected(shape):
            wrong.append((shape, got))
    accuracy = 1 - len(wrong) / len(samples)
    assert len(samples) >= 150
    assert accuracy >= 0.9, f"accuracy {accuracy:.2f}; wrong: {wrong}"


@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_is_recognised_at_a_usual_icon_size(shape: str) -> None:
    img = _canvas("light")
    drawn = draw_icon(img, shape, (110, 110), 72, "blue")
    desc = describe_region(img, drawn.box)
    assert desc.shape == _expected(shape)
    assert desc.shape_confidence >= 0.4
    assert desc.text == f"blue {_expected(shape)}"


def test_outlined_ring_is_a_circle_not_a_magnifier() -> None:
    import cv2

    img = _canvas("light")
    cv2.circle(img, (110, 110), 40, (60, 60, 60), 8, cv2.LINE_AA)
    best, _, probs = classify_shape((np.abs(img.astype(int) - 250).max(axis=2) > 35).astype(np.uint8))
    assert best == "circle"
    assert probs["magnifier"] < 0.1


def test_empty_mask_has_no_shape() -> None:
    assert classify_shape(np.zeros((20, 20), np.uint8))[0] == "unknown"
