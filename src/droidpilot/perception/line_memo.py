"""Recognised text lines remembered by their pixels, so a line a trace shows on many screens is read once.

Consecutive screenshots of a run share most of their lines (status bar, titles, list rows, a form's
labels): two thirds of the lines of a long trace repeat a line of an earlier screen pixel for pixel. The
recognition model reads each row of a batch on its own, and a line's input depends only on its crop
(``onnx_ocr`` pads every crop to a width chosen from the crop alone), so the remembered answer is the
one reading it again would give, up to float rounding in the confidence.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import numpy as np

DEFAULT_ENTRIES = 8192


class LineMemo:
    """A bounded least-recently-used map from (crop pixels, input width) to (text, confidence)."""

    def __init__(self, max_entries: int = DEFAULT_ENTRIES) -> None:
        self.max_entries = max(0, max_entries)
        self._items: OrderedDict[bytes, tuple[str, float]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(crop: np.ndarray, width: int, both_ways: bool = False) -> bytes:
        """The key of a crop (its shape and pixels) read at input width ``width`` (and also half a turn
        round, the likelier reading kept, when ``both_ways``)."""
        h = hashlib.blake2b(digest_size=20)
        h.update(f"{crop.shape}:{crop.dtype}:{width}{':both' if both_ways else ''}".encode())
        h.update(np.ascontiguousarray(crop).data)
        return h.digest()

    def get(self, key: bytes) -> tuple[str, float] | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: bytes, value: tuple[str, float]) -> None:
        if not self.max_entries:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every line."""
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
