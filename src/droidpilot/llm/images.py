"""Images for multimodal models: load, downscale to a maximum side, and encode as data URLs.

Screenshots are large (1080x2400 and up); models see a downscaled copy. The scale factor is returned
so callers that get coordinates back in the image's pixels can map them to device pixels in one place.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any, Literal

from PIL import Image, UnidentifiedImageError

from droidpilot.errors import InputError

ImageFormat = Literal["png", "jpeg"]
ImageLike = Image.Image | bytes | Path | str


def load_image(source: ImageLike, what: str = "image") -> Image.Image:
    """A PIL image from an image, encoded bytes or a file path; InputError naming ``what`` if unreadable."""
    if isinstance(source, Image.Image):
        return source
    try:
        image = Image.open(io.BytesIO(source) if isinstance(source, bytes) else Path(source))
        image.load()
    except (OSError, UnidentifiedImageError) as exc:
        raise InputError(f"{what}: not a readable image ({exc})") from None
    return image


def fitted_size(size: tuple[int, int], max_side: int | None) -> tuple[tuple[int, int], float]:
    """The (width, height) an image of ``size`` is sent at, and the scale (<= 1) from device pixels.

    This is the one definition of the size a model sees; map its coordinates back by dividing by scale.
    """
    width, height = size
    longest = max(width, height)
    if not max_side or max_side <= 0 or longest <= max_side:
        return (width, height), 1.0
    scale = max_side / longest
    return (max(1, round(width * scale)), max(1, round(height * scale))), scale


def downscale(image: Image.Image, max_side: int | None) -> tuple[Image.Image, float]:
    """Shrink ``image`` so its longer side is at most ``max_side``; returns (image, scale <= 1).

    Never upscales; ``max_side`` None or 0 keeps the image as is.
    """
    size, scale = fitted_size(image.size, max_side)
    if scale == 1.0:
        return image, 1.0
    return image.resize(size, Image.Resampling.LANCZOS), scale


def encode(image: Image.Image, fmt: ImageFormat = "png", quality: int = 85) -> bytes:
    """Encode ``image`` as PNG or JPEG bytes (JPEG drops alpha onto white)."""
    buffer = io.BytesIO()
    if fmt == "jpeg":
        if image.mode in ("RGBA", "LA", "P"):
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        elif image.mode != "RGB":
            image = image.convert("RGB")
        image.save(buffer, format="JPEG", quality=quality, optimize=True)
    elif fmt == "png":
        if image.mode not in ("RGB", "RGBA", "L", "LA", "P"):
            image = image.convert("RGB")
        image.save(buffer, format="PNG", optimize=False)
    else:
        raise InputError(f"image format {fmt!r} is not supported; use 'png' or 'jpeg'")
    return buffer.getvalue()


def data_url(data: bytes, fmt: ImageFormat = "png") -> str:
    """``data:image/...;base64,...`` for encoded image bytes."""
    mime = "image/jpeg" if fmt == "jpeg" else "image/png"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def image_data_url(source: ImageLike, max_side: int | None = 1024, fmt: ImageFormat = "png",
                   quality: int = 85) -> str:
    """Load, downscale and encode ``source`` as a data URL in one call."""
    image, _ = downscale(load_image(source), max_side)
    return data_url(encode(image, fmt, quality), fmt)


def image_part(source: ImageLike, max_side: int | None = 1024, fmt: ImageFormat = "png",
               quality: int = 85, detail: str | None = None) -> dict[str, Any]:
    """An OpenAI chat content part carrying ``source`` as a downscaled data URL."""
    url: dict[str, Any] = {"url": image_data_url(source, max_side, fmt, quality)}
    if detail:
        url["detail"] = detail
    return {"type": "image_url", "image_url": url}
