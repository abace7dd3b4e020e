"""Real screens (mobile-eval-real, MIT, X-PLUG/MobileAgent) where another icon family's drawing finds the
icon the Material font alone does not: Amazon Music's tab-bar magnifier (a ring with a short handle,
drawn as MDI and Font Awesome draw it) is found with the families and left ambiguous without them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from droidpilot import iconfamilies
from droidpilot.perception.icons.glyphs.families import family_references
from droidpilot.perception.icons.rank import locate_icon
from droidpilot.perception.types import Box

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
pytestmark = [
    pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent"),
    pytest.mark.skipif(not family_references(), reason="the other icon families are not installed "
                       "(`sudo make system-deps`: fonts-materialdesignicons-webfont, fonts-font-awesome...)"),
]
MAGNIFIER: Box = (152, 1074, 183, 1105)  # benchmarks/data/real_icons.yaml, split report


def _outcome(path: str, query: str, box: Box) -> tuple[str, bool]:
    image = np.asarray(Image.open(REAL / path).convert("RGB"))
    res = locate_icon(image, query, ocr_lines=[])
    x, y = res.candidates[0].point if res.candidates else (-1, -1)
    return res.status, box[0] <= x < box[2] and box[1] <= y < box[3]


def test_a_magnifier_drawn_as_other_families_draw_it_is_found() -> None:
    assert _outcome("Amazon Music/1/3.jpg", "cyan magnifier, bottom", MAGNIFIER) == ("found", True)
    assert _outcome("Amazon Music/3/10.jpg", "cyan magnifier, bottom", MAGNIFIER) == ("found", True)


def test_without_the_other_families_the_same_magnifier_is_not_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(iconfamilies.FAMILIES_ENV, "material")
    status, _ = _outcome("Amazon Music/1/3.jpg", "cyan magnifier, bottom", MAGNIFIER)
    assert status != "found"
