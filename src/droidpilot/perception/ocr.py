"""The OCR engine interface, image loading shared by every engine, and choosing an engine by name.

An engine turns a screenshot into lines of text with boxes in device pixels of the original image.
Images may be given as a Pillow image, a numpy array (H x W, H x W x 3 RGB or H x W x 4 RGBA),
encoded bytes (PNG, JPEG, ...) or a file path.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Protocol, Union, runtime_checkable

import numpy as np
from PIL import Image, UnidentifiedImageError

from droidpilot.errors import InputError
from droidpilot.pathcheck import file_problem
from droidpilot.perception.types import Box, OcrLine

ImageInput = Union[Image.Image, np.ndarray, bytes, bytearray, str, Path]  # noqa: UP007 (runtime alias)

ENGINE_NAMES = ("rapidocr", "tesseract", "none")


@runtime_checkable
class OcrEngine(Protocol):
    """Reads the text of a screenshot. ``settings_key`` names every setting that changes the output."""

    name: str

    def settings_key(self) -> str:
        """A short string that changes whenever a setting would change the lines (part of cache keys)."""
        ...

    def recognize(self, image: ImageInput) -> list[OcrLine]:
        """The lines of text on ``image``, boxes in pixels of ``image`` as given, top to bottom."""
        ...


def load_image(image: ImageInput) -> Image.Image:
    """Decode any accepted image input into a Pillow RGB image; InputError when it cannot be read."""
    if isinstance(image, Image.Image):
        img = image
    elif isinstance(image, np.ndarray):
        img = _from_array(image)
    elif isinstance(image, (bytes, bytearray)):
        try:
            img = Image.open(io.BytesIO(bytes(image)))
            img.load()
        except Image.DecompressionBombError as exc:
            raise InputError(f"the image bytes are too large an image to read ({exc})") from None
        except (UnidentifiedImageError, OSError) as exc:
            raise InputError(f"the image bytes ({len(image)} bytes) are not a readable image: {exc}"
                             ) from None
    elif isinstance(image, (str, Path)):
        path = Path(image)
        problem = file_problem(path)
        if problem is not None:
            raise InputError(f"image file {path} {problem}")
        try:
            img = Image.open(path)
            img.load()
        except Image.DecompressionBombError as exc:
            raise InputError(f"{path}: too large to read ({exc}); a screenshot has a few million pixels, "
                             "scale the image down") from None
        except (UnidentifiedImageError, OSError) as exc:
            raise InputError(f"{path}: not a readable image ({exc}); give a PNG or JPEG screenshot") from None
    else:
        raise InputError(f"cannot read an image from a {type(image).__name__}; "
                         "give a path, bytes, a Pillow image or a numpy array")
    if img.mode != "RGB":
        if img.mode in ("RGBA", "LA", "P", "PA"):
            img = img.convert("RGBA")
            background = Image.new("RGBA", img.size, (255, 255, 255, 255))
            img = Image.alpha_composite(background, img)
        img = img.convert("RGB")
    return img


def _from_array(arr: np.ndarray) -> Image.Image:
    if arr.dtype != np.uint8:
        if np.issubdtype(arr.dtype, np.floating) and arr.size and float(arr.max()) <= 1.0:
            arr = arr * 255.0
        arr = np.clip(arr, 0, 255).astype(np.uint8)
    if arr.ndim == 2:
        return Image.fromarray(arr, "L")
    if arr.ndim == 3 and arr.shape[2] in (3, 4):
        return Image.fromarray(np.ascontiguousarray(arr), "RGB" if arr.shape[2] == 3 else "RGBA")
    raise InputError(f"a numpy image must be H x W, H x W x 3 or H x W x 4; got shape {arr.shape}")


def image_key_bytes(image: ImageInput) -> bytes:
    """The bytes that identify ``image`` for caching: file or encoded bytes as they are, else raw pixels."""
    if isinstance(image, (bytes, bytearray)):
        return bytes(image)
    if isinstance(image, (str, Path)):
        path = Path(image)
        try:
            return path.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read image file {path}: {exc.strerror or exc}") from None
    if isinstance(image, np.ndarray):
        arr = np.ascontiguousarray(image)
        return f"ndarray:{arr.dtype}:{arr.shape}:".encode() + arr.tobytes()
    if isinstance(image, Image.Image):
        return f"pil:{image.mode}:{image.size}:".encode() + image.tobytes()
    raise InputError(f"cannot read an image from a {type(image).__name__}")


def clip_box(x1: float, y1: float, x2: float, y2: float, width: int, height: int) -> Box:
    """An integer box inside the image, with x1 <= x2 and y1 <= y2."""
    left, right = sorted((x1, x2))
    top, bottom = sorted((y1, y2))
    return (max(0, round(float(left))), max(0, round(float(top))),
            min(width, round(float(right))), min(height, round(float(bottom))))


def sort_lines(lines: list[OcrLine]) -> list[OcrLine]:
    """Reading order: rows top to bottom (lines whose centres are within half a line height share a
    row), left to right within a row."""
    rows: list[list[OcrLine]] = []
    for line in sorted(lines, key=lambda ln: (ln.box[1] + ln.box[3]) / 2):
        centre = (line.box[1] + line.box[3]) / 2
        if rows:
            first = rows[-1][0]
            first_centre = (first.box[1] + first.box[3]) / 2
            half = min(first.box[3] - first.box[1], line.box[3] - line.box[1]) / 2
            if abs(centre - first_centre) <= half:
                rows[-1].append(line)
                continue
        rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda ln: ln.box[0])]


def make_ocr_engine(name: str) -> OcrEngine | None:
    """The engine called ``name`` ("rapidocr", "tesseract"), or None for "none"; InputError otherwise."""
    key = (name or "").strip().lower()
    if key == "rapidocr":
        from droidpilot.perception.rapid import RapidOcrEngine

        return RapidOcrEngine()
    if key == "tesseract":
        from droidpilot.perception.tesseract import TesseractEngine

        return TesseractEngine()
    if key == "none":
        return None
    raise InputError(f"unknown OCR engine {name!r}; choose one of {', '.join(ENGINE_NAMES)}")
