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


# Characters Unicode classes as paragraph separators (bidi class B). The shaper lays out one line and fails
# on them, and a single-line Android TextView shows a line break as a space, so they become spaces.
PARAGRAPH_BREAKS = "\n\r\x1c\x1d\x1e\x85\u2029"
_AS_SPACE = {ord(ch): " " for ch in PARAGRAPH_BREAKS}


def one_line(text: str) -> str:
    """``text`` as a single-line view shows it: each line break (CR LF counts as one) becomes a space."""
    if not any(ch in text for ch in PARAGRAPH_BREAKS):
        return text
    return text.replace("\r\n", "\n").translate(_AS_SPACE)


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` as a multi-line view breaks them: at LF, CR LF and CR."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


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
    """Advance width of ``text`` drawn as one line (line breaks as spaces), in pixels at ``size``.

    Cached: layout measures the same words often.
    """
    line = one_line(text)
    return font_for(line, size, bold).getlength(line)
