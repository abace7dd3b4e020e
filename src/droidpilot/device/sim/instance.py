"""Starting SimPhone from a task instance's setup: seeded state patches and seeded distractors.

``setup`` is plain data (recorded in the instance, so a run is reproducible):
``state: {"app.key.sub": value}`` replaces values in apps' state; ``notifications: [{at, title, text,
app}]`` arrive when virtual time reaches ``at`` (seconds; one per input event); ``dialogs: [{app,
screen, params}]`` open over the app's first screen when it is first launched (permission requests,
rate-this-app prompts, onboarding: the shared screens of ``apps/_shared.yaml``); ``keyboard: [{app}]``
makes the soft keyboard cover those apps' windows instead of resizing them (Android's ``adjustNothing``),
so it hides a form's bottom-pinned button until it is dismissed; ``date: YYYY-MM-DD`` is the phone's
today (drawn from the seed by tasks about dates), which the status bar, Calendar and relative days use;
``clipboard: text`` is what the phone's clipboard holds at the start.
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import TYPE_CHECKING, Any

from droidpilot.device.base import DeviceError

if TYPE_CHECKING:
    from droidpilot.device.sim.world import World

SETUP_KEYS = ("state", "date", "clipboard", "notifications", "dialogs", "keyboard")


def _set_path(states: dict[str, Any], path: str, value: Any) -> None:
    app, _, rest = path.partition(".")
    if app not in states:
        raise DeviceError(f"setup.state: {path!r} names no app (known: {', '.join(sorted(states))})")
    if not rest:
        raise DeviceError(f"setup.state: {path!r} needs a key inside the app's state, e.g. {app}.items")
    node = states[app]
    parts = rest.split(".")
    for part in parts[:-1]:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    node[parts[-1]] = copy.deepcopy(value)


def apply_setup(world: World, setup: dict[str, Any]) -> None:
    """Apply ``setup`` to a freshly reset ``world``; DeviceError names the entry that cannot apply."""
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise DeviceError(f"setup: unknown key(s) {unknown}; known: {', '.join(SETUP_KEYS)}")
    if "date" in setup:
        try:
            world.move_today(dt.date.fromisoformat(str(setup["date"])).isoformat())
        except ValueError:
            raise DeviceError(
                f"setup.date: {setup['date']!r} is not a day; write it as YYYY-MM-DD, e.g. 2026-11-22"
            ) from None
    if "clipboard" in setup:
        world.clipboard = str(setup["clipboard"])
    for path, value in (setup.get("state") or {}).items():
        _set_path(world.states, str(path), value)
    notes = []
    for i, note in enumerate(setup.get("notifications") or []):
        if not isinstance(note, dict) or not {"at", "title", "text"} <= set(note):
            raise DeviceError(f"setup.notifications[{i}]: needs at, title and text")
        notes.append(
            {
                "at": float(note["at"]),
                "title": str(note["title"]),
                "text": str(note["text"]),
                "app": str(note.get("app") or ""),
            }
        )
    world.scheduled = sorted(notes, key=lambda n: n["at"])
    world.launch_dialogs = {}
    for i, dialog in enumerate(setup.get("dialogs") or []):
        app = world.catalog.get(str(dialog.get("app")))
        if app is None or dialog.get("screen") not in app.screens:
            raise DeviceError(
                f"setup.dialogs[{i}]: no screen {dialog.get('screen')!r} in app {dialog.get('app')!r}"
            )
        world.launch_dialogs.setdefault(app.name, []).append(
            (dialog["screen"], dict(dialog.get("params") or {}))
        )
    world.keyboard_over = set()
    for i, entry in enumerate(setup.get("keyboard") or []):
        name = entry.get("app") if isinstance(entry, dict) else None
        if name not in world.catalog:
            raise DeviceError(
                f"setup.keyboard[{i}]: {name!r} is not an app (known: {', '.join(sorted(world.catalog))})"
            )
        world.keyboard_over.add(str(name))
