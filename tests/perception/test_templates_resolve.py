"""Icon name -> template file: next to the rule, icons/ beside it, the app's folder, --icons-dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.errors import InputError
from droidpilot.perception.icons.resolve import app_folder_names, resolve_icon

MOBIFLOW = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobiflow"


def _touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG")  # resolution looks at names only
    return path


def test_file_next_to_the_rule_with_or_without_extension(tmp_path: Path) -> None:
    rule_dir = tmp_path / "rules"
    icon = _touch(rule_dir / "send.png")
    assert resolve_icon("send", rule_dir) == icon
    assert resolve_icon("send.png", rule_dir) == icon


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".jpeg", ".webp", ".PNG"])
def test_every_image_suffix(tmp_path: Path, suffix: str) -> None:
    icon = _touch(tmp_path / "icons" / f"back{suffix}")
    assert resolve_icon("back", tmp_path) == icon


def test_icons_folder_beside_the_rule_prefers_the_app_folder(tmp_path: Path) -> None:
    rule_dir = tmp_path / "task_rules"
    in_app = _touch(rule_dir / "icons" / "weixin" / "home.jpg")
    _touch(rule_dir / "icons" / "bilibili" / "home.jpg")
    assert resolve_icon("home", rule_dir, app_id="com.tencent.mm") == in_app


def test_same_name_in_two_places_without_an_app_is_an_error(tmp_path: Path) -> None:
    _touch(tmp_path / "icons" / "weixin" / "home.jpg")
    _touch(tmp_path / "icons" / "bilibili" / "home.jpg")
    with pytest.raises(InputError, match=r"ambiguous.*weixin/home"):
        resolve_icon("home", tmp_path / "elsewhere", icons_dirs=[tmp_path / "icons"])
    assert resolve_icon("weixin/home", None, icons_dirs=[tmp_path / "icons"]).parent.name == "weixin"


def test_icons_dirs_are_searched_recursively_after_the_rule(tmp_path: Path) -> None:
    rule_dir = tmp_path / "rules"
    near = _touch(rule_dir / "star.png")
    far = _touch(tmp_path / "lib" / "deep" / "er" / "star.png")
    only_far = _touch(tmp_path / "lib" / "deep" / "moon.png")
    assert resolve_icon("star", rule_dir, [tmp_path / "lib"]) == near
    assert resolve_icon("moon", rule_dir, [tmp_path / "lib"]) == only_far
    assert resolve_icon("star", None, [tmp_path / "lib"]) == far


def test_rule_folder_name_picks_the_app_folder(tmp_path: Path) -> None:
    wx = _touch(tmp_path / "icons" / "weixin" / "me.jpg")
    _touch(tmp_path / "icons" / "xiecheng" / "me.jpg")
    assert resolve_icon("me", tmp_path / "task_rules" / "weixin", [tmp_path / "icons"]) == wx


def test_missing_icon_error_names_every_place(tmp_path: Path) -> None:
    rule_dir = tmp_path / "rules"
    rule_dir.mkdir()
    extra = tmp_path / "more"
    extra.mkdir()
    with pytest.raises(InputError) as err:
        resolve_icon("icon_009_none", rule_dir, [extra], app_id="com.tencent.mm")
    message = str(err.value)
    assert "icon_009_none" in message and ".png/.jpg/.jpeg/.webp" in message
    assert str(rule_dir) in message and str(rule_dir / "icons") in message and str(extra) in message
    assert "no such folder" in message and "--icons-dir" in message


def test_nowhere_to_look_is_said_plainly() -> None:
    with pytest.raises(InputError, match="nowhere to look"):
        resolve_icon("x")
    with pytest.raises(InputError, match="non-empty"):
        resolve_icon("  ")


def test_app_folder_names() -> None:
    assert app_folder_names("com.tencent.mm")[:2] == ["weixin", "wechat"]
    assert "view" in app_folder_names("ctrip.android.view")
    assert app_folder_names("any") == []


@pytest.mark.skipif(not (MOBIFLOW / "icons").is_dir(), reason=f"MobiFlow reference icons absent ({MOBIFLOW})")
def test_mobiflow_layout_works_as_is() -> None:
    rule_dir = MOBIFLOW / "task_rules" / "weixin"
    for name in ("icon_001_通讯录", "icon_002_微信", "icon_000_我", "icon_001_回车", "icon_002_发送"):
        path = resolve_icon(name, rule_dir, [MOBIFLOW / "icons"], "com.tencent.mm")
        assert path.parent.name == "weixin" and path.stem == name
    # Without the app, a name unique in the corpus still resolves; 携程's PNGs resolve by plain names.
    assert resolve_icon("酒店", None, [MOBIFLOW / "icons"]).suffix == ".png"
