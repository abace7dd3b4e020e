"""What a run changed: SimPhone's ``state()`` at the start against the final one, incidental state left out.

A list is compared as a multiset of records (order never matters: two records created in the other
order are the same change), so a change to a list is the records added and the records removed (an
edited record is one of each); mappings are compared key by key; any other value by equality. The
incidental state (``INCIDENTAL``) is what using a phone changes on the way without being part of any
task: which screen is showing, the clock, notifications, recents, search and play histories.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Paths left out of the comparison, each with why; ``*`` stands for any one segment (an app).
INCIDENTAL: dict[str, str] = {
    "agent": "the agent's reply, judged by the task's answer check",
    "foreground": "the app and screen showing, their parameters and typed fields (the launcher query)",
    "system.clock": "the clock", "system.date": "the date", "system.time": "the simulated time",
    "system.battery": "the battery", "system.seed": "the phone's seed",
    "system.notifications": "notifications arrive and are dismissed", "system.recents": "recent apps",
    "system.shade_open": "the notification shade", "system.dark_mode": "a mirror of settings.dark_mode",
    "system.clipboard": "what was copied on the way (a task about the clipboard declares it)",
    "*.queries": "search histories (an app records what was searched in it)",
    "*.history": "play and calculation histories (what was played or computed on the way)",
    "browser.visited": "pages opened (a browsing history)",
    "calendar.viewed_today": "whether today's agenda was looked at",
    "weather.viewed_forecast": "whether the forecast was looked at",
    "calculator.display": "the calculator's display (a scratch pad)",
    "calculator.result": "the calculator's last result (a scratch pad)",
}


@dataclass
class Change:
    """One difference: records ``added`` / ``removed`` at a list ``path``, or ``before`` -> ``after``."""

    path: str
    added: list[Any] = field(default_factory=list)
    removed: list[Any] = field(default_factory=list)
    before: Any = None
    after: Any = None
    is_list: bool = False

    def to_dict(self) -> dict[str, Any]:
        """As ``oracle.json`` shows it."""
        if self.is_list:
            return {"path": self.path, "added": self.added, "removed": self.removed}
        return {"path": self.path, "before": self.before, "after": self.after}


def _key(item: Any) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)


def multiset_diff(before: Iterable[Any], after: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    """(items of ``after`` not in ``before``, items of ``before`` not in ``after``), counting repeats."""
    before, after = list(before), list(after)
    left = Counter(_key(x) for x in before)
    added = []
    for item in after:
        k = _key(item)
        if left[k] > 0:
            left[k] -= 1
        else:
            added.append(item)
    gone = Counter(_key(x) for x in after)
    removed = []
    for item in before:
        k = _key(item)
        if gone[k] > 0:
            gone[k] -= 1
        else:
            removed.append(item)
    return added, removed


def _incidental(path: str, keep: Iterable[str]) -> bool:
    parts = path.split(".")
    for pattern in INCIDENTAL:
        pat = pattern.split(".")
        if len(pat) == len(parts) and all(p in ("*", s) for p, s in zip(pat, parts, strict=True)):
            # a path a task declares an effect on (or under) is judged, not left out
            return not any(k == path or k.startswith(path + ".") for k in keep)
    return False


def diff(start: Any, final: Any, *, keep: Iterable[str] = (), path: str = "") -> list[Change]:
    """Every change from ``start`` to ``final``, incidental paths left out unless named in ``keep``."""
    keep = tuple(keep)
    if isinstance(start, Mapping) and isinstance(final, Mapping):
        out: list[Change] = []
        for key in list(start) + [k for k in final if k not in start]:
            sub = f"{path}.{key}" if path else str(key)
            if _incidental(sub, keep):
                continue
            if key not in start or key not in final:  # a key that came or went; a list counts from empty
                gone, came = start.get(key), final.get(key)
                if isinstance(gone, list) or isinstance(came, list):
                    gone, came = gone if gone is not None else [], came if came is not None else []
                out += diff(gone, came, keep=keep, path=sub)
            else:
                out += diff(start[key], final[key], keep=keep, path=sub)
        return out
    if isinstance(start, list) and isinstance(final, list):
        added, removed = multiset_diff(start, final)
        return [Change(path, added=added, removed=removed, is_list=True)] if added or removed else []
    if _key(start) != _key(final):
        return [Change(path, before=copy.deepcopy(start), after=copy.deepcopy(final))]
    return []


def show(value: Any) -> str:
    """A record as one short line: ``{time: 09:30, label: Gym}``."""
    if isinstance(value, Mapping):
        text = "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    elif isinstance(value, list):
        text = "[" + ", ".join(show(v) for v in value) + "]"
    elif value is None:
        text = "null"
    else:
        text = str(value).lower() if isinstance(value, bool) else str(value)
    return text if len(text) <= 200 else text[:197] + "..."


__all__ = ["INCIDENTAL", "Change", "diff", "multiset_diff", "show"]
