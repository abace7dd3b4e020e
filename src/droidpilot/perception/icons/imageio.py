"""Turn what callers hold (a path, file bytes, a PIL image, an array) into one BGR uint8 array.

OpenCV's ``imread`` cannot open non-ASCII paths everywhere (MobiFlow's templates have Chinese names), so
files are read as bytes and decoded with ``imdecode``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from droidpilot.errors import InputError


def channel_max(image: np.ndarray) -> np.ndarray:
    """The largest of an (H, W, 3) array's channels per pixel, like ``image.max(axis=2)`` but some ten
    times faster (numpy reduces a short last axis slowly; icon search does it on every candidate)."""
    return np.maximum(np.maximum(image[..., 0], image[..., 1]), image[..., 2])


def decode_image(data: bytes, source: str = "<bytes>", keep_alpha: bool = False) -> np.ndarray:
    """Decode PNG/JPEG/WebP bytes to BGR (or BGRA when ``keep_alpha`` and the file has alpha)."""
    arr = np.frombuffer(data, np.uint8)
    img = cv2.imdecode(arr, cv2.IMREAD_UNCHANGED) if arr.size else None
    if img is None:
        raise InputError(f"{source}: not a readable image (PNG, JPEG or WebP expected)")
    if img.dtype != np.uint8:  # 16-bit PNGs
        img = (img / 257).astype(np.uint8)
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 4 and not keep_alpha:
        return cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    return img


def decode_gray(data: bytes, source: str = "<bytes>") -> np.ndarray:
    """Decode image bytes straight to 8-bit grayscale (what template matching reads)."""
    arr = np.frombuffer(data, np.uint8)
    img = cv2.imdecode(arr, cv2.IMREAD_GRAYSCALE) if arr.size else None
    if img is None:
        raise InputError(f"{source}: not a readable image (PNG, JPEG or WebP expected)")
    return img


def read_image(path: str | Path, keep_alpha: bool = False) -> np.ndarray:
    """Read an image file; InputError naming the file when it is missing or unreadable."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read image {p}: {exc.strerror or exc}") from None
    return decode_image(data, str(p), keep_alpha)


def to_bgr(image: Any) -> np.ndarray:
    """A BGR uint8 array from a path, bytes, a PIL image or an array.

    Arrays are taken as RGB(A), as Pillow gives them and as the OCR engines read them, so one array
    means the same colours everywhere in droidpilot's public API.
    """
    if isinstance(image, np.ndarray):
        img = image if image.dtype == np.uint8 else image.astype(np.uint8)
        if img.ndim == 2:
            return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        if img.ndim == 3 and img.shape[2] == 4:
            return cv2.cvtColor(img, cv2.COLOR_RGBA2BGR)
        if img.ndim == 3 and img.shape[2] == 3:
            return cv2.cvtColor(img, cv2.COLOR_RGB2BGR)
        raise InputError(f"an image array must be HxW, HxWx3 or HxWx4, not {image.shape}")
    if isinstance(image, (bytes, bytearray, memoryview)):
        return decode_image(bytes(image))
    if isinstance(image, (str, Path)):
        return read_image(image)
    if hasattr(image, "convert") and hasattr(image, "size"):  # a PIL image
        rgb = np.asarray(image.convert("RGB"))
        return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    raise InputError(f"cannot use a {type(image).__name__} as an image; give a path, bytes, a PIL image "
                     "or an RGB numpy array")
