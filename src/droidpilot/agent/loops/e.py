"""Mobile-Agent-E's loop: manager, perceptor, operator (atomic actions or shortcuts), action reflector,
notetaker, and experience reflectors that update the long-term memory after the task.

Per step: the manager revises the plan and names the current subgoal; the perceptor is droidpilot's
perception list; the operator picks an atomic action or calls a shortcut, which expands into its atomic
actions (each grounded, performed and recorded as usual; a failed precondition or step stops it with
feedback to the operator, never a silent skip); the action reflector judges the outcome (on a wrong page
the loop presses back, as its own recorded action, as v2 does); the notetaker keeps the notes. With a
memory folder and ``evolve``, the tip and shortcut reflectors write a new version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from droidpilot.agent.actions import FINAL_ACTIONS, GRAMMAR_HELP
from droidpilot.agent.brains.base import HistoryEntry
from droidpilot.agent.execute import NO_CHANGE_EXPECTED
from droidpilot.agent.loop import _Run, _Stop
from droidpilot.agent.loops import role_replies
from droidpilot.agent.loops.base import RoleLoop, _texts
from droidpilot.agent.loops.decision import Decision, parse_decision
from droidpilot.agent.loops.experience import learn_from_run
from droidpilot.agent.memory.shortcuts import ShortcutError
from droidpilot.agent.memory.store import Memory, MemoryStore
from droidpilot.agent.prompting import history_text
from droidpilot.agent.prompts import message, render
from droidpilot.agent.recorder import TraceRecorder
from droidpilot.agent.reflection import FailureTracker
from droidpilot.agent.replies import ReplyParseError
from droidpilot.agent.screen import ScreenView


@dataclass
class EState:
    """What E's roles carry from step to step, and the atomic actions done (for the reflectors)."""

    plan: str = ""
    subgoal: str = ""
    notes: str = ""
    error: str = ""
    atomic: list[str] = field(default_factory=list)


