"""Fonts SimPhone draws with: DejaVu Sans for Latin text, WenQuanYi Micro Hei for CJK.

Fonts come from the distribution: known paths first, then ``fc-match``, then any similar font found in
the font directories (``DROIDPILOT_FONT_DIRS``, a path list, replaces the system's for the whole lookup).
Without any Latin font SimPhone draws Latin text with Pillow's built-in font; without a CJK font, drawing
Chinese is a DeviceError naming the Debian package that provides it.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from PIL import ImageFont

from droidpilot.device.base import DeviceError

FONT_DIRS_ENV = "DROIDPILOT_FONT_DIRS"
SYSTEM_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")

_CANDIDATES: dict[str, tuple[tuple[str, ...], str, str]] = {
    # kind: (known paths, fc-match pattern, Debian package)
    "latin": (("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
               "/usr/share/fonts/dejavu/DejaVuSans.ttf"), "DejaVu Sans", "fonts-dejavu-core"),
    "latin-bold": (("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"), "DejaVu Sans:bold", "fonts-dejavu-core"),
    "cjk": (("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
             "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc"), "WenQuanYi Micro Hei", "fonts-wqy-microhei"),
}
# Other files that draw the same scripts, by preference, looked for by name in the font directories.
_SIMILAR: dict[str, tuple[str, ...]] = {
    "latin": ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "NotoSans-Regular.ttf", "FreeSans.ttf",
              "Arimo-Regular.ttf"),
    "latin-bold": ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "NotoSans-Bold.ttf", "FreeSansBold.ttf",
                   "Arimo-Bold.ttf"),
    "cjk": ("wqy-microhei.ttc", "wqy-zenhei.ttc", "NotoSansCJK-Regular.ttc", "NotoSansCJKsc-Regular.otf",
            "NotoSansSC-Regular.otf", "SourceHanSansSC-Regular.otf", "DroidSansFallbackFull.ttf",
            "DroidSansFallback.ttf"),
}


def font_dirs() -> tuple[Path, ...]:
    """The directories searched for similar fonts: $DROIDPILOT_FONT_DIRS when set, else the system's."""
    configured = os.environ.get(FONT_DIRS_ENV)
    raw = configured.split(os.pathsep) if configured is not None else list(SYSTEM_FONT_DIRS)
    return tuple(Path(d).expanduser() for d in raw if d.strip())


def _files_under(folder: Path) -> Iterator[Path]:
    try:
        yield from (p for p in folder.rglob("*") if p.suffix.lower() in (".ttf", ".ttc", ".otf"))
    except OSError:
        return


def _similar(kind: str, dirs: tuple[Path, ...]) -> Path | None:
    wanted = {name.lower(): rank for rank, name in enumerate(_SIMILAR.get(kind, ()))}
    best: tuple[int, Path] | None = None
    for folder in dirs:
        for path in _files_under(folder):
            rank = wanted.get(path.name.lower())
            if rank is not None and path.is_file() and (best is None or rank < best[0]):
                best = (rank, path)
    return best[1] if best else None


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
def font_path(kind: str) -> Path | None:
    """The file of font ``kind`` ("latin", "latin-bold", "cjk").

    None for a Latin kind no font directory provides (Pillow's built-in font draws it then); for
    "cjk", a DeviceError naming the package to install.
    """
    paths, pattern, package = _CANDIDATES[kind]
    configured = os.environ.get(FONT_DIRS_ENV) is not None
    if not configured:
        for raw in paths:
            if Path(raw).is_file():
                return Path(raw)
        found = _fc_match(pattern)
        if found is not None:
            return found
    dirs = font_dirs()
    found = _similar(kind, dirs)
    if found is not None:
        return found
    if kind != "cjk":
        return None
    looked = (f"{FONT_DIRS_ENV}={os.pathsep.join(map(str, dirs))}" if configured
              else f"{', '.join(paths)}, fc-match and {', '.join(map(str, dirs))}")
    raise DeviceError(f"SimPhone needs a CJK font ({pattern.split(':')[0]!r} or similar) to draw Chinese "
                      f"text and found none (looked at {looked}); install it with `sudo make system-deps` or "
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
    path = font_path(kind)
    if path is None:  # no Latin font installed: Pillow's own (FreeType) font still draws Latin text
        return ImageFont.load_default(max(size, 6))  # type: ignore[return-value]
    return ImageFont.truetype(str(path), max(size, 6))


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


def forget_fonts() -> None:
    """Drop every cached lookup (after installing a font or changing $DROIDPILOT_FONT_DIRS)."""
    font_path.cache_clear()
    _load.cache_clear()
    text_width.cache_clear()
