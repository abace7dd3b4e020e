"""Reflection in code: did the screen change, and is the agent stuck repeating a failing action?

``screen_changed`` is a perceptual diff on downscaled grey images that ignores the status bar (whose
clock and indicators change on their own); ``FailureTracker`` counts repeated and consecutive failures
and says when the run should end, and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image

STATUS_BAR_FRACTION = 0.045  # the top of the screen ignored by the diff (clock, battery, network)


@dataclass(frozen=True)
class ScreenDiff:
    """How much two screens differ: the fraction of compared cells that changed."""

    changed_fraction: float
    changed: bool

    def to_dict(self) -> dict[str, object]:
        return {"changed_fraction": round(self.changed_fraction, 5), "changed": self.changed}


def _grey_cells(image: Image.Image, ignore_top: float, width: int = 96) -> np.ndarray:
    w, h = image.size
    top = round(h * ignore_top)
    body = image.crop((0, top, w, h)) if top < h else image
    height = max(1, round(width * body.size[1] / max(1, body.size[0])))
    return np.asarray(body.convert("L").resize((width, height), Image.BILINEAR), dtype=np.int16)


def screen_diff(before: Image.Image, after: Image.Image, ignore_top: float = STATUS_BAR_FRACTION,
                pixel_threshold: int = 12, min_changed: float = 0.0008) -> ScreenDiff:
    """Compare two screenshots; ``changed`` when more than ``min_changed`` of the cells moved."""
    if before.size != after.size:
        return ScreenDiff(1.0, True)  # rotation or resize: certainly a change
    a = _grey_cells(before, ignore_top)
    b = _grey_cells(after, ignore_top)
    fraction = float(np.mean(np.abs(a - b) > pixel_threshold))
    return ScreenDiff(fraction, fraction > min_changed)


@dataclass
class FailureTracker:
    """Counts failures; ``verdict()`` names the termination reason once a limit is reached."""

    max_repeated_failures: int = 3
    max_consecutive_failures: int = 5
    max_repeated_actions: int = 6
    consecutive_failures: int = 0
    _last_failed: str | None = None
    _failed_repeats: int = 0
    _last_action: str | None = None
    _action_repeats: int = 0
    history: list[tuple[str, bool]] = field(default_factory=list)

    def record(self, action_text: str, failed: bool) -> None:
        """Note one step's action (canonical text) and whether it failed."""
        self.history.append((action_text, failed))
        if action_text == self._last_action:
            self._action_repeats += 1
        else:
            self._last_action, self._action_repeats = action_text, 1
        if failed:
            self.consecutive_failures += 1
            if action_text == self._last_failed:
                self._failed_repeats += 1
            else:
                self._last_failed, self._failed_repeats = action_text, 1
        else:
            self.consecutive_failures = 0
            self._last_failed, self._failed_repeats = None, 0

    def verdict(self) -> str | None:
        """``repeated_failing_action``, ``too_many_failures``, ``repeated_action`` or None (go on)."""
        if self._failed_repeats >= self.max_repeated_failures:
            return "repeated_failing_action"
        if self.consecutive_failures >= self.max_consecutive_failures:
            return "too_many_failures"
        if self._action_repeats >= self.max_repeated_actions:
            return "repeated_action"
        return None
