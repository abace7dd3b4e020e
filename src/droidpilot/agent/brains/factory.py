"""Build a brain by name (heuristic, openai, replay) from user settings: one factory for every driver.

The CLI's ``droidpilot run`` and the studio's agent panel both call ``make_brain``, so a brain is
configured the same way wherever it is started.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from droidpilot.errors import InputError

BRAINS = ("heuristic", "openai", "replay")


def make_brain(name: str, *, model: str | None = None, base_url: str | None = None,
               responses: Path | None = None, coord_space: str | None = None, image_max_side: int = 1024,
               extended: bool = False) -> Any:
    """The brain called ``name``, configured from user settings (InputError for a bad combination)."""
    if name == "heuristic":
        from droidpilot.agent.brains.heuristic import HeuristicBrain

        return HeuristicBrain()
    if name == "replay":
        from droidpilot.agent.brains.replay import ReplayBrain

        if responses is None:
            raise InputError("--brain replay needs --responses FILE (a JSON list of raw replies)")
        return ReplayBrain(responses, coord_space=coord_space or "device")  # type: ignore[arg-type]
    if name == "openai":
        from droidpilot.agent.brains.openai import OpenAIBrain

        return OpenAIBrain(model=model, base_url=base_url, image_max_side=image_max_side,
                           coord_space=coord_space or "image", extended_actions=extended)  # type: ignore[arg-type]
    raise InputError(f"unknown brain {name!r}; choose one of {', '.join(BRAINS)}")
