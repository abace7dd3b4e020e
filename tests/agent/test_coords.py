"""Coordinate spaces: every brain's numbers become device pixels in one place."""

from __future__ import annotations

import pytest

from droidpilot.agent.coords import CoordFrame, fit_size, from_device, to_device
from droidpilot.errors import InputError

SIZE = (1080, 2400)


@pytest.mark.parametrize(("space", "point", "image", "expected"), [
    ("device", (540, 1200), None, (540, 1200)),
    ("normalized", (0.5, 0.25), None, (540, 600)),
    ("thousand", (500, 250), None, (540, 600)),
    ("image", (256, 569), (486, 1080), (569, 1264)),
])
def test_to_device(space: str, point: tuple[float, float], image: tuple[int, int] | None,
                   expected: tuple[int, int]) -> None:
    assert to_device(*point, space, SIZE, image) == expected  # type: ignore[arg-type]


def test_points_are_clamped_onto_the_screen() -> None:
    assert to_device(-5, 5000, "device", SIZE) == (0, 2399)
    assert to_device(1.2, 1.0, "normalized", SIZE) == (1079, 2399)


@pytest.mark.parametrize("space", ["device", "normalized", "thousand", "image"])
def test_round_trip(space: str) -> None:
    image = fit_size(SIZE, 1024)
    x, y = from_device(300, 1700, space, SIZE, image)  # type: ignore[arg-type]
    assert to_device(x, y, space, SIZE, image) == (300, 1700)  # type: ignore[arg-type]


def test_fit_size_only_shrinks() -> None:
    assert fit_size(SIZE, 1200) == (540, 1200)
    assert fit_size((200, 100), 1024) == (200, 100)


def test_bad_space_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown coordinate space"):
        CoordFrame("pixels", SIZE)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="needs the size of the image"):
        CoordFrame("image", SIZE)


def test_view_to_device_scales_a_click_on_the_shown_image() -> None:
    from droidpilot.agent.coords import view_to_device

    assert view_to_device(270, 600, (540, 1200), SIZE) == (540, 1200)
    assert view_to_device(539.9, 1199.9, (540, 1200), SIZE) == (1079, 2399)
    for bad in ((540, 10), (-1, 10), (float("nan"), 10)):
        with pytest.raises(InputError, match="outside the 540x1200 screen image"):
            view_to_device(*bad, (540, 1200), SIZE)
    with pytest.raises(InputError, match="view size must be positive"):
        view_to_device(1, 1, (0, 1200), SIZE)
