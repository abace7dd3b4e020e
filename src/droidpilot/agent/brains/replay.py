"""A brain that replays recorded raw responses from a JSON file, in order.

For regression tests and for studying grounding without a model. The file is a JSON list; each item is
either the raw reply text, or ``{"text": ..., "kind": "operate"|"complete"|"choose"|"role"}`` to assert
which question it answers (a mismatch is an error naming the item); ``role`` is a v2/E role's question.
An item with ``"must_ground": true`` (a studio demonstration's ``click text`` / ``click icon``) must ground
when replayed: when the loop reports that it did not, the replay stops with a BrainError naming the step,
so a demonstration that no longer replays never ends ``completed``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from droidpilot.agent.brains.base import BrainError, BrainReply, BrainRequest
from droidpilot.agent.coords import CoordSpace, check_space
from droidpilot.errors import InputError

_KINDS = ("operate", "complete", "choose", "role")
UNGROUNDED = ("not_found", "too_many", "ambiguous", "device error")  # a history entry's failed results


def load_responses(path: str | Path) -> list[dict[str, Any]]:
    """Read and validate a responses file; InputError names the file and the bad item."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: responses file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read responses file ({exc})") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise InputError(f"{path}: not valid JSON ({where}: {exc.msg})") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a JSON list of responses, got {type(data).__name__}")
    items: list[dict[str, Any]] = []
    for i, item in enumerate(data):
        if isinstance(item, str):
            items.append({"text": item, "kind": None})
        elif isinstance(item, dict) and isinstance(item.get("text"), str):
            kind = item.get("kind")
            if kind is not None and kind not in _KINDS:
                raise InputError(f"{path}: item {i}: kind {kind!r} is not one of {', '.join(_KINDS)}")
            must = item.get("must_ground", False)
            if not isinstance(must, bool):
                raise InputError(f"{path}: item {i}: must_ground must be true or false, got {must!r}")
            items.append({"text": item["text"], "kind": kind, "must_ground": must})
        else:
            raise InputError(f"{path}: item {i} must be a string or an object with a string 'text'")
    return items


class ReplayBrain:
    """Answers each request with the next recorded response."""

    name = "replay"
    answers_roles = True  # a recorded reply answers whatever prompt it was recorded for

    def __init__(self, responses: list[str | dict[str, Any]] | str | Path,
                 coord_space: CoordSpace = "device") -> None:
        if isinstance(responses, (str, Path)):
            self.source = str(responses)
            self._items = load_responses(responses)
        else:
            self.source = "<list>"
            self._items = [r if isinstance(r, dict) else {"text": r, "kind": None} for r in responses]
        self.coord_space: CoordSpace = check_space(coord_space)
        self._next = 0
        self._pending: dict[str, Any] | None = None  # the last operate item that must ground

    @property
    def remaining(self) -> int:
        return len(self._items) - self._next

    def _check_grounded(self, request: BrainRequest) -> None:
        """Raise BrainError when the last item that had to ground did not (the loop's history says)."""
        pending, self._pending = self._pending, None
        if pending is None or not request.history:
            return
        last = request.history[-1]
        if last.step == pending["step"] and last.result in UNGROUNDED:
            raise BrainError(f"replay diverged at step {last.step}: {last.action!r} ({pending['index']} of "
                             f"{self.source}) did not ground ({last.result}); the screen is not the "
                             "recorded one")

    def decide(self, request: BrainRequest) -> BrainReply:
        if request.kind == "operate":
            self._check_grounded(request)
        if self._next >= len(self._items):
            raise BrainError(f"replay exhausted: all {len(self._items)} responses of {self.source} were used")
        item = self._items[self._next]
        if item.get("kind") and item["kind"] != request.kind:
            raise BrainError(f"replay item {self._next} of {self.source} answers a {item['kind']!r} request, "
                             f"but the agent asked a {request.kind!r} one")
        if item.get("must_ground") and request.kind == "operate":
            self._pending = {"step": request.step, "index": f"item {self._next}"}
        self._next += 1
        return BrainReply(text=item["text"], model_calls=1)

    def describe(self) -> dict[str, Any]:
        return {"responses": self.source, "count": len(self._items), "coord_space": self.coord_space}