class EAgent(RoleLoop):
    """Mobile-Agent-E on droidpilot's device, brains, perception and trace recorder."""

    loop_name = "e"

    def __init__(self, device: Any, brain: Any, *, memory: MemoryStore | None = None, evolve: bool = False,
                 **options: Any) -> None:
        super().__init__(device, brain, **options)
        self.store = memory
        self.evolve = evolve and memory is not None
        self.memory = memory.load() if memory is not None else Memory()
        self.memory_version = self.memory.version
        self.memory_version_after = self.memory.version

    def run(self, instruction: str) -> Any:
        self.state = EState()
        return super().run(instruction)

    def _settings(self) -> dict[str, Any]:
        return {**super()._settings(), "memory": str(self.store.folder) if self.store else None,
                "memory_version": self.memory_version, "evolve": self.evolve}

    def _step_body(self, run: _Run, screen: ScreenView, tracker: FailureTracker,
                   recorder: TraceRecorder | None, record: dict[str, Any]) -> tuple[ScreenView, bool]:
        t0, perception0 = dict(run.timings), screen.perception_s
        record.update(loop=self.loop_name, memory_version=self.memory_version)
        self._manage(run, screen, record)
        items, listing = self._perceive(screen, record)
        self._code_role(record, "perceptor", {"elements": len(items)}, "droidpilot's OCR and icon proposals")
        feedback = f"{message('feedback_header', self.language)}\n{run.feedback}" if run.feedback else ""
        prompt = render("role_operator", self.language, instruction=run.instruction,
                        subgoal=self.state.subgoal or "-", notes=self.state.notes or "-", feedback=feedback,
                        perception=listing, shortcuts=self.memory.shortcuts_text(),
                        tips=self.memory.tips_text(), grammar=GRAMMAR_HELP)
        run.feedback = ""
        try:
            decision: Decision = self._role_call(
                run, "operator", prompt, screen, record,
                lambda r: parse_decision(r, items, self.language, shortcuts=True), kind="operate")
        except ReplyParseError as exc:
            run.feedback = message("parse_error", self.language, error=str(exc))
            record.update(error=str(exc), outcome="parse_error")
            tracker.record("<unparseable>", failed=True)
            return self._finish_step(run, record, screen, screen, t0, perception0, recorder), False
        record.update(observation=decision.observation, thought=decision.thought, prompt=prompt,
                      reply_format=decision.format)
        run.last_thought = decision.thought or run.last_thought
        if decision.shortcut is not None:
            text = "shortcut {}({})".format(decision.shortcut[0],
                                            ", ".join(f"{k}={v}" for k, v in decision.shortcut[1].items()))
            record["action"] = {"name": "shortcut", "text": text}
            after, status = self._shortcut(run, decision, screen, record, recorder)
        else:
            assert decision.action is not None
            action = decision.action
            record["action"] = action.to_dict()
            if action.name in FINAL_ACTIONS:
                return self._final(run, action, decision.thought, screen, record, tracker, recorder, t0,
                                   perception0)
            text = action.format()
            after, status = self._execute(run, action, decision.element, decision.thought, screen, record,
                                          recorder)
            if status == "ok":
                self.state.atomic.append(text)
        if status != "ok":
            record["outcome"] = status
            self.state.error = run.feedback
            tracker.record(text, failed=True)
            run.history.append(HistoryEntry(run.steps, text, decision.thought, decision.observation, status))
            return self._finish_step(run, record, screen, after, t0, perception0, recorder), False
        expect_change = decision.action is None or decision.action.name not in NO_CHANGE_EXPECTED
        letter, error = self._reflect(run, "reflector", text, expect_change, decision.thought, screen, after,
                                      record)
        if letter == "B":  # as v2 does: leave the wrong page before the operator decides again
            after = self._go_back(run, after, record, recorder)
            run.feedback = message("wrong_page", self.language, action=text, error=error or "-")
        elif letter == "C":
            run.feedback = message("no_change_role", self.language, action=text, error=error or "-")
        self.state.error = run.feedback
        record["outcome"] = {"A": "ok", "B": "wrong_page", "C": "unchanged"}[letter]
        tracker.record(text, failed=letter != "A")
        result = {"A": message("result_ok", self.language), "B": "wrong page, went back",
                  "C": message("result_unchanged", self.language)}[letter]
        run.history.append(HistoryEntry(run.steps, text, decision.thought, decision.observation, result,
                                        record["reflection"].get("changed_fraction")))
        self._take_notes(run, after, record)
        return self._finish_step(run, record, screen, after, t0, perception0, recorder), False

    # -- roles --------------------------------------------------------------------------------------
    def _manage(self, run: _Run, screen: ScreenView, record: dict[str, Any]) -> None:
        if not self.role_by_model("manager"):
            if not self.state.subgoal:
                self.state.plan = self.state.subgoal = run.instruction
            self._code_role(record, "manager", {"plan": self.state.plan, "subgoal": self.state.subgoal},
                            "the brain reads no role prompts; the instruction is the one subgoal")
            return
        prompt = render("role_manager", self.language, instruction=run.instruction,
                        plan=self.state.plan or "-",
                        history=history_text(run.history, self.language), notes=self.state.notes or "-",
                        error=self.state.error or "-", tips=self.memory.tips_text())

        def parse(reply: Any) -> dict[str, str]:
            subgoal = role_replies.require(reply.text, "subgoal", "Subgoal: open the Notes app")
            plan = role_replies.fields(reply.text).get("plan") or self.state.plan
            return {"plan": plan, "subgoal": subgoal}

        try:
            answer = self._role_call(run, "manager", prompt, screen, record, parse)
        except ReplyParseError:  # the plan so far stands; the entry records both unreadable replies
            return
        self.state.plan, self.state.subgoal = answer["plan"], answer["subgoal"]
        record["subgoal"] = self.state.subgoal

    def _take_notes(self, run: _Run, screen: ScreenView, record: dict[str, Any]) -> None:
        if not self.role_by_model("notetaker"):
            self._code_role(record, "notetaker", self.state.notes, "the brain reads no role prompts")
            return
        prompt = render("role_notetaker", self.language, instruction=run.instruction,
                        subgoal=self.state.subgoal or "-", notes=self.state.notes or "-",
                        screen=_texts(screen))
        try:
            notes = self._role_call(run, "notetaker", prompt, screen, record,
                                    lambda r: role_replies.require(r.text, "notes", "Notes: None"))
        except ReplyParseError:
            return
        self.state.notes = role_replies.none_if_empty(notes)
        record["notes"] = self.state.notes

    # -- shortcuts ----------------------------------------------------------------------------------
    def _shortcut(self, run: _Run, decision: Decision, screen: ScreenView, record: dict[str, Any],
                  recorder: TraceRecorder | None) -> tuple[ScreenView, str]:
        """Expand and run a shortcut call; (screen after, ok | shortcut_<why>) with feedback on failure."""
        assert decision.shortcut is not None
        name, args = decision.shortcut
        info: dict[str, Any] = {"name": name, "args": args, "steps": []}
        record["shortcut"] = info
        shortcut = self.memory.shortcuts.get(name)
        if shortcut is None:
            run.feedback = message("shortcut_unknown", self.language, name=name,
                                   known=", ".join(self.memory.shortcuts) or "(none)")
            return screen, "shortcut_unknown"
        try:
            actions = shortcut.expand(args)
        except ShortcutError as exc:
            run.feedback = message("shortcut_bad_call", self.language, call=record["action"]["text"],
                                   error=exc)
            return screen, "shortcut_bad_call"
        wanted = shortcut.precondition.get("screen_shows")
        if wanted and not any(wanted.lower() in ln.text.lower() for ln in screen.lines()):
            condition = f"the screen does not show \"{wanted}\""
            info["precondition"] = {"screen_shows": wanted, "holds": False}
            run.feedback = message("shortcut_precondition", self.language, name=name, condition=condition)
            return screen, "shortcut_precondition_failed"
        current = screen
        for index, action in enumerate(actions, 1):
            step: dict[str, Any] = {"index": index, "action": action.format()}
            info["steps"].append(step)
            after, status = self._execute(run, action, None, f"shortcut {name}, step {index}", current,
                                          record, recorder)
            step["status"] = status
            if status != "ok":
                run.feedback = message("shortcut_step_failed", self.language, name=name, index=index,
                                       action=action.format(), error=run.feedback)
                return after, "shortcut_step_failed"
            step["frame"] = record["frames"][-1] if record.get("frames") else None
            self.state.atomic.append(action.format())
            current = after
        return current, "ok"

    # -- after the task -----------------------------------------------------------------------------
    def _wrap_up(self, run: _Run, screen: ScreenView | None, reason: str,
                 recorder: TraceRecorder | None) -> None:
        """With ``evolve``: the experience reflectors update the memory (a new version in the folder)."""
        if not self.evolve or screen is None or self.store is None:
            return
        record: dict[str, Any] = {"phase": "experience", "loop": self.loop_name,
                                  "memory_version_before": self.memory_version}
        try:
            updated = learn_from_run(self, run, screen, reason, record)
        except _Stop as stop:  # out of model calls or time: the memory stays as it was, and says why
            record["error"] = f"experience reflection not done: {stop.reason}"
            updated = None
        if updated is not None:
            saved = self.store.save(updated)
            self.memory_version_after = saved.version
            record["memory_version_after"] = saved.version
        if recorder:
            recorder.append_step(record)
