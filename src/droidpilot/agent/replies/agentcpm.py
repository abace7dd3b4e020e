"""AgentCPM-GUI's compact JSON, where the key names the action: ``{"POINT": [x, y]}`` taps,
``{"POINT": [x, y], "to": "up"}`` swipes the finger that way (a point instead of a direction: to it),
``{"TYPE": "text"}``, ``{"PRESS": "BACK" | "HOME" | "ENTER"}``, ``{"OPEN_APP": "name"}``,
``{"STATUS": "finish"}`` (or ``satisfied``) ends the task and ``{"duration": ms}`` alone waits.
Points are in the model's own space (AgentCPM-GUI: 0-1000)."""

from __future__ import annotations

from typing import Any

_DONE = ("finish", "satisfied")


def as_named(fields: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(action name, fields) in the JSON parser's vocabulary (the object's own fields, such as its
    ``thought``, kept), or None when ``fields`` is not AgentCPM's."""
    named = _named(fields)
    return None if named is None else (named[0], {**fields, **named[1]})


def _named(fields: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    point, to = fields.get("POINT"), fields.get("to")
    if point is not None and isinstance(to, str):
        return "swipe", {"direction": to}
    if point is not None and isinstance(to, (list, tuple)):
        return "swipe", {"coordinate": point, "coordinate2": to}
    if point is not None:
        return "click", {"coordinate": point}
    if isinstance(fields.get("TYPE"), str):
        return "type", {"text": fields["TYPE"]}
    if isinstance(fields.get("PRESS"), str):
        return "key", {"key": fields["PRESS"].lower()}
    if isinstance(fields.get("OPEN_APP"), str):
        return "open_app", {"app_name": fields["OPEN_APP"]}
    if str(fields.get("STATUS", "")).lower() in _DONE:
        return "finish", {}
    if isinstance(fields.get("duration"), (int, float)) and not isinstance(fields["duration"], bool):
        return "wait", {"seconds": fields["duration"] / 1000}
    return None
