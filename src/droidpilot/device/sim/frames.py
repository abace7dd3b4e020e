"""SimDevice's cache of rendered frames: a frame is drawn once per distinct screen, and what is derived
from it (PNG bytes for ``screencap -p``, a Pillow image for ``screenshot()``) is made once too."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from droidpilot.device.sim.draw.png import encode_png
from droidpilot.device.sim.draw.render import draw_pixels, ops_key

KEEP = 8  # the most recent distinct frames kept (going back and forth between screens hits the cache)


@dataclass
class Shot:
    """One rendered frame: its pixels (drawn as an array: learning environments read every frame as one),
    and its Pillow image and PNG once asked for."""

    array: np.ndarray
    png: bytes | None = None
    picture: Image.Image | None = None

    def __post_init__(self) -> None:
        self.array.flags.writeable = False

    @property
    def image(self) -> Image.Image:
        """The frame as an RGB Pillow image (shared: copy it before drawing on it)."""
        if self.picture is None:
            self.picture = Image.fromarray(self.array, "RGB")
        return self.picture

    def png_bytes(self) -> bytes:
        if self.png is None:
            self.png = encode_png(self.array)
        return self.png

    def pixels(self) -> np.ndarray:
        """The frame as a read-only ``uint8`` (height, width, 3) array."""
        return self.array


class FrameCache:
    """Rendered frames keyed by their draw operations and size, least recently used dropped first."""

    def __init__(self) -> None:
        self._shots: OrderedDict[str, Shot] = OrderedDict()
        self._last: tuple[Any, tuple[int, int], str] | None = None  # the last ops list asked for, its key

    def get(self, ops: Any, size: tuple[int, int]) -> Shot:
        """The frame ``ops`` draw at ``size`` (drawn now on a miss). The same ops list asked for again (a
        view kept across inputs that changed nothing) reuses its key: digesting the ops costs a repr."""
        if self._last is not None and self._last[0] is ops and self._last[1] == size:
            key = self._last[2]
        else:
            key = ops_key(ops, size)
            self._last = (ops, size, key)
        shot = self._shots.get(key)
        if shot is None:
            shot = Shot(draw_pixels(ops, size))
            self._shots[key] = shot
        self._shots.move_to_end(key)
        while len(self._shots) > KEEP:
            self._shots.popitem(last=False)
        return shot

    def clear(self) -> None:
        self._shots.clear()
        self._last = None
