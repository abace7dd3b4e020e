"""Recording a demonstration on a fresh SimPhone the way the studio records one (screen and UI dump before
each manual op, then the op), for tests that need a real trace folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.manual import execute, resolve
from droidpilot.studio.recording import Recording

VIEW = {"view_w": 1080, "view_h": 2400}  # the studio's view of the phone, in which clicks are given
NOTE_OPS = [{"op": "open_app", "app": "Notes"}, {"op": "click", "x": 935, "y": 2120, **VIEW},
            {"op": "type", "text": "Hello"}, {"op": "click", "x": 984, "y": 188, **VIEW}]  # a note, saved


def record(folder: Path, instruction: str, ops: list[dict[str, Any]],
           start: dict[str, Any] | None = None) -> Recording:
    """``ops`` (the studio's manual ops) carried out and recorded into ``folder``; the stopped recording.
    ``start``: the start state written with it (StartState.to_dict())."""
    phone = SimDevice()
    rec = Recording(folder, instruction, {"serial": phone.serial}, start=start)
    for op in ops:
        before, xml = phone.screenshot(), phone.ui_xml()
        manual = resolve(op, phone.size())
        execute(phone, manual)
        rec.add(before, xml, manual)
    rec.stop(phone.screenshot(), phone.ui_xml())
    return rec
