"""Mobile-Agent-v2's loop: a planning agent, a decision agent, a reflection agent and a memory unit.

Per step: the planner updates the task-progress summary from the history (from the second step on); the
decider chooses one operation from the screenshot and the numbered perception list, and may copy "focus
content" into memory; the operation is carried out; the reflector compares the screens before and after
and says A (as intended), B (wrong page: the loop goes back, as its own recorded action) or C (nothing
changed), which becomes the next step's feedback. ``stop`` is confirmed by the completion check as in v1.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from droidpilot.agent.actions import FINAL_ACTIONS, GRAMMAR_HELP
from droidpilot.agent.brains.base import HistoryEntry
from droidpilot.agent.execute import NO_CHANGE_EXPECTED
from droidpilot.agent.loop import _Run
from droidpilot.agent.loops import role_replies
from droidpilot.agent.loops.base import RoleLoop
from droidpilot.agent.loops.decision import Decision, parse_decision
from droidpilot.agent.prompting import history_text
from droidpilot.agent.prompts import message, render
from droidpilot.agent.recorder import TraceRecorder
from droidpilot.agent.reflection import FailureTracker
from droidpilot.agent.replies import ReplyParseError
from droidpilot.agent.screen import ScreenView

MAX_MEMORY = 12  # focus-content entries kept (the oldest are dropped)


@dataclass
class V2State:
    """What v2's roles carry from step to step."""

    progress: str = ""
    memory: list[str] = field(default_factory=list)


class V2Agent(RoleLoop):
    """Mobile-Agent-v2 on droidpilot's device, brains, perception and trace recorder."""

    loop_name = "v2"

    def run(self, instruction: str) -> Any:
        self.state = V2State()
        return super().run(instruction)

    def _step_body(self, run: _Run, screen: ScreenView, tracker: FailureTracker,
                   recorder: TraceRecorder | None, record: dict[str, Any]) -> tuple[ScreenView, bool]:
        t0, perception0 = dict(run.timings), screen.perception_s
        record["loop"] = self.loop_name
        if run.history:
            self._plan(run, screen, record)
        items, listing = self._perceive(screen, record)
        feedback = f"{message('feedback_header', self.language)}\n{run.feedback}" if run.feedback else ""
        prompt = render("role_decider", self.language, instruction=run.instruction,
                        progress=self.state.progress or "-", memory=self._memory_text(), feedback=feedback,
                        perception=listing, grammar=GRAMMAR_HELP)
        run.feedback = ""
        try:
            decision: Decision = self._role_call(run, "decider", prompt, screen, record,
                                                 lambda r: parse_decision(r, items, self.language),
                                                 kind="operate")
        except ReplyParseError as exc:
            run.feedback = message("parse_error", self.language, error=str(exc))
            record.update(error=str(exc), outcome="parse_error")
            tracker.record("<unparseable>", failed=True)
            return self._finish_step(run, record, screen, screen, t0, perception0, recorder), False
        assert decision.action is not None
        action = decision.action
        record.update(observation=decision.observation, thought=decision.thought,
                      reply_format=decision.format, action=action.to_dict(), prompt=prompt)
        run.last_thought = decision.thought or run.last_thought
        focus = role_replies.none_if_empty(decision.extra.get("memory"))
        if focus:
            self.state.memory = [*self.state.memory, focus][-MAX_MEMORY:]
            record["memory"] = list(self.state.memory)
        if action.name in FINAL_ACTIONS:
            return self._final(run, action, decision.thought, screen, record, tracker, recorder, t0,
                               perception0)
        after, status = self._execute(run, action, decision.element, decision.thought, screen, record,
                                      recorder)
        text = action.format()
        if status != "ok":
            record["outcome"] = status
            tracker.record(text, failed=True)
            run.history.append(HistoryEntry(run.steps, text, decision.thought, decision.observation, status))
            return self._finish_step(run, record, screen, screen, t0, perception0, recorder), False
        letter, error = self._reflect(run, "reflector", text, action.name not in NO_CHANGE_EXPECTED,
                                      decision.thought, screen, after, record)
        if letter == "B":
            after = self._go_back(run, after, record, recorder)
            run.feedback = message("wrong_page", self.language, action=text, error=error or "-")
        elif letter == "C":
            run.feedback = message("no_change_role", self.language, action=text, error=error or "-")
        record["outcome"] = {"A": "ok", "B": "wrong_page", "C": "unchanged"}[letter]
        tracker.record(text, failed=letter != "A")
        result = {"A": message("result_ok", self.language), "B": "wrong page, went back",
                  "C": message("result_unchanged", self.language)}[letter]
        run.history.append(HistoryEntry(run.steps, text, decision.thought, decision.observation, result,
                                        record["reflection"].get("changed_fraction")))
        return self._finish_step(run, record, screen, after, t0, perception0, recorder), False

    # -- pieces -------------------------------------------------------------------------------------
    def _plan(self, run: _Run, screen: ScreenView, record: dict[str, Any]) -> None:
        if not self.role_by_model("planner"):
            done = "; ".join(h.action for h in run.history[-6:])
            self.state.progress = self._code_role(record, "planner", f"done so far: {done}",
                                                  "the brain reads no role prompts")
            return
        prompt = render("role_planner", self.language, instruction=run.instruction,
                        history=history_text(run.history, self.language), progress=self.state.progress or "-",
                        memory=self._memory_text())
        # An unreadable summary (twice) leaves the previous one standing; the entry records both replies.
        with contextlib.suppress(ReplyParseError):
            self.state.progress = self._role_call(
                run, "planner", prompt, screen, record,
                lambda r: role_replies.require(r.text, "progress", "Progress: opened Notes; next, type"))
        record["progress"] = self.state.progress

    def _memory_text(self) -> str:
        return "; ".join(self.state.memory) or "-"
