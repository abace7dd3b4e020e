"""Where a demonstration starts: a fresh SimPhone from a seed (or a suite task's start state), or the
phone as it is. A fresh start is what makes a demonstration replayable: the replay builds the same phone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from droidpilot.device.base import Device
from droidpilot.errors import DroidpilotError
from droidpilot.studio.errors import StudioError
from droidpilot.studio.inputs import shown, text_path

MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class StartState:
    """A fresh phone's recipe: the seed, and the suite task whose set-up is applied after the reset."""

    seed: int
    task_file: str | None = None
    setup: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"fresh": True, "seed": self.seed, "task_file": self.task_file}


def is_sim(device: Any) -> bool:
    """Can this phone be reset to a seed (a SimPhone)?"""
    return callable(getattr(device, "reset", None)) and callable(getattr(device, "apply_setup", None))


def from_request(body: dict[str, Any], device: Any, default_seed: int) -> StartState | None:
    """The start a recording request asks for (None: the phone as it is); StudioError for a bad field."""
    start = body.get("start", "fresh" if is_sim(device) else "current")
    if start not in ("fresh", "current"):
        raise StudioError(f"field 'start' must be fresh or current, got {shown(start)}")
    if start == "current":
        return None
    if not is_sim(device):
        raise StudioError("only a SimPhone can start fresh; send start: current to record a real phone as "
                          "it is")
    task_file = body.get("task_file") or None
    if task_file is not None:
        from droidpilot.bench.suite import load_task

        path = text_path(task_file, "task_file", "a suite task file")
        try:
            task = load_task(path)
        except DroidpilotError as exc:
            raise StudioError(f"field 'task_file': {exc}") from None
        return StartState(int(task.seed), str(path), dict(task.setup) if task.setup else None)
    seed = body.get("seed", default_seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise StudioError(f"field 'seed' must be a whole number from 0 to {MAX_SEED}, got {shown(seed)}")
    return StartState(seed)


def prepare(device: Any, start: StartState) -> None:
    """Put a SimPhone in the start state: reset to the seed, then the task's set-up."""
    device.reset(start.seed)
    if start.setup:
        device.apply_setup(start.setup)


def fresh_phone(like: Device, start: StartState) -> Device:
    """A new SimPhone of ``like``'s size in ``start``'s state (a replay leaves the live phone alone)."""
    from droidpilot.device.sim.phone import SimDevice

    width, height = like.size()
    phone = SimDevice(serial=f"{getattr(like, 'serial', 'simphone')}-replay", size=(width, height),
                      seed=start.seed)
    prepare(phone, start)
    return phone
