"""Icon families as data: stylesheets read into name -> codepoint tables, missing packages left out,
broken stylesheets named by file and line, and the installed Debian families themselves."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from droidpilot import iconfamilies
from droidpilot.iconfamilies import Family, FamilyError, parse_stylesheet

FA = re.compile(r"\.fa-([a-z0-9-]+):before")
CSS = """/* a comment { with a brace } */
.fa-glass:before { content: "\\f000"; }
.fa-gear:before,
.fa-cog:before {
  content: "\\f013";
}
.fa-ul > li { position: relative; }
.fa-music:before { content: '\\f001'; }
"""


def _family(tmp_path: Path, css: str = CSS, key: str = "fa") -> Family:
    (tmp_path / "icons.css").write_text(css, encoding="utf-8")
    (tmp_path / "icons.ttf").write_bytes(b"\0")
    return Family(key, "fonts-font-awesome", tmp_path / "icons.ttf", tmp_path / "icons.css", FA, "OFL",
                  "TEST_FA_FONT", "TEST_FA_CSS")


def test_every_selector_of_a_rule_names_the_glyph_and_other_rules_are_ignored(tmp_path: Path) -> None:
    assert iconfamilies.codepoints(_family(tmp_path)) == {"glass": 0xF000, "gear": 0xF013, "cog": 0xF013,
                                                          "music": 0xF001}


def test_a_missing_font_leaves_the_family_out_and_says_how_to_install_it(tmp_path: Path) -> None:
    fam = _family(tmp_path)
    (tmp_path / "icons.ttf").unlink()
    assert iconfamilies.codepoints(fam) == {}
    why = fam.missing()
    assert why is not None and "fonts-font-awesome" in why and "TEST_FA_FONT" in why and "font" in why


def test_env_variables_point_a_family_at_other_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fam = _family(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "o.css").write_text('.fa-bell:before { content: "\\f0f3"; }', encoding="utf-8")
    monkeypatch.setenv("TEST_FA_CSS", str(other / "o.css"))
    assert fam.stylesheet == other / "o.css"
    assert iconfamilies.codepoints(fam) == {"bell": 0xF0F3}


def test_a_rule_without_a_codepoint_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    broken = CSS.replace('.fa-music:before { content: \'\\f001\'; }', ".fa-music:before {\n  color: red; }")
    with pytest.raises(FamilyError, match=r"icons\.css:8: the rule for 'music' has no content"):
        iconfamilies.codepoints(_family(tmp_path, broken))


def test_an_unclosed_rule_is_an_error_naming_its_line(tmp_path: Path) -> None:
    with pytest.raises(FamilyError, match=r"icons\.css:10: a rule is opened"):
        iconfamilies.codepoints(_family(tmp_path, CSS + "\n.fa-bell:before { content: \"\\f0f3\";\n"))


def test_a_stylesheet_of_another_family_is_an_error_not_an_empty_family(tmp_path: Path) -> None:
    other = '.mdi-home:before { content: "\\F2DC"; }\n'  # a near miss: the right form, the wrong prefix
    with pytest.raises(FamilyError, match=r"no rule's selector matches"):
        iconfamilies.codepoints(_family(tmp_path, other))


def test_a_glyph_name_is_matched_whole_not_as_a_prefix() -> None:
    css = '.fa-cog:before { content: "\\f013"; }\n.fa-cog:hover:before { content: "\\f000"; }\n'
    assert parse_stylesheet(css, FA, "x.css") == {"cog": 0xF013}


def test_the_families_env_variable_limits_the_families(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(iconfamilies.FAMILIES_ENV, "material, fa")
    assert [f.key for f in iconfamilies.chosen_families()] == ["material", "fa"]
    monkeypatch.setenv(iconfamilies.FAMILIES_ENV, "material,fontawesome")
    with pytest.raises(FamilyError, match=r"unknown icon family 'fontawesome'; known: material, mdi, fa"):
        iconfamilies.chosen_families()


def test_asking_for_a_family_that_is_not_installed_logs_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("DROIDPILOT_ICONS_ELUSIVE_FONT", str(tmp_path / "gone.ttf"))
    monkeypatch.setenv(iconfamilies.FAMILIES_ENV, "elusive")
    with caplog.at_level(logging.WARNING, logger="droidpilot.iconfamilies"):
        assert [f.key for f in iconfamilies.chosen_families()] == ["elusive"]
        assert iconfamilies.installed() == ()
    assert "fonts-elusive-icons" in caplog.text and "gone.ttf" in caplog.text


def test_a_family_entry_with_a_wrong_field_is_an_error() -> None:
    entry = {"package": "p", "font": "f", "stylesheet": "s", "selector": "(x)", "licence": "l",
             "envs": ["A", "B"]}  # near miss: envs for env
    with pytest.raises(FamilyError, match=r"family 'x' needs exactly the fields"):
        iconfamilies._family("x", entry, "iconfamilies.yaml")
    with pytest.raises(FamilyError, match=r"selector needs one group"):
        iconfamilies._family("x", {**{k: v for k, v in entry.items() if k != "envs"}, "env": ["A", "B"],
                                   "selector": "x"}, "iconfamilies.yaml")


@pytest.mark.parametrize("fam", iconfamilies.all_families(), ids=lambda f: f.key)
def test_each_debian_family_reads_from_its_package(fam: Family) -> None:
    if fam.missing():
        pytest.skip(f"{fam.package} is not installed (`sudo make system-deps`): {fam.missing()}")
    codes = iconfamilies.codepoints(fam)
    assert len(codes) >= 250 and all(0xE000 <= c <= 0xFFFFF for c in codes.values())
    assert fam.licence
