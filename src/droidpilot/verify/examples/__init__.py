"""Bundled examples: a rule and a recorded trace that ``droidpilot demo`` verifies offline."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DEMO = "shop_search"


def example_dir(name: str = DEMO) -> Path:
    """The folder of the bundled example ``name`` (holding ``rule.yaml`` and ``trace/``)."""
    return Path(str(resources.files(__name__) / name))
