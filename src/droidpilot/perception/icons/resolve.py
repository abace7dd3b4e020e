"""Icon name -> template file, the way MobiFlow's rules name icons ("icon_001_通讯录").

A name is looked up, in order: next to the rule file; in an ``icons/`` folder beside it (first the
app's sub-folder, then the whole folder, recursively); then in each given icons directory (the app's
sub-folder first, then recursively). The app's sub-folder is chosen by ``app_id`` through the short names
MobiFlow's layout uses (com.tencent.mm -> weixin). A name found nowhere is an InputError naming every
place searched; a name found twice at the same step is an InputError too (never a silent guess).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from droidpilot.errors import InputError
from droidpilot.pathcheck import file_problem

IMAGE_SUFFIXES: tuple[str, ...] = (".png", ".jpg", ".jpeg", ".webp")

# Short folder names used for an app's icons (MobiFlow's own layout and common spellings).
APP_FOLDERS: dict[str, tuple[str, ...]] = {
    "com.tencent.mm": ("weixin", "wechat", "微信"),
    "ctrip.android.view": ("xiecheng", "xiechen", "ctrip", "携程"),
    "tv.danmaku.bili": ("bilibili", "哔哩哔哩"),
    "com.taobao.taobao": ("taobao", "淘宝"),
    "com.taobao.trip": ("feizhu", "fliggy", "飞猪"),
    "com.xingin.xhs": ("xiaohongshu", "xhs", "小红书"),
    "com.autonavi.minimap": ("gaode", "amap", "高德地图"),
    "me.ele": ("ele", "饿了么"),
    "com.netease.cloudmusic": ("cloudmusic", "网易云音乐"),
}


@dataclass(frozen=True)
class Place:
    """One place searched for icon files; ``recursive`` when sub-folders count."""

    path: Path
    recursive: bool

    def __str__(self) -> str:
        if not self.path.is_dir():
            return f"{self.path} (no such folder)"
        return f"{self.path}{' (and sub-folders)' if self.recursive else ''}"


def app_folder_names(app_id: str, rule_dir: Path | None = None) -> list[str]:
    """Folder names that may hold ``app_id``'s icons: known short names, the id, its last part."""
    names: list[str] = []
    if app_id:
        names += APP_FOLDERS.get(app_id, ())
        names += [app_id, app_id.rsplit(".", 1)[-1]]
    if rule_dir is not None and rule_dir.name:  # rules live in per-app folders (task_rules/weixin/)
        names.append(rule_dir.name)
    seen: list[str] = []
    for n in names:
        if n and n not in seen and n not in ("any", "app"):
            seen.append(n)
    return seen


def search_places(rule_dir: Path | None = None, icons_dirs: Sequence[Path] = (), app_id: str = ""
                  ) -> list[list[Place]]:
    """The places searched, grouped in steps: a name is taken from the first step that has it."""
    apps = app_folder_names(app_id, rule_dir)
    steps: list[list[Place]] = []
    bases: list[Path] = []
    if rule_dir is not None:
        steps.append([Place(Path(rule_dir), False)])
        bases.append(Path(rule_dir) / "icons")
    bases += [Path(d).expanduser() for d in icons_dirs]
    for base in bases:
        app_places = [Place(base / a, True) for a in apps if (base / a).is_dir()]
        if app_places:
            steps.append(app_places)
        steps.append([Place(base, True)])
    return steps


@lru_cache(maxsize=64)
def _index(folder: str, recursive: bool, stamp: float) -> dict[str, tuple[str, ...]]:
    """Image files under ``folder`` by stem and by file name (``stamp`` invalidates on change)."""
    del stamp
    root = Path(folder)
    found: dict[str, list[str]] = {}
    files: Iterable[Path] = root.rglob("*") if recursive else root.iterdir()
    for f in sorted(files):
        if f.suffix.lower() in IMAGE_SUFFIXES and f.is_file():
            for key in {f.stem, f.name}:
                found.setdefault(key, []).append(str(f))
    return {k: tuple(v) for k, v in found.items()}


def _lookup(place: Place, name: str) -> list[Path]:
    if not place.path.is_dir():
        return []
    if "/" in name or os.sep in name:  # a relative path such as "weixin/icon_001_通讯录"
        rel = place.path / name
        return [p for p in [rel, *(rel.with_name(rel.name + s) for s in IMAGE_SUFFIXES)] if p.is_file()][:1]
    index = _index(str(place.path), place.recursive, place.path.stat().st_mtime)
    return [Path(p) for p in index.get(name, ())]


def resolve_icon(name: str, rule_dir: Path | None = None, icons_dirs: Sequence[Path] = (),
                 app_id: str = "") -> Path:
    """The template file for icon ``name``; InputError naming the places searched when there is none."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"icon name must be a non-empty string, not {name!r}")
    direct = Path(name).expanduser()
    if direct.is_absolute():
        problem = file_problem(direct)  # a loop or /dev/zero is not "no such file"
        if problem is None:
            return direct
        raise InputError(f"icon {name!r}: {direct} {problem}")
    steps = search_places(rule_dir, icons_dirs, app_id)
    for step in steps:
        hits: list[Path] = []
        for place in step:
            hits += [h for h in _lookup(place, name) if h not in hits]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise InputError(f"icon {name!r} is ambiguous: {', '.join(map(str, hits))} all match; name it "
                             "with its folder (e.g. 'weixin/" + name + "') or set the rule's app_id")
    if not steps:
        raise InputError(f"icon {name!r}: nowhere to look for it; the rule has no folder and no icons "
                         "directory was given (pass --icons-dir DIR)")
    searched = "; ".join(str(p) for step in steps for p in step)
    raise InputError(f"icon {name!r} not found (looked for {name} or {name}.png/.jpg/.jpeg/.webp in: "
                     f"{searched}); put the template in one of these or pass --icons-dir DIR")
