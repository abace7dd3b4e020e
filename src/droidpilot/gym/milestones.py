"""The task's milestone rule judged as an episode's trace grows, for a dense reward.

The trace is the one a bench run records (frame i: the screen before action i, and the action), plus a
provisional last frame for the screen now shown. Each step re-runs the verifier's lazy sweep over the
whole timeline, but the verifier's per-(node, frame, event) memo is kept across steps, so only the new
frame's checks run; the entries of the two newest frames are dropped first, since the provisional frame
got its action (and the frame before it a successor checkers may look at). Checks read the UI dump, not
the screenshot: no OCR runs in a step (an OCR-only check stays undecided, which counts as not reached).
Forbidden nodes (``success.none_of``) are no milestones: meeting one makes the episode a failure.
"""

from __future__ import annotations

from typing import Any

from droidpilot.verify.engine import Oracle, prepare_conditions, prepare_options, task_graph
from droidpilot.verify.forbidden import find_breach
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.rule import Task
from droidpilot.verify.search import sweep
from droidpilot.verify.trace_folder import click_target_label, frame_text


class MilestoneJudge:
    """Which milestones of ``rule`` the trace so far reaches; ``observe`` then ``act`` for each step."""

    def __init__(self, rule: Task, instruction: str) -> None:
        self.rule = rule
        self.instruction = instruction
        options = prepare_options(VerifierOptions(log_decisions=False), rule)
        self._conditions = prepare_conditions(rule, instruction)
        self._graph = task_graph(rule, self._conditions)
        self._frames: list[Frame] = []
        self._oracle = Oracle(self._frames, self._conditions, options)
        self.reached: list[str] = []  # milestones reached so far, in the order they were first reached
        self.ok = False

    @property
    def milestones(self) -> list[str]:
        """The nodes that count: those with a condition (pass-through nodes carry no evidence), forbidden
        nodes aside."""
        forbidden = set(self.rule.forbidden())
        return [n.id for n in self.rule.nodes if n.id in self._conditions and n.id not in forbidden]

    def observe(self, xml: str) -> list[str]:
        """The screen now shown (its UI dump) becomes the provisional last frame; newly reached ids."""
        self._frames.append(Frame(index=len(self._frames), xml_text=xml, task_description=self.instruction,
                                  app=self.rule.app_id))
        if len(self._frames) > 1:
            self._frames[-2].next_frame = self._frames[-1]
        return self.rejudge()

    def act(self, entry: dict[str, Any], function: dict[str, Any], reasoning: str = "") -> None:
        """The action taken on the provisional frame (an ``actions.json`` item and its react function)."""
        frame = self._frames[-1]
        name = str(function.get("name") or entry.get("type") or "")
        target = click_target_label(entry, frame.elements()) if entry.get("type") == "click" else ""
        frame.action = dict(entry)
        frame.reasoning = reasoning
        frame.text = frame_text(reasoning, name, function.get("parameters") or {}, entry, target)
        if target:
            frame.extra["click_target"] = target

    def rejudge(self) -> list[str]:
        """Judge the trace as it stands (after ``act`` on the last frame); newly reached ids."""
        stale = len(self._frames) - 2
        memo = self._oracle.memo
        for key in [k for k in memo if k[1] >= stale]:
            del memo[key]
        self._oracle.order = [k for k in self._oracle.order if k[1] < stale]
        outcome = sweep(self._graph, 2 * len(self._frames), self._oracle)
        breach = (find_breach(self._graph, self.rule.forbidden(), 2 * len(self._frames), self._oracle)
                  if outcome.ok else None)
        self.ok = outcome.ok and (breach is None or breach.doubtful)
        known = set(self.reached)
        fresh = [n for n in sorted(outcome.earliest, key=lambda n: (outcome.earliest[n], n))
                 if n in self._conditions and n not in known]
        self.reached.extend(fresh)
        return fresh
