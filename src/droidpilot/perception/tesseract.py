"""A second OCR engine: Tesseract through pytesseract, for users who prefer it to RapidOCR.

Needs the ``tesseract`` binary and its language data (``tesseract-ocr``, ``tesseract-ocr-chi-sim``);
their absence is a clear InputError saying what to install. Words are grouped into Tesseract's lines;
CJK characters are joined without spaces.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Iterator
from typing import Any

from droidpilot.errors import InputError
from droidpilot.perception.normalize import is_cjk
from droidpilot.perception.ocr import ImageInput, clip_box, load_image, sort_lines
from droidpilot.perception.types import OcrLine

INSTALL_HINT = ("install it with `sudo apt-get install tesseract-ocr tesseract-ocr-chi-sim` "
                "(or `sudo make system-deps`), or use --engine rapidocr")


def _pytesseract() -> Any:
    try:
        import pytesseract
    except ImportError:
        raise InputError("the tesseract engine needs the pytesseract package: "
                         "`.venv/bin/pip install pytesseract` (or use --engine rapidocr)") from None
    return pytesseract


# pytesseract keeps the binary's path in a module global; engines set it only while they run.
_CMD_LOCK = threading.Lock()


def _join(words: list[str]) -> str:
    out = ""
    for word in words:
        if out and not (is_cjk(out[-1]) and is_cjk(word[0])):
            out += " "
        out += word
    return out


class TesseractEngine:
    """Tesseract OCR; ``lang`` as Tesseract spells it (default Chinese + English), ``psm`` its page mode."""

    name = "tesseract"

    def __init__(self, lang: str = "chi_sim+eng", psm: int = 11, min_conf: float = 30.0,
                 binary: str | None = None) -> None:
        self.lang = lang
        self.psm = psm
        self.min_conf = min_conf
        self._tess = _pytesseract()
        self.binary = binary or shutil.which("tesseract") or "tesseract"
        self._version = self._check()

    @contextlib.contextmanager
    def _binary(self) -> Iterator[Any]:
        """pytesseract, pointed at this engine's binary for the duration of one call."""
        module = self._tess.pytesseract
        with _CMD_LOCK:
            saved, module.tesseract_cmd = module.tesseract_cmd, self.binary
            try:
                yield self._tess
            finally:
                module.tesseract_cmd = saved

    def _check(self) -> str:
        cmd = self.binary
        with self._binary() as tess:
            try:
                version = str(tess.get_tesseract_version())
            except tess.TesseractNotFoundError:
                raise InputError(f"the tesseract binary ({cmd!r}) was not found; {INSTALL_HINT}") from None
            except OSError as exc:  # found but not runnable
                raise InputError(f"the tesseract binary ({cmd!r}) cannot run ({exc}); "
                                 f"{INSTALL_HINT}") from None
            try:
                available = set(tess.get_languages(config=""))
            except tess.TesseractError:
                available = set()
        missing = [lang for lang in self.lang.split("+") if available and lang not in available]
        if missing:
            raise InputError(f"tesseract has no language data for {', '.join(missing)} "
                             f"(it has {', '.join(sorted(available))}); {INSTALL_HINT}")
        return version

    def settings_key(self) -> str:
        return f"tesseract-{self._version};lang={self.lang};psm={self.psm};min_conf={self.min_conf}"

    def recognize(self, image: ImageInput) -> list[OcrLine]:
        """Lines on ``image`` from Tesseract's word boxes, grouped by block, paragraph and line."""
        img = load_image(image)
        width, height = img.size
        with self._binary() as tess:
            data = tess.image_to_data(img, lang=self.lang, config=f"--psm {self.psm}",
                                      output_type=tess.Output.DICT)
        groups: dict[tuple[int, int, int], list[int]] = {}
        for i, word in enumerate(data["text"]):
            if not str(word).strip() or float(data["conf"][i]) < self.min_conf:
                continue
            key = (int(data["block_num"][i]), int(data["par_num"][i]), int(data["line_num"][i]))
            groups.setdefault(key, []).append(i)
        lines = []
        for idx in groups.values():
            idx.sort(key=lambda i: int(data["left"][i]))
            x1 = min(int(data["left"][i]) for i in idx)
            y1 = min(int(data["top"][i]) for i in idx)
            x2 = max(int(data["left"][i]) + int(data["width"][i]) for i in idx)
            y2 = max(int(data["top"][i]) + int(data["height"][i]) for i in idx)
            text = _join([str(data["text"][i]).strip() for i in idx])
            score = sum(float(data["conf"][i]) for i in idx) / len(idx) / 100.0
            lines.append(OcrLine(text, clip_box(x1, y1, x2, y2, width, height), round(score, 4)))
        return sort_lines(lines)
