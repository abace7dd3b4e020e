"""App icons named by their label, letters on avatars and icons in a named container, on real phone
screens (mobile-eval-real, MIT, X-PLUG/MobileAgent; see its LICENSE) read by the real RapidOCR engine.

Boxes are those of benchmarks/data/real_icons.yaml; each query here missed before labels, brands,
avatar letters and containers were read (the near misses next to them must stay missed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from droidpilot.perception.icons.rank import locate_icon
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.types import Box, OcrLine

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


def _read(engine: RapidOcrEngine, path: str) -> tuple[np.ndarray, list[OcrLine]]:
    image = np.asarray(Image.open(REAL / path).convert("RGB"))
    return image, list(engine.recognize(image))


def _found_in(screen: tuple[np.ndarray, list[OcrLine]], query: str, box: Box) -> bool:
    res = locate_icon(screen[0], query, ocr_lines=screen[1])
    if res.status != "found":
        return False
    x, y = res.candidates[0].point
    return box[0] <= x < box[2] and box[1] <= y < box[3]


@pytest.fixture(scope="module")
def launcher(rapid_engine: RapidOcrEngine) -> tuple[np.ndarray, list[OcrLine]]:
    return _read(rapid_engine, "Multi-App/1/3.jpg")


@pytest.fixture(scope="module")
def chrome(rapid_engine: RapidOcrEngine) -> tuple[np.ndarray, list[OcrLine]]:
    return _read(rapid_engine, "Chrome/1/2.jpg")


AMAZON_MUSIC_TILE: Box = (296, 803, 372, 879)


def test_launcher_tiles_are_named_by_their_labels(launcher: tuple[np.ndarray, list[OcrLine]]) -> None:
    assert _found_in(launcher, "blue calculator", (296, 290, 372, 365))
    assert _found_in(launcher, "purple wallet", (44, 461, 120, 537))  # indigo: "purple" is near enough
    assert _found_in(launcher, "chrome icon", (170, 632, 246, 708))  # was refused: no colour, no shape
    assert _found_in(launcher, "pink calendar, top right", (422, 118, 498, 194))
    assert _found_in(launcher, "cyan amazon music icon", AMAZON_MUSIC_TILE)  # a label on two lines
    assert _found_in(launcher, "play store triangle", (422, 632, 498, 708))


def test_near_misses_on_the_launcher(launcher: tuple[np.ndarray, list[OcrLine]]) -> None:
    # "Amazon" is the first line of Amazon Music's label: not a tile named Amazon
    assert not _found_in(launcher, "amazon icon", AMAZON_MUSIC_TILE)
    res = locate_icon(launcher[0], "frobnicator icon", ocr_lines=launcher[1])
    assert res.status == "not_found" and "Calculator" in res.closest


def test_shortcuts_and_an_avatar_letter_in_chrome(chrome: tuple[np.ndarray, list[OcrLine]]) -> None:
    assert _found_in(chrome, "red youtube icon", (257, 523, 286, 544))
    assert _found_in(chrome, "amazon icon", (411, 518, 438, 548))
    assert _found_in(chrome, "purple circle with letter W, top", (340, 93, 376, 130))
    assert not _found_in(chrome, "purple circle with letter W", (81, 620, 153, 695))  # Wikipedia's gray W


def test_a_container_says_which_of_two_alike(rapid_engine: RapidOcrEngine) -> None:
    music = _read(rapid_engine, "Amazon Music/1/3.jpg")
    assert _found_in(music, "alexa ring in the search bar, right", (460, 194, 485, 219))
    assert _found_in(music, "alexa ring, bottom", (357, 1073, 390, 1106))  # the labelled one, no bar
    assert _found_in(music, "sparkle icon on the cyan button", (112, 278, 130, 296))
