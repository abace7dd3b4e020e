"""Options of a verification run, compatible with MobiFlow's ``VerifierOptions``.

``ocr`` and ``llm`` may be plain callables as in MobiFlow (``ocr(frame) -> str``,
``llm({"frame", "params", "options"}) -> bool | None``); the perception layer supplies richer engines
through ``ocr_engine`` / ``llm_judge``. A capability that is absent makes its checks undecided.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.verify.checkers.base import DEFAULT_ESCALATION_ORDER


@dataclass
class VerifierOptions:
    escalation_order: list[str] = field(default_factory=lambda: list(DEFAULT_ESCALATION_ORDER))
    # MobiFlow-style callables: ocr(frame) -> the screen's text; llm(ctx) -> True / False / None.
    ocr: Callable[[Any], str | None] | None = None
    llm: Callable[[dict[str, Any]], bool | None] | None = None
    # droidpilot engines (perception): an OcrEngine, a judge object for the llm checker.
    ocr_engine: Any = None
    llm_judge: Any = None
    # Where icon templates are looked up, besides the rule's own folder (searched recursively).
    icons_dirs: list[Path] = field(default_factory=list)
    icons_threshold: float = 0.8
    # Set by the engine from the rule being verified: icon names resolve next to the rule and by app.
    rule_dir: Path | None = None
    app_id: str = ""
    log_decisions: bool = True
    force_llm_verification: bool = False
    # Fields MobiFlow accepts; kept so its scripts run, and passed to checkers that read them.
    ocr_frame_exclusive: bool = True
    llm_frame_exclusive: bool = True
    prevent_frame_backtrack: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
