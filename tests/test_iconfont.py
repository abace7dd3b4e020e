"""The shared Material icon font lookup: names -> codepoints from the package's stylesheet, or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot import iconfont

CSS = """.material-icons.add:before { content: "\\e145"; }
.material-icons.arrow_back:before {
  content: "\\e5c4"; }
.other.rule:before { content: "\\e000"; }
"""


def test_names_and_codepoints_come_from_the_css(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "icons.css").write_text(CSS, encoding="utf-8")
    (tmp_path / "icons.ttf").write_bytes(b"\0")
    monkeypatch.setenv(iconfont.CSS_ENV, str(tmp_path / "icons.css"))
    monkeypatch.setenv(iconfont.FONT_ENV, str(tmp_path / "icons.ttf"))
    assert iconfont.glyph_codepoints() == {"add": 0xE145, "arrow_back": 0xE5C4}
    assert iconfont.available() and iconfont.font_path() == tmp_path / "icons.ttf"


def test_without_the_font_file_the_table_is_empty(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "icons.css").write_text(CSS, encoding="utf-8")
    monkeypatch.setenv(iconfont.CSS_ENV, str(tmp_path / "icons.css"))
    monkeypatch.setenv(iconfont.FONT_ENV, str(tmp_path / "missing.ttf"))
    assert iconfont.glyph_codepoints() == {} and not iconfont.available()


def test_an_unreadable_stylesheet_is_an_empty_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "icons.ttf").write_bytes(b"\0")
    monkeypatch.setenv(iconfont.CSS_ENV, str(tmp_path / "missing.css"))
    monkeypatch.setenv(iconfont.FONT_ENV, str(tmp_path / "icons.ttf"))
    assert iconfont.glyph_codepoints() == {}
