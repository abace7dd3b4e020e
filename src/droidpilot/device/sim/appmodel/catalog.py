"""Loading app data files (``apps/*.yaml``) into validated ``App`` models, with errors naming the file."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml
from pydantic import ValidationError

from droidpilot import yamlfast
from droidpilot.device.sim.appmodel.model import App, Widget
from droidpilot.device.sim.draw.glyphs import GLYPHS
from droidpilot.errors import InputError

APPS_DIR = Path(__file__).parent.parent / "apps"  # the data lives in sim/apps/, beside this package


def _widgets(app: App) -> list[Widget]:
    out: list[Widget] = []

    def walk(w: Widget) -> None:
        out.append(w)
        for child in [*w.items, *([w.item] if w.item else [])]:
            walk(child)

    for screen in app.screens.values():
        for w in [*screen.actions, *screen.widgets, *screen.footer, *([screen.fab] if screen.fab else [])]:
            walk(w)
    return out


@functools.lru_cache(maxsize=8)
def _shared_screens(folder: Path) -> dict[str, object]:
    """Screens every app gets (``_shared.yaml``: permission, rate-this-app and onboarding prompts); read
    once per folder, not once per app (callers copy the screens into their own mapping)."""
    path = folder / "_shared.yaml"
    if not path.exists():
        return {}
    try:
        raw = yamlfast.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: cannot read shared screens: {exc}") from None
    screens = raw.get("screens") if isinstance(raw, dict) else None
    if not isinstance(screens, dict):
        raise InputError(f"{path}: expected a mapping with `screens:` (name -> screen)")
    return screens


def load_app(path: Path) -> App:
    """Parse and validate one app file; InputError says which file, where, and what is wrong."""
    try:
        raw = yamlfast.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: cannot read app data: {exc}") from None
    if not isinstance(raw, dict):
        raise InputError(f"{path}: an app file must be a mapping with name, package, label, icon, screens")
    if isinstance(raw.get("screens"), dict):
        for name, screen in _shared_screens(path.parent).items():
            raw["screens"].setdefault(name, screen)
    try:
        app = App.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
                             for err in exc.errors()[:5])
        raise InputError(f"{path}: invalid app data: {problems}") from None
    used = {app.icon.glyph} | {t.glyph for s in app.screens.values() for t in s.tabs}
    used |= {w.glyph for w in _widgets(app) if w.glyph and "{" not in w.glyph}
    unknown = sorted(g for g in used if g not in GLYPHS)
    if unknown:
        raise InputError(f"{path}: unknown glyph(s) {', '.join(unknown)}; known: {', '.join(sorted(GLYPHS))}")
    return app


@functools.cache
def load_catalog(folder: str = str(APPS_DIR)) -> dict[str, App]:
    """All apps in ``folder`` by name, in file-name order (the launcher's order)."""
    apps: dict[str, App] = {}
    for path in sorted(p for p in Path(folder).glob("*.yaml") if not p.name.startswith("_")):
        app = load_app(path)
        if app.name in apps:
            raise InputError(f"{path}: app name {app.name!r} is already used by another file")
        apps[app.name] = app
    if not apps:
        raise InputError(f"no SimPhone app files (*.yaml) in {folder}")
    return dict(sorted(apps.items(), key=lambda kv: (kv[1].order, kv[0])))
