"""`droidpilot locate` run as a user runs it: piped, the candidates as tab-separated rows with whole
values (status and notes on stderr), matching --json; on a terminal a table; screen text never carries
terminal controls or bidi overrides into either."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from droidpilot.cli.perception import LOCATE_COLUMNS
from droidpilot.perception.cache import OcrCache
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.types import OcrLine

RLO = "\u202e"
HOSTILE = f"Pay {RLO}txt.exe now\x1b]0;pwned\x07\x9b2J\tand\nmore " + "long " * 30
LINES = [OcrLine(HOSTILE, (10, 10, 600, 40), 0.91), OcrLine("Pay later", (10, 300, 200, 330), 0.88),
         OcrLine("Settings", (10, 500, 200, 530), 0.95)]


@pytest.fixture
def shot(cache_dir: Path, tmp_path: Path, rapid_engine: RapidOcrEngine) -> Path:
    """A screenshot whose OCR lines (hostile text included) are already in the private cache."""
    path = tmp_path / "shot.png"
    Image.new("RGB", (640, 600), "white").save(path)
    OcrCache().put(OcrCache.key(path.read_bytes(), rapid_engine.name, rapid_engine.settings_key()), LINES)
    return path


def _cli(*args: str, terminal: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80"}
    env.pop("FORCE_COLOR", None)
    if terminal:  # Rich then lays out and colours as on a terminal
        env.update(FORCE_COLOR="1", COLUMNS="160")
    return subprocess.run([sys.executable, "-m", "droidpilot", "locate", *args], capture_output=True,
                          text=True, timeout=300, env=env)


def _clean(text: str) -> None:
    assert RLO not in text and "\x1b]" not in text and "\x9b" not in text and "\x07" not in text


def test_piped_locate_is_tab_separated_with_whole_values_like_its_json(shot: Path) -> None:
    piped = _cli(str(shot), "--text", "Pay")
    assert piped.returncode == 0, piped.stderr
    lines = piped.stdout.splitlines()
    assert lines[0].split("\t") == list(LOCATE_COLUMNS)
    rows = [line.split("\t") for line in lines[1:]]
    assert len(rows) == 2 and all(len(r) == 5 for r in rows)
    assert "long " * 29 + "long" in rows[0][3] + rows[1][3]  # the whole label: not cut to the width
    assert "│" not in piped.stdout and "…" not in piped.stdout
    _clean(piped.stdout)
    assert piped.stderr.startswith("ambiguous: text 'Pay'")  # the status is for the person, on stderr
    document = json.loads(_cli(str(shot), "--text", "Pay", "--json").stdout)
    assert [(r[1], r[2]) for r in rows] == [(str(c["point"]), str(c["box"])) for c in document["candidates"]]


def test_piped_not_found_prints_only_the_header_and_says_why_on_stderr(shot: Path) -> None:
    """Near miss: no candidate is no row (not a row saying so); the closest texts go to stderr, cleaned."""
    piped = _cli(str(shot), "--text", "Airplane mode")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.splitlines() == ["\t".join(LOCATE_COLUMNS)]
    assert "not_found: text 'Airplane mode'" in piped.stderr and "closest texts on screen" in piped.stderr
    _clean(piped.stderr)


def test_on_a_terminal_locate_prints_a_table_with_screen_text_cleaned(shot: Path) -> None:
    shown = _cli(str(shot), "--text", "Pay", terminal=True)
    assert shown.returncode == 0, shown.stderr
    assert "ambiguous" in shown.stdout and "│" in shown.stdout and "\t" not in shown.stdout
    assert "txt.exe now" in shown.stdout
    _clean(shown.stdout)
