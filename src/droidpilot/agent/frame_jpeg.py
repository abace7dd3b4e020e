"""The JPEG a trace records for a screenshot, in one place: the agent's OCR reads these very bytes.

A recorded trace is verified by reading its ``N.jpg`` files. When the agent's OCR read the raw pixels
and the recorder re-encoded them, the verifier's reading (keyed by the file's bytes) never met the
agent's (keyed by the pixels), and every screen was recognised twice. Reading the encoded frame during
play makes the persistent OCR cache hand the verifier the agent's reading of the same bytes.
"""

from __future__ import annotations

import io

from PIL import Image

from droidpilot.errors import InputError

JPEG_QUALITY = 92  # the trace's screenshots (MobiFlow's runner format keeps JPEG frames)
_JPEG_START = b"\xff\xd8\xff"


def encode_frame(image: Image.Image, quality: int = JPEG_QUALITY) -> bytes:
    """``image`` as the JPEG a trace stores (RGB, ``quality``)."""
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


def check_frame(data: bytes, where: str) -> bytes:
    """``data`` unchanged when it is a JPEG; InputError naming ``where`` otherwise (a frame must be one)."""
    if not bytes(data[:3]) == _JPEG_START:
        raise InputError(f"{where}: a trace frame must be JPEG bytes (they start {bytes(data[:4])!r}); "
                         "pass the screenshot image or its encode_frame bytes")
    return bytes(data)
