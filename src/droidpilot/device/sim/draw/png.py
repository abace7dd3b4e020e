"""A fast PNG encoder for screenshots: the "Up" filter in numpy, deflate in bands, bands reused.

Flat UI screens compress to mostly zero rows after the Up filter, so deflate level 1 is fast and small.
The filtered image is cut into horizontal bands, each deflated on its own and joined with full flushes
into one valid zlib stream (as pigz does). A band byte-for-byte equal to the same band of the previous
frame of that size (status bar, keyboard, unchanged rows) reuses its compressed bytes, so a small change
costs a small encode (unchanged bands are found by comparing pixels, before filtering); the other bands
are compressed in parallel threads (zlib releases the GIL).
"""

from __future__ import annotations

import struct
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_BAND_ROWS = 96
_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="simphone-png")
_LAST: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, list[bytes]]] = {}
_LOCK = threading.Lock()


def forget_bands() -> None:
    """Drop the remembered previous frames, so the next encode compresses every band (benchmarks)."""
    with _LOCK:
        _LAST.clear()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _deflate(band: memoryview, last: bool) -> bytes:
    comp = zlib.compressobj(1, zlib.DEFLATED, -15, 9)
    return comp.compress(band) + comp.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


def _filter_band(pixels: np.ndarray, rows: np.ndarray, start: int, end: int) -> None:
    """Write PNG rows ``start:end`` of ``pixels`` into ``rows``: the Up filter (None for row 0)."""
    flat = pixels.reshape(pixels.shape[0], -1)
    rows[start:end, 0] = 2
    first = start
    if start == 0:
        rows[0, 0] = 0
        rows[0, 1:] = flat[0]
        first = 1
    if first < end:
        np.subtract(flat[first:end], flat[first - 1:end - 1], out=rows[first:end, 1:])


def encode_png(image: Image.Image | np.ndarray) -> bytes:
    """PNG bytes of ``image`` (8-bit RGB, no interlace): a Pillow image, or its (height, width, 3)
    ``uint8`` array (SimPhone's frames are drawn as arrays: converting an image to one costs milliseconds)."""
    if isinstance(image, np.ndarray):
        pixels = image
    else:
        pixels = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    height, width, _ = pixels.shape
    rows = np.empty((height, width * 3 + 1), np.uint8)
    starts = list(range(0, height, _BAND_ROWS))
    with _LOCK:
        prev = _LAST.get((width, height))
    parts: list[bytes | None] = [None] * len(starts)
    for i, start in enumerate(starts):
        end = min(start + _BAND_ROWS, height)
        above = max(start - 1, 0)  # a band's Up filter also reads the row above it
        if prev is not None and np.array_equal(pixels[above:end], prev[0][above:end]):
            rows[start:end] = prev[1][start:end]
            parts[i] = prev[2][i]
        else:
            _filter_band(pixels, rows, start, end)
    todo = [i for i, part in enumerate(parts) if part is None]
    last = len(starts) - 1

    def deflate(i: int) -> bytes:
        return _deflate(memoryview(rows[starts[i]:starts[i] + _BAND_ROWS]).cast("B"), i == last)

    for i, out in zip(todo, _POOL.map(deflate, todo), strict=True):
        parts[i] = out
    done = [p for p in parts if p is not None]
    with _LOCK:
        _LAST[(width, height)] = (pixels, rows, done)
    data = memoryview(rows).cast("B")
    stream = b"\x78\x01" + b"".join(done) + struct.pack(">I", zlib.adler32(data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return _SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")
