"""Replay a recorded demonstration on a fresh phone: does each step ground, and land where the person tapped?

A step diverges when the screen before it differs from the recorded one, when its words (``click text``,
``click icon``) do not ground on the fresh phone's screen, when they ground somewhere other than where the
person tapped, or when the phone refuses it. The report says "replays cleanly N/N" or names the first step
that diverged and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.execute import perform
from droidpilot.agent.grounding import Grounder
from droidpilot.agent.launcher import seek_if_missed
from droidpilot.agent.reflection import screen_diff
from droidpilot.agent.screen import ScreenView
from droidpilot.device.base import Device, DeviceError
from droidpilot.studio.faithful import GROUNDED, contains
from droidpilot.studio.manual import Manual, execute


@dataclass
class Divergence:
    """The first step that did not replay as recorded (``step`` counts from 1)."""

    step: int
    action: str
    reason: str


@dataclass
class ReplayReport:
    """How a demonstration replayed: steps in all, steps replayed as recorded, the first divergence."""

    steps: int
    replayed: int
    diverged: Divergence | None = None
    landed: list[list[int] | None] = field(default_factory=list)  # where each replayed step tapped

    @property
    def clean(self) -> bool:
        return self.diverged is None and self.replayed == self.steps

    @property
    def text(self) -> str:
        if self.diverged is None:
            return f"replays cleanly {self.replayed}/{self.steps}"
        d = self.diverged
        return (f"replays {self.replayed}/{self.steps}: step {d.step} ({d.action}) diverges: {d.reason}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"steps": self.steps, "replayed": self.replayed, "clean": self.clean,
                               "text": self.text, "landed": self.landed}
        if self.diverged is not None:
            out["diverged"] = {"step": self.diverged.step, "action": self.diverged.action,
                               "reason": self.diverged.reason}
        return out


def _differs(recorded: Image.Image | None, now: Image.Image) -> str:
    """Why the screen ``now`` is not the ``recorded`` one ("" when they agree, or nothing was recorded)."""
    if recorded is None:
        return ""
    diff = screen_diff(recorded.convert("RGB"), now.convert("RGB"))
    if diff.changed:
        return (f"the screen before it differs from the recorded one ({diff.changed_fraction:.1%} of it "
                "changed)")
    return ""


def _replay_step(device: Device, manual: Manual, ocr_engine: Any) -> tuple[str, list[int] | None]:
    """Carry out one recorded step; (reason it diverged or "", the point it tapped)."""
    action = manual.action
    if action.name not in GROUNDED:
        execute(device, manual)
        point = manual.grounding.point
        return "", list(point) if point is not None else None
    screen = ScreenView(device.screenshot(), ocr_engine)
    grounder = Grounder()
    grounding = grounder.ground(action, screen, CoordFrame("device", screen.size, screen.size))
    # open App by name: looked for through the launcher (pages, drawer, search) when not on this screen
    grounding, screen, _ = seek_if_missed(device, action, grounding, screen, grounder, ocr_engine,
                                          record_xml=False)
    if not grounding.ok or grounding.point is None:
        detail = grounding.message or grounding.status
        return f"it does not ground on the replayed screen ({grounding.status}: {detail})", None
    tapped = manual.grounding.point  # None for open App: the app was opened by name, any icon of it will do
    if tapped is not None and not (contains(grounding.box, tapped) or contains(manual.grounding.box,
                                                                               grounding.point)):
        return (f"it grounds at {tuple(grounding.point)}, but the demonstration tapped {tuple(tapped)}",
                list(grounding.point))
    perform(device, action, grounding)
    return "", list(grounding.point)


def replay(device: Device, steps: list[Manual], ocr_engine: Any,
           recorded: Callable[[int], Image.Image | None] | None = None) -> ReplayReport:
    """Replay ``steps`` on ``device`` (already in the demonstration's start state), stopping at the first
    divergence; ``recorded(n)`` is the screen recorded before step n (1-based), when known."""
    report = ReplayReport(len(steps), 0)
    for n, manual in enumerate(steps, start=1):
        words = manual.action.format()
        reason = _differs(recorded(n) if recorded else None, device.screenshot())
        point = None
        if not reason:
            try:
                reason, point = _replay_step(device, manual, ocr_engine)
            except DeviceError as exc:
                reason = f"the phone refused it: {exc}"
        report.landed.append(point)
        if reason:
            report.diverged = Divergence(n, words, reason)
            return report
        report.replayed += 1
    return report


def frame_reader(folder: Path) -> Callable[[int], Image.Image | None]:
    """Read the screen recorded before step n from a trace folder (``n.jpg``; None when missing)."""

    def read(n: int) -> Image.Image | None:
        path = folder / f"{n}.jpg"
        if not path.is_file():
            return None
        with Image.open(path) as image:
            return image.convert("RGB")

    return read
