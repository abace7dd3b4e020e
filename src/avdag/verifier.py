"""``avdag.verifier``: verify frames (MobiFlow frame dicts or Frames) or a trace folder against a rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from droidpilot.verify.engine import verify as _verify
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.result import VerifyResult
from droidpilot.verify.rule import Task
from droidpilot.verify.spec import load_rule
from droidpilot.verify.trace import load_trace


def verify(frames: Sequence[Frame | Mapping[str, Any]], task: Task,
           options: VerifierOptions | None = None) -> VerifyResult:
    """Judge ``frames`` (index = position) against ``task``; see droidpilot.verify.engine.verify."""
    return _verify(task, frames, options)


def verify_task_folder(rule: str | Path | Task, folder: str | Path,
                       options: VerifierOptions | None = None) -> VerifyResult:
    """Load the rule (a path or a Task) and the trace (a runner folder or JSON frame list), then verify."""
    task = rule if isinstance(rule, Task) else load_rule(rule)
    return _verify(task, load_trace(folder), options)


__all__ = ["VerifyResult", "verify", "verify_task_folder"]
