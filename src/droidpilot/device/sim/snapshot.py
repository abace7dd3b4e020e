"""SimPhone's ``state()`` as data: every app's state, what is in the foreground, and the system's own
values, copied so a caller can keep or compare snapshots (the benchmark's oracle diffs two of them)."""

from __future__ import annotations

import copy
from typing import Any

from droidpilot.device.sim.world import World


def snapshot(w: World, package: str) -> dict[str, Any]:
    """A JSON-able copy of everything a task can change; ``package`` is the app in the foreground."""
    stack = w.stack()
    out: dict[str, Any] = {name: copy.deepcopy(st) for name, st in w.states.items()}
    out["foreground"] = {
        "app": "recents" if w.overlay == "recents" else (w.foreground or "launcher"),
        "package": package,
        "screen": "recents" if w.overlay == "recents" else (stack[-1].screen if stack else "home"),
        "params": copy.deepcopy(stack[-1].params) if stack else {},
        "fields": copy.deepcopy(stack[-1].fields) if stack else {"query": w.launcher_query},
    }
    out["system"] = {
        "clock": w.clock, "date": w.date, "battery": w.battery, "dark_mode": w.dark, "seed": w.seed,
        "installed_apps": list(w.installed), "installing": sorted(w.installing),
        "notifications": copy.deepcopy(w.notifications), "recents": list(w.recents), "time": w.time,
        "shade_open": w.overlay == "shade", "clipboard": w.clipboard,
    }
    return out
