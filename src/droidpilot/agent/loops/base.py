"""What the v2 and E loops share on top of v1's ``Agent``: role calls (recorded, re-prompted once when
unreadable), the perception list, carrying out one atomic action, and the reflector's verdict.

Every role call is one entry of the step's ``roles`` list in ``steps.jsonl``: role, model, prompt, raw
reply, parsed result, tokens and latency (and the re-prompt, when there was one). A role answered by code
(an offline brain that reads no role prompts) is recorded with ``by: code`` (``by: brain`` otherwise).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from droidpilot.agent.actions import Action
from droidpilot.agent.brains.base import BrainReply, HistoryEntry
from droidpilot.agent.coords import CoordFrame, fit_size
from droidpilot.agent.execute import perform, trace_entries
from droidpilot.agent.grounding import Grounding
from droidpilot.agent.loop import Agent, _Run, _Stop
from droidpilot.agent.loops import role_replies
from droidpilot.agent.loops.perception_list import PerceptionItem, format_list, perception_list
from droidpilot.agent.loops.roles import RoleBrains, answers_roles
from droidpilot.agent.prompts import message
from droidpilot.agent.recorder import TraceRecorder
from droidpilot.agent.reflection import FailureTracker, screen_diff
from droidpilot.agent.replies import ReplyParseError
from droidpilot.agent.screen import ScreenView
from droidpilot.device.base import DeviceError


class RoleLoop(Agent):
    """v1's Agent with roles: subclasses implement ``_step_body`` from the pieces below."""

    loop_name = "role"

    def __init__(self, device: Any, brain: Any, *, roles: RoleBrains | None = None, **options: Any) -> None:
        super().__init__(device, brain, **options)
        self.roles = roles or RoleBrains(brain)

    def _settings(self) -> dict[str, Any]:
        return {**super()._settings(), "loop": self.loop_name, "role_models": self.roles.describe()}

    # -- role calls ---------------------------------------------------------------------------------
    def role_by_model(self, role: str) -> bool:
        """True when a model answers ``role``; False when code does (the brain reads no role prompts)."""
        return answers_roles(self.roles.brain_for(role))

    def _role_call(self, run: _Run, role: str, prompt: str, screen: ScreenView, record: dict[str, Any],
                   parse: Callable[[BrainReply], Any], *, kind: str = "role",
                   images: list[Any] | None = None) -> Any:
        """Ask ``role``, parse its reply; an unreadable reply gets one corrective re-prompt quoting the
        error. ReplyParseError when the second reply is unreadable too (the entry records both)."""
        brain = self.roles.brain_for(role)
        entry: dict[str, Any] = {"role": role, "by": "brain", "model": _model_name(brain), "prompt": prompt}
        record.setdefault("roles", []).append(entry)
        extra = {"images": list(images)} if images else {}
        reply = self._ask(run, kind, prompt, screen, record, brain=brain, role=role, **extra)
        entry.update(reply=reply.text, **reply.usage())
        try:
            parsed = parse(reply)
        except ReplyParseError as exc:
            first = str(exc)
            again = prompt + "\n\n" + message("role_reprompt", self.language, error=first.rstrip(". "))
            retry = self._ask(run, kind, again, screen, record, brain=brain, role=role, **extra)
            entry["reprompt"] = {"error": first, "prompt": again, "reply": retry.text, **retry.usage()}
            try:
                parsed = parse(retry)
            except ReplyParseError as exc2:
                entry["error"] = f"{exc2} (and before the re-prompt: {first})"
                raise ReplyParseError(entry["error"]) from None
        entry["parsed"] = parsed.to_dict() if hasattr(parsed, "to_dict") else parsed
        return parsed

    @staticmethod
    def _code_role(record: dict[str, Any], role: str, parsed: Any, why: str) -> Any:
        record.setdefault("roles", []).append({"role": role, "by": "code", "parsed": parsed, "why": why})
        return parsed

    # -- perception ---------------------------------------------------------------------------------
    def _frame(self, screen: ScreenView) -> CoordFrame:
        return CoordFrame(self.brain.coord_space, screen.size,
                          fit_size(screen.size, self.image_max_side) if self.image_max_side else screen.size)

    def _perceive(self, screen: ScreenView, record: dict[str, Any]) -> tuple[list[PerceptionItem], str]:
        """The numbered list of ``screen`` (recorded in the step) and its text for the prompt."""
        items = perception_list(screen)
        record["perception"] = [item.to_dict() for item in items]
        return items, format_list(items, self._frame(screen))

    # -- acting -------------------------------------------------------------------------------------
    def _execute(self, run: _Run, action: Action, element: PerceptionItem | None, thought: str,
                 screen: ScreenView, record: dict[str, Any], recorder: TraceRecorder | None
                 ) -> tuple[ScreenView, str]:
        """Ground and perform one atomic action and record its frame: (screen after, status), status
        ``ok``, ``grounding_<status>`` or ``device_error`` (``run.feedback`` then says what went wrong)."""
        if element is not None:  # "tap 7": the list element's box, already in device pixels
            grounding = Grounding("direct", point=element.point, box=element.box, target=element.description)
        else:
            grounding = self.grounder.ground(action, screen, self._frame(screen), context=thought)
            grounding, screen = self._seek(run, action, grounding, screen, record)
            if grounding.status == "ambiguous":
                self._choose(run, action, grounding, screen, record)
        record.setdefault("groundings", []).append(grounding.to_dict())
        record.setdefault("grounding", grounding.to_dict())
        if not grounding.ok:
            run.feedback = grounding.message
            return screen, f"grounding_{grounding.status}"
        text = action.format()
        start = time.perf_counter()
        try:
            perform(self.device, action, grounding)
            if self.settle_s:
                time.sleep(self.settle_s)
        except DeviceError as exc:
            run.timings["device"] += time.perf_counter() - start
            run.feedback = message("device_error", self.language, action=text, error=str(exc))
            record["error"] = str(exc)
            return screen, "device_error"
        except Exception as exc:  # a broken device backend ends the run; the trace so far is kept
            detail = f"{type(exc).__name__}: {exc}"
            raise _Stop("device_error", f"the device failed on {text!r}: {detail}") from None
        run.timings["device"] += time.perf_counter() - start
        run.actions += 1
        if recorder:
            entry, function = trace_entries(action, grounding)
            frame = recorder.record_frame(screen.for_trace(), screen.xml, entry, thought, function)
            record.setdefault("frames", []).append(frame)
            record.setdefault("frame", frame)
        return self._capture(run), "ok"

    def _final(self, run: _Run, action: Action, thought: str, screen: ScreenView, record: dict[str, Any],
               tracker: FailureTracker, recorder: TraceRecorder | None, t0: dict[str, float],
               perception0: float) -> tuple[ScreenView, bool]:
        """``stop`` or ``answer``: as in v1, an answer is a frame of its own and the completion check runs."""
        if action.name == "answer":
            run.answer = action.text
            if recorder:
                entry = {"type": "answer", "text": action.text, "status": "ok"}
                function = {"name": "answer", "parameters": {"text": action.text}}
                record["frame"] = recorder.record_frame(screen.for_trace(), screen.xml, entry, thought,
                                                        function)
        completed = self._confirm_stop(run, screen, record)
        tracker.record("stop", failed=not completed)
        if not completed:
            run.history.append(HistoryEntry(run.steps, action.format(), thought, "", "not completed"))
        return self._finish_step(run, record, screen, screen, t0, perception0, recorder), completed

    # -- reflection ---------------------------------------------------------------------------------
    def _reflect(self, run: _Run, role: str, action_text: str, expect_change: bool, thought: str,
                 before: ScreenView, after: ScreenView, record: dict[str, Any]) -> tuple[str, str]:
        """(A | B | C, error) for an executed action: the reflector role compares the two screens; code
        reads the pixel diff when no model answers the role (or its reply stays unreadable)."""
        diff = screen_diff(before.image, after.image)
        record["reflection"] = diff.to_dict()
        code_letter = "A" if diff.changed or not expect_change else "C"
        if not self.role_by_model(role):
            self._code_role(record, role, {"outcome": code_letter, "error": ""},
                            "the brain reads no role prompts; the screen diff decides")
            letter, error = code_letter, ""
        else:
            from droidpilot.agent.prompts import render

            prompt = render("role_reflector", self.language, instruction=run.instruction, action=action_text,
                            thought=thought or "-", before=_texts(before), after=_texts(after))
            try:
                letter, error = self._role_call(run, role, prompt, before, record,
                                                lambda r: role_replies.outcome(r.text),
                                                images=[after.image])
            except ReplyParseError as exc:
                letter, error = code_letter, ""
                record["roles"][-1]["fallback"] = {"outcome": code_letter, "why": str(exc)}
        error = role_replies.none_if_empty(error)
        record["reflection"].update(outcome=letter, meaning=role_replies.OUTCOMES[letter], error=error,
                                    failed=letter != "A")
        return letter, error

    def _go_back(self, run: _Run, screen: ScreenView, record: dict[str, Any],
                 recorder: TraceRecorder | None) -> ScreenView:
        """The reflector said "wrong page": press back, recorded as an action of its own (v2 and E alike)."""
        back = Action("back")
        after, status = self._execute(run, back, None, "the reflector found a wrong page: go back", screen,
                                      record, recorder)
        record["went_back"] = status == "ok"
        return after


def _texts(screen: ScreenView, limit: int = 60) -> str:
    words = [ln.text.strip() for ln in screen.lines() if ln.text.strip()]
    return "; ".join(words[:limit]) or "(no text)"


def _model_name(brain: Any) -> str:
    try:
        described = brain.describe()
    except Exception:  # describing is for the record only
        described = {}
    return str(described.get("model") or brain.name)
