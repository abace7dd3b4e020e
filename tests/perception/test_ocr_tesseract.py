"""The Tesseract engine reads English and Chinese lines, and says what to install when it cannot run."""

from __future__ import annotations

import shutil
from collections.abc import Callable

import pytest

from droidpilot.errors import InputError
from droidpilot.perception.normalize import match_key
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.perception.tesseract import TesseractEngine

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None,
                                     reason="the tesseract-ocr distribution package is not installed")


@pytest.fixture(scope="module")
def tesseract() -> TesseractEngine:
    return TesseractEngine()


@needs_tesseract
def test_reads_english_and_chinese_lines_with_boxes(tesseract: TesseractEngine, text_image: Callable) -> None:
    en = tesseract.recognize(text_image(["Network settings", "Battery saver"], size=30, width=520))
    assert [match_key(ln.text) for ln in en] == [match_key("Network settings"), match_key("Battery saver")]
    assert en[0].box[1] < en[1].box[1] and all(0 < ln.score <= 1 for ln in en)
    zh = tesseract.recognize(text_image(["网络和互联网"], size=40, cjk=True, dark=True, width=420))
    assert zh and zh[0].text == "网络和互联网"  # CJK joined without spaces


@needs_tesseract
def test_settings_key_and_factory(tesseract: TesseractEngine) -> None:
    assert "chi_sim+eng" in tesseract.settings_key() and "tesseract-" in tesseract.settings_key()
    assert isinstance(make_ocr_engine("tesseract"), TesseractEngine)


def test_missing_binary_is_an_input_error_saying_what_to_install() -> None:
    with pytest.raises(InputError, match="tesseract-ocr") as info:
        TesseractEngine(binary="/nonexistent/bin/tesseract")
    assert "--engine rapidocr" in str(info.value)


@needs_tesseract
def test_missing_language_data_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no language data for klingon"):
        TesseractEngine(lang="eng+klingon")
