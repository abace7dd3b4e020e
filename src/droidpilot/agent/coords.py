"""Coordinate spaces a brain may speak in, and the one place they become device pixels.

Everything the agent stores or sends to a device is in device pixels of the full-resolution screenshot;
a brain that grounds itself declares its space and ``to_device`` converts its numbers at this boundary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from droidpilot.errors import InputError

CoordSpace = Literal["device", "normalized", "thousand", "image"]
COORD_SPACES: tuple[CoordSpace, ...] = ("device", "normalized", "thousand", "image")


@dataclass(frozen=True)
class CoordFrame:
    """How to read a brain's numbers: its space, the device's size and (for ``image``) the image shown."""

    space: CoordSpace
    device_size: tuple[int, int]
    image_size: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.space not in COORD_SPACES:
            raise InputError(f"unknown coordinate space {self.space!r}; use one of {', '.join(COORD_SPACES)}")
        if self.space == "image" and not self.image_size:
            raise InputError("the 'image' coordinate space needs the size of the image the brain was shown")

    def to_device(self, x: float, y: float) -> tuple[int, int]:
        """Convert one point to device pixels, clamped onto the screen."""
        return to_device(x, y, self.space, self.device_size, self.image_size)


def check_space(space: str) -> CoordSpace:
    """Validate a coordinate-space name given by a user."""
    if space not in COORD_SPACES:
        raise InputError(f"unknown coordinate space {space!r}; use one of {', '.join(COORD_SPACES)}")
    return space  # type: ignore[return-value]


def to_device(x: float, y: float, space: CoordSpace, device_size: tuple[int, int],
              image_size: tuple[int, int] | None = None) -> tuple[int, int]:
    """Map ``(x, y)`` given in ``space`` to integer device pixels inside ``device_size``."""
    width, height = device_size
    if space == "device":
        dx, dy = x, y
    elif space == "normalized":
        dx, dy = x * width, y * height
    elif space == "thousand":
        dx, dy = x / 1000.0 * width, y / 1000.0 * height
    elif space == "image":
        if not image_size:
            raise InputError("the 'image' coordinate space needs the size of the image the brain was shown")
        dx, dy = x * width / image_size[0], y * height / image_size[1]
    else:
        raise InputError(f"unknown coordinate space {space!r}; use one of {', '.join(COORD_SPACES)}")
    return (min(max(round(dx), 0), width - 1), min(max(round(dy), 0), height - 1))


def from_device(x: int, y: int, space: CoordSpace, device_size: tuple[int, int],
                image_size: tuple[int, int] | None = None) -> tuple[float, float]:
    """The inverse of ``to_device`` (for showing a brain where things are in its own space)."""
    width, height = device_size
    if space == "device":
        return float(x), float(y)
    if space == "normalized":
        return x / width, y / height
    if space == "thousand":
        return x * 1000.0 / width, y * 1000.0 / height
    if not image_size:
        raise InputError("the 'image' coordinate space needs the size of the image the brain was shown")
    return x * image_size[0] / width, y * image_size[1] / height


def view_to_device(x: float, y: float, view_size: tuple[float, float],
                   device_size: tuple[int, int]) -> tuple[int, int]:
    """A point on a displayed (scaled) screen image, e.g. a click in the studio, in device pixels.

    Unlike ``to_device`` it does not clamp: a point outside the view is an error, not the nearest edge.
    """
    vw, vh = view_size
    if not (vw > 0 and vh > 0):
        raise InputError(f"the view size must be positive, got {vw}x{vh}")
    if not (0 <= x < vw and 0 <= y < vh):
        raise InputError(f"point ({x:g}, {y:g}) is outside the {vw:g}x{vh:g} screen image")
    width, height = device_size
    return (min(int(x * width / vw), width - 1), min(int(y * height / vh), height - 1))


def fit_size(size: tuple[int, int], max_side: int) -> tuple[int, int]:
    """The size of an image scaled down (never up) so its longer side is at most ``max_side``."""
    width, height = size
    scale = min(1.0, max_side / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))
