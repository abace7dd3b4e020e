"""SimPhone's PNG encoder: any PNG reader decodes exactly the pixels, including after band reuse."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from droidpilot.device.sim.draw.png import encode_png, forget_bands


def _decode(data: bytes) -> np.ndarray:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return np.asarray(img.convert("RGB"))


@pytest.mark.parametrize("size", [(1, 1), (97, 193), (720, 1600)])
def test_round_trip_and_reuse(size: tuple[int, int]) -> None:
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    pixels[size[1] // 3:, :] = 240  # a flat area, as on a phone screen
    forget_bands()
    first = Image.fromarray(pixels)
    assert np.array_equal(_decode(encode_png(first)), pixels)
    changed = pixels.copy()
    changed[size[1] // 2: size[1] // 2 + 3, : max(size[0] // 4, 1)] = (255, 0, 0)  # one small edit
    assert np.array_equal(_decode(encode_png(Image.fromarray(changed))), changed)
    assert np.array_equal(_decode(encode_png(first)), pixels)  # and back again


def test_other_modes_are_converted() -> None:
    img = Image.new("L", (50, 40), 128)
    assert np.array_equal(_decode(encode_png(img)), np.asarray(img.convert("RGB")))
