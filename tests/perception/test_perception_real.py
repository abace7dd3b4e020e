"""benchmarks/perception_real.py and the size option of benchmarks/ocr_speed.py it calls."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def bench() -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import perception_real

    return perception_real


def test_the_verifier_row_says_why_it_was_not_measured(bench: Any, tmp_path: Path) -> None:
    assert "no MobiFlow checkout" in bench.verifier(None, [], 0)[0][1]
    assert "no MobiFlow checkout" in bench.verifier(tmp_path, [tmp_path], 0)[0][1]  # a folder, not MobiFlow


def test_sizes_are_parsed_and_a_near_miss_is_refused(bench: Any) -> None:
    assert bench.ocr_speed.parse_sizes("1080x2400,540X1170") == ((1080, 2400), (540, 1170))
    for bad in ("1080", "1080x", "1080*2400", "x2400"):
        with pytest.raises(argparse.ArgumentTypeError, match="WxH"):
            bench.ocr_speed.parse_sizes(bad)
