"""One screen as the agent sees it: the screenshot, and its OCR computed at most once, timed.

The loop, the grounding and the offline brain all read the same ``ScreenView``, so a screen is never
recognised twice within a step, and the time spent on perception is accounted in one place. A screen the
loop records (``frame_quality``) is read by OCR as the JPEG the trace stores, byte for byte
(``for_trace``), so verifying the trace finds its readings in the OCR cache instead of reading again.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from PIL import Image

from droidpilot.agent.frame_jpeg import encode_frame
from droidpilot.perception.types import OcrLine


class ScreenView:
    """A screenshot (device pixels) with lazily computed OCR lines and the perception time spent."""

    def __init__(self, image: Image.Image, ocr_engine: Any | None = None, xml: str | None = None,
                 lines: list[OcrLine] | None = None, frame_quality: int | None = None) -> None:
        """``lines``: the screen's OCR when already known (from a trace or another reader);
        ``frame_quality``: read by OCR as the JPEG of that quality a trace records (see ``for_trace``)."""
        self.image = image.convert("RGB") if image.mode != "RGB" else image
        self.xml = xml
        self._ocr_engine = ocr_engine
        self._lines: list[OcrLine] | None = list(lines) if lines is not None else None
        self._hash: str | None = None
        self.frame_quality = frame_quality
        self._frame: bytes | None = None
        self.perception_s = 0.0

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    @property
    def hash(self) -> str:
        """A content hash of the pixels (sha256 of the raw RGB bytes, first 16 hex digits)."""
        if self._hash is None:
            digest = hashlib.sha256(self.image.tobytes())
            digest.update(repr(self.image.size).encode())
            self._hash = digest.hexdigest()[:16]
        return self._hash

    @property
    def has_ocr(self) -> bool:
        return self._ocr_engine is not None

    def lines(self) -> list[OcrLine]:
        """The OCR lines of this screen (empty when the agent runs without an OCR engine)."""
        if self._lines is None:
            if self._ocr_engine is None:
                self._lines = []
            else:
                start = time.perf_counter()
                self._lines = list(self._ocr_engine.recognize(self.for_trace()))
                self.perception_s += time.perf_counter() - start
        return self._lines

    def for_trace(self) -> Image.Image | bytes:
        """The screenshot as a trace records it and OCR reads it: the JPEG bytes (encoded once) when the
        view has a ``frame_quality``, else the image itself."""
        if self.frame_quality is None:
            return self.image
        if self._frame is None:
            self._frame = encode_frame(self.image, self.frame_quality)
        return self._frame

    def timed(self) -> _PerceptionTimer:
        """A context manager adding the time of a block (icon search, ...) to ``perception_s``."""
        return _PerceptionTimer(self)


class _PerceptionTimer:
    def __init__(self, view: ScreenView) -> None:
        self._view = view
        self._start = 0.0

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self._view.perception_s += time.perf_counter() - self._start
