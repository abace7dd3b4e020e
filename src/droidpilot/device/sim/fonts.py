"""Fonts SimPhone draws with: DejaVu Sans for Latin text, WenQuanYi Micro Hei for CJK.

Fonts come from the distribution (found at known paths, then through ``fc-match``); a missing font is a
DeviceError naming the Debian package that provides it.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

from PIL import ImageFont

from droidpilot.device.base import DeviceError

_CANDIDATES: dict[str, tuple[tuple[str, ...], str, str]] = {
    # kind: (known paths, fc-match pattern, Debian package)
    "latin": (("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
               "/usr/share/fonts/dejavu/DejaVuSans.ttf"), "DejaVu Sans", "fonts-dejavu-core"),
    "latin-bold": (("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"), "DejaVu Sans:bold", "fonts-dejavu-core"),
    "cjk": (("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
             "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc"), "WenQuanYi Micro Hei", "fonts-wqy-microhei"),
}


def _fc_match(pattern: str) -> Path | None:
    exe = shutil.which("fc-match")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "-f", "%{file}", pattern], capture_output=True, text=True,
                             timeout=10, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    path = Path(out) if out else None
    stem = pattern.split(":")[0].replace(" ", "").lower()
    if path and path.is_file() and stem[:6] in path.name.replace("-", "").lower():
        return path
    return None


@functools.cache
def font_path(kind: str) -> Path:
    """The file of font ``kind`` ("latin", "latin-bold", "cjk"); DeviceError when not installed."""
    paths, pattern, package = _CANDIDATES[kind]
    for raw in paths:
        if Path(raw).is_file():
            return Path(raw)
    found = _fc_match(pattern)
    if found is not None:
        return found
    raise DeviceError(f"SimPhone needs the font {pattern.split(':')[0]!r} and could not find it "
                      f"(looked at {', '.join(paths)} and fc-match); install it with "
                      f"`apt-get install {package}`")


def is_cjk(text: str) -> bool:
    """True when ``text`` holds a CJK character (it is then drawn with the CJK font)."""
    return any(ord(ch) >= 0x2E80 for ch in text)


@functools.cache
def _load(kind: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(kind)), max(size, 6))


def font_for(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font that draws ``text`` at pixel ``size``: CJK font when the text needs it, else DejaVu."""
    if is_cjk(text):
        return _load("cjk", size)
    return _load("latin-bold" if bold else "latin", size)


@functools.lru_cache(maxsize=16384)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in pixels at ``size`` (cached: layout measures the same words often)."""
    return font_for(text, size, bold).getlength(text)
