"""SimDevice's cache of rendered frames: a frame is drawn once per distinct screen, and what is derived
from it (PNG bytes for ``screencap -p``, a pixel array for learning environments) is made once too."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from droidpilot.device.sim.draw.png import encode_png
from droidpilot.device.sim.draw.render import draw_ops, ops_key

KEEP = 8  # the most recent distinct frames kept (going back and forth between screens hits the cache)


@dataclass
class Shot:
    """One rendered frame, and its PNG and array once asked for."""

    image: Image.Image
    png: bytes | None = None
    array: np.ndarray | None = None

    def png_bytes(self) -> bytes:
        if self.png is None:
            self.png = encode_png(self.image)
        return self.png

    def pixels(self) -> np.ndarray:
        """The frame as a read-only ``uint8`` (height, width, 3) array."""
        if self.array is None:
            self.array = np.asarray(self.image, dtype=np.uint8)
            self.array.flags.writeable = False
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
            shot = Shot(draw_ops(ops, size))
            self._shots[key] = shot
        self._shots.move_to_end(key)
        while len(self._shots) > KEEP:
            self._shots.popitem(last=False)
        return shot

    def clear(self) -> None:
        self._shots.clear()
        self._last = None
