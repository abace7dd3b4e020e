"""``avdag.types``: the option, frame, rule and result types, re-exported from droidpilot.verify."""

from __future__ import annotations

from droidpilot.verify.frame import Frame, UiElement
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.result import Match, VerifyResult
from droidpilot.verify.rule import Condition, Node, Success, Task

# MobiFlow's names for the same things.
NodeMatch = Match
TaskSpec = Task
NodeSpec = Node

__all__ = ["Condition", "Frame", "Match", "Node", "NodeMatch", "NodeSpec", "Success", "Task", "TaskSpec",
           "UiElement", "VerifierOptions", "VerifyResult"]
