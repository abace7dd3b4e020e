"""The agent loop: screenshot -> brain -> parse -> ground -> act -> reflect -> record, until it ends.

``Agent(device, brain).run(instruction)`` returns a RunResult whose ``termination`` always names why the
run ended (completed, max_steps, max_model_calls, time_budget, repeated_failing_action, too_many_failures,
repeated_action, brain_error, device_error, interrupted, stopped). Each step is written to the trace as it
happens. A ``checkpoint`` callable, called before every step, lets a driver (the studio) pause the run while
a person operates the phone, or stop it by raising ``StopRequested``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from droidpilot.agent.actions import FINAL_ACTIONS, Action
from droidpilot.agent.brains.base import Brain, BrainError, BrainReply, BrainRequest, HistoryEntry
from droidpilot.agent.coords import CoordFrame, fit_size
from droidpilot.agent.execute import NO_CHANGE_EXPECTED, perform, trace_entries
from droidpilot.agent.frame_jpeg import JPEG_QUALITY
from droidpilot.agent.grounding import Grounder, Grounding
from droidpilot.agent.launcher import seek_if_missed
from droidpilot.agent.outcome import Limits, RunResult, StopRequested, _Run, _Stop
from droidpilot.agent.prompting import choice_prompt, completion_prompt, operation_prompt
from droidpilot.agent.prompts import check_language, message
from droidpilot.agent.recorder import TraceRecorder
from droidpilot.agent.reflection import FailureTracker, screen_diff
from droidpilot.agent.replies import REPLY_GRAMMAR, ParsedReply, ReplyParseError, parse_reply
from droidpilot.agent.response import parse_choice, parse_completion
from droidpilot.agent.screen import ScreenView
from droidpilot.device.base import Device, DeviceError
from droidpilot.errors import InputError

__all__ = ["Agent", "Limits", "RunResult", "StopRequested"]


class Agent:
    """A Mobile-Agent-style agent on ``device`` deciding with ``brain``; traces go to ``out_dir``."""

    def __init__(self, device: Device, brain: Brain, *, ocr_engine: Any | None = None,
                 out_dir: str | Path | None = None, limits: Limits | None = None, language: str = "en",
                 settle_s: float = 0.0, check_completion: bool = True, record_xml: bool = True,
                 image_max_side: int | None = None, app_name: str = "",
                 on_step: Callable[[dict[str, Any]], None] | None = None,
                 checkpoint: Callable[[], bool] | None = None) -> None:
        self.device = device
        self.brain = brain
        self.ocr_engine = ocr_engine
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.limits = limits or Limits()
        self.language = check_language(language)
        self.settle_s = settle_s
        self.check_completion = check_completion
        self.record_xml = record_xml
        self.image_max_side = image_max_side or getattr(brain, "image_max_side", None)
        self.app_name = app_name
        self.on_step = on_step
        self.checkpoint = checkpoint
        self.grounder = Grounder(self.language)
        self.extended = getattr(brain, "extended_actions", True)
        self._recorder: TraceRecorder | None = None
        self._manual_steps = 0

    # -- public ----------------------------------------------------------------------------------
    def run(self, instruction: str) -> RunResult:
        """Run the loop for ``instruction`` until the brain is done or a limit ends it."""
        if not instruction.strip():
            raise InputError("the instruction is empty; say what the agent should do")
        if self.ocr_engine is None:
            from droidpilot.perception.ocr import make_ocr_engine

            self.ocr_engine = make_ocr_engine("rapidocr")
        run = _Run(instruction, time.monotonic())
        recorder = TraceRecorder(self.out_dir, instruction, self.app_name) if self.out_dir else None
        self._recorder, self._manual_steps = recorder, 0
        tracker = FailureTracker(self.limits.max_repeated_failures, self.limits.max_consecutive_failures,
                                 self.limits.max_repeated_actions)
        if recorder:
            recorder.write_run({"instruction": instruction, "status": "running",
                                "device": self._device_info(),
                                "brain": {"name": self.brain.name, **self.brain.describe()},
                                "settings": self._settings(), "started_at": time.time()})
        screen: ScreenView | None = None
        reason, error, completed = "", "", False
        try:
            screen = self._capture(run)
            while True:
                self._check_limits(run)
                if self._paused():  # someone else operated the phone meanwhile: look again
                    screen = self._capture(run)
                screen, completed = self._step(run, screen, tracker, recorder)
                if completed:
                    reason = "completed"
                    break
                verdict = tracker.verdict()
                if verdict:
                    raise _Stop(verdict)
        except _Stop as stop:
            reason, error = stop.reason, stop.error
        except KeyboardInterrupt:
            reason, error = "interrupted", "interrupted by the user"
        self._wrap_up(run, screen, reason, recorder)
        result = RunResult(reason, completed, run.steps, run.actions, run.model_calls, run.prompt_tokens,
                           run.completion_tokens, time.monotonic() - run.started, run.timings,
                           recorder.folder if recorder else None, self._final_state(), error, run.answer)
        if recorder:
            recorder.finish(screen.for_trace() if screen else None, screen.xml if screen else None,
                            run.last_thought, reason, {"status": "finished", "termination": reason,
                                                       "result": result.to_dict(), "final_state":
                                                       result.final_state, "finished_at": time.time()})
        return result

    # -- one step --------------------------------------------------------------------------------
    def _step(self, run: _Run, screen: ScreenView, tracker: FailureTracker,
              recorder: TraceRecorder | None) -> tuple[ScreenView, bool]:
        run.steps += 1
        record: dict[str, Any] = {"step": run.steps, "screen_before": screen.hash,
                                  "feedback_given": run.feedback}
        try:
            return self._step_body(run, screen, tracker, recorder, record)
        except _Stop as stop:  # the step that ended the run is logged too
            record.update(termination=stop.reason, error=stop.error or record.get("error", ""))
            if recorder:
                recorder.append_step(record)
            raise

    def _step_body(self, run: _Run, screen: ScreenView, tracker: FailureTracker,
                   recorder: TraceRecorder | None, record: dict[str, Any]) -> tuple[ScreenView, bool]:
        t0 = {k: v for k, v in run.timings.items()}
        perception0 = screen.perception_s
        prompt = operation_prompt(run.instruction, run.history, run.feedback, self.language, self.extended,
                                  self.brain.coord_space)
        reply = self._ask(run, "operate", prompt, screen, record)
        record.update(prompt=prompt, response=reply.text)
        if reply.tool_calls:
            record["tool_calls"] = reply.tool_calls
        run.feedback = ""
        next_screen, completed = screen, False
        try:
            parsed = self._read_reply(run, prompt, reply, screen, record)
        except ReplyParseError as exc:
            run.feedback = message("parse_error", self.language, error=str(exc))
            record.update(error=str(exc), outcome="parse_error")
            tracker.record("<unparseable>", failed=True)
            return self._finish_step(run, record, screen, screen, t0, perception0, recorder), False
        record.update(observation=parsed.observation, thought=parsed.thought, reply_format=parsed.format)
        run.last_thought = parsed.thought or run.last_thought
        action = parsed.action
        record["action"] = action.to_dict()
        if action.name == "answer":  # the reply is recorded as a frame of its own, then the run stops
            run.answer = action.text
            if recorder:
                entry = {"type": "answer", "text": action.text, "status": "ok"}
                function = {"name": "answer", "parameters": {"text": action.text}}
                record["frame"] = recorder.record_frame(screen.for_trace(), screen.xml, entry, parsed.thought,
                                                        function)
        if action.name in FINAL_ACTIONS:
            completed = self._confirm_stop(run, screen, record)
            tracker.record("stop", failed=not completed)
            if not completed:
                run.history.append(HistoryEntry(run.steps, action.format(), parsed.thought,
                                                parsed.observation, "not completed"))
        else:
            next_screen = self._act(run, action, parsed.thought, parsed.observation, screen, record,
                                    tracker, recorder)
        return self._finish_step(run, record, screen, next_screen, t0, perception0, recorder), completed

    def _read_reply(self, run: _Run, prompt: str, reply: BrainReply, screen: ScreenView,
                    record: dict[str, Any]) -> ParsedReply:
        """Parse the answer; an unreadable one gets one corrective re-prompt quoting the grammar."""
        try:
            return parse_reply(reply.text, reply.tool_calls)
        except ReplyParseError as exc:
            first = str(exc)
        again = prompt + "\n\n" + message("reprompt", self.language, error=first.rstrip(". "),
                                         grammar=REPLY_GRAMMAR)
        retry = self._ask(run, "operate", again, screen, record)
        record["reprompt"] = {"error": first, "prompt": again, "response": retry.text,
                              **({"tool_calls": retry.tool_calls} if retry.tool_calls else {})}
        try:
            return parse_reply(retry.text, retry.tool_calls)
        except ReplyParseError as exc:
            raise ReplyParseError(f"{exc} (and before the re-prompt: {first})") from None

    def _act(self, run: _Run, action: Action, thought: str, observation: str, screen: ScreenView,
             record: dict[str, Any], tracker: FailureTracker, recorder: TraceRecorder | None) -> ScreenView:
        frame = CoordFrame(self.brain.coord_space, screen.size,
                           fit_size(screen.size, self.image_max_side) if self.image_max_side else screen.size)
        grounding = self.grounder.ground(action, screen, frame, context=f"{thought}\n{observation}")
        grounding, screen = self._seek(run, action, grounding, screen, record)
        if grounding.status == "ambiguous":
            self._choose(run, action, grounding, screen, record)
        record["grounding"] = grounding.to_dict()
        text = action.format()
        if not grounding.ok:
            run.feedback = grounding.message
            record["outcome"] = f"grounding_{grounding.status}"
            tracker.record(text, failed=True)
            run.history.append(HistoryEntry(run.steps, text, thought, observation, grounding.status))
            return screen
        start = time.perf_counter()
        try:
            perform(self.device, action, grounding)
            if self.settle_s:
                time.sleep(self.settle_s)
        except DeviceError as exc:
            run.timings["device"] += time.perf_counter() - start
            run.feedback = message("device_error", self.language, action=text, error=str(exc))
            record.update(outcome="device_error", error=str(exc))
            tracker.record(text, failed=True)
            run.history.append(HistoryEntry(run.steps, text, thought, observation, "device error"))
            return screen
        except Exception as exc:  # a broken device backend ends the run; the trace so far is kept
            detail = f"{type(exc).__name__}: {exc}"
            record.update(outcome="device_error", error=detail)
            raise _Stop("device_error", f"the device failed on {text!r}: {detail}") from None
        run.timings["device"] += time.perf_counter() - start
        run.actions += 1
        if recorder:  # recorded as soon as it is done, before anything else can fail
            entry, function = trace_entries(action, grounding)
            record["frame"] = recorder.record_frame(screen.for_trace(), screen.xml, entry, thought, function)
        after = self._capture(run)
        diff = screen_diff(screen.image, after.image)
        failed = not diff.changed and action.name not in NO_CHANGE_EXPECTED
        record.update(reflection={**diff.to_dict(), "failed": failed},
                      outcome="unchanged" if failed else "ok")
        if failed:
            run.feedback = message("unchanged", self.language, action=text)
        tracker.record(text, failed=failed)
        result = message("result_unchanged" if failed else "result_ok", self.language)
        run.history.append(HistoryEntry(run.steps, text, thought, observation, result,
                                        round(diff.changed_fraction, 5)))
        return after

    def _seek(self, run: _Run, action: Action, grounding: Grounding, screen: ScreenView,
              record: dict[str, Any]) -> tuple[Grounding, ScreenView]:
        """An ``open App`` not on this screen is looked for through the launcher (``agent.launcher``)."""
        start = time.perf_counter()
        grounding, screen, moves = seek_if_missed(self.device, action, grounding, screen, self.grounder,
                                                  self.ocr_engine, record_xml=self.record_xml)
        if moves:
            run.timings["device"] += time.perf_counter() - start
            record["launcher_moves"] = moves
        return grounding, screen

    def _choose(self, run: _Run, action: Action, grounding: Grounding, screen: ScreenView,
                record: dict[str, Any]) -> None:
        """Mobile-Agent's 2-4 case: show the numbered crops and let the brain pick one."""
        cands = grounding.candidates
        descriptions = [c.text or c.description or f"box {list(c.box)}" for c in cands]
        prompt = choice_prompt(run.instruction, action.format(), descriptions, self.language)
        crops = [c.crop if c.crop is not None else screen.image.crop(c.box) for c in cands]
        reply = self._ask(run, "choose", prompt, screen, record, images=crops,
                          choices=[c.to_dict() for c in cands], target=grounding.target)
        number = parse_choice(reply.text, len(cands))
        record["choice"] = {"prompt": prompt, "response": reply.text, "number": number}
        if number is None:
            number = 1
            grounding.choice_note = message("choice_invalid", self.language, answer=reply.text.strip()[:80],
                                            count=len(cands))
        grounding.choose(number)

    def _confirm_stop(self, run: _Run, screen: ScreenView, record: dict[str, Any]) -> bool:
        if not self.check_completion:
            return True
        prompt = completion_prompt(run.instruction, run.history, self.language)
        reply = self._ask(run, "complete", prompt, screen, record)
        answer = parse_completion(reply.text)
        # An answer that is neither yes nor no leaves the brain's own "stop" standing.
        done = answer.done is not False
        record["completion_check"] = {"prompt": prompt, "response": reply.text, "done": answer.done,
                                      "reason": answer.reason}
        record["outcome"] = "completed" if done else "not_completed"
        if not done:
            run.feedback = message("not_completed", self.language, reason=answer.reason or "-")
        return done

    def _wrap_up(self, run: _Run, screen: ScreenView | None, reason: str,
                 recorder: TraceRecorder | None) -> None:
        """After the last step, before the result is made: nothing in v1 (E learns from the run here)."""

    # -- helpers ---------------------------------------------------------------------------------
    def _ask(self, run: _Run, kind: str, prompt: str, screen: ScreenView, record: dict[str, Any],
             *, brain: Brain | None = None, role: str = "", **extra: Any) -> BrainReply:
        """One model call, counted against the limits; ``brain`` and ``role`` are the v2/E loops' (a role
        may have its own model)."""
        if run.model_calls >= self.limits.max_model_calls:
            raise _Stop("max_model_calls")
        request = BrainRequest(kind=kind, instruction=run.instruction, prompt=prompt,  # type: ignore[arg-type]
                               screen=screen, step=run.steps, history=list(run.history),
                               feedback=run.feedback, language=self.language, role=role, **extra)
        perception0 = screen.perception_s
        start = time.perf_counter()
        try:
            reply = (brain or self.brain).decide(request)
        except BrainError as exc:
            record["error"] = str(exc)
            raise _Stop("brain_error", str(exc)) from None
        elapsed = time.perf_counter() - start
        run.timings["model"] += max(0.0, elapsed - (screen.perception_s - perception0))
        run.model_calls += max(1, reply.model_calls)
        run.prompt_tokens += reply.prompt_tokens
        run.completion_tokens += reply.completion_tokens
        record.setdefault("calls", []).append({"kind": kind, **({"role": role} if role else {}),
                                               **reply.usage()})
        return reply

    def _capture(self, run: _Run) -> ScreenView:
        start = time.perf_counter()
        try:
            image = self.device.screenshot()
            xml = None
            if self.record_xml:
                try:
                    xml = self.device.ui_xml()
                except DeviceError:
                    xml = None
        except Exception as exc:  # DeviceError, or a broken backend: either way the run cannot go on
            run.timings["device"] += time.perf_counter() - start
            detail = str(exc) if isinstance(exc, DeviceError) else f"{type(exc).__name__}: {exc}"
            raise _Stop("device_error", f"cannot take a screenshot: {detail}") from None
        run.timings["device"] += time.perf_counter() - start
        return ScreenView(image, self.ocr_engine, xml, frame_quality=JPEG_QUALITY)

    def _finish_step(self, run: _Run, record: dict[str, Any], screen: ScreenView, after: ScreenView,
                     t0: dict[str, float], perception0: float, recorder: TraceRecorder | None) -> ScreenView:
        run.timings["perception"] += screen.perception_s - perception0
        record["screen_after"] = after.hash
        record["timings"] = {k: round(run.timings[k] - t0[k], 4) for k in run.timings}
        record["feedback_next"] = run.feedback
        if recorder:
            recorder.append_step(record)
        if self.on_step:
            self.on_step(record)
        return after

    def record_manual(self, image: Any, xml: str | None, action: dict[str, Any],
                      function: dict[str, Any]) -> int | None:
        """Write a person's operation (made while the run is paused) into the run's trace as its own frame,
        so the trace shows everything that happened to the phone; the frame index, or None without one."""
        recorder = self._recorder
        if recorder is None or recorder.finished:
            return None
        frame = recorder.record_frame(image, xml, action, "operated by a person (run paused)", function)
        self._manual_steps += 1
        recorder.append_step({"manual": self._manual_steps, "frame": frame, "by": "person",
                              "action": {"name": function.get("name", ""),
                                         "text": function.get("parameters", {}).get("action", "")}})
        return frame

    def _paused(self) -> bool:
        """Call the checkpoint: True when the run was paused (the screen may have changed)."""
        if self.checkpoint is None:
            return False
        try:
            return bool(self.checkpoint())
        except StopRequested as exc:
            raise _Stop("stopped", str(exc) or "stopped by the user") from None

    def _check_limits(self, run: _Run) -> None:
        if run.steps >= self.limits.max_steps:
            raise _Stop("max_steps")
        if run.model_calls >= self.limits.max_model_calls:
            raise _Stop("max_model_calls")
        if time.monotonic() - run.started > self.limits.time_budget_s:
            raise _Stop("time_budget")

    def _device_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"serial": getattr(self.device, "serial", ""),
                                "type": type(self.device).__name__}
        with contextlib.suppress(DeviceError):
            info["size"] = list(self.device.size())
        return info

    def _settings(self) -> dict[str, Any]:
        return {"limits": vars(self.limits), "language": self.language, "settle_s": self.settle_s,
                "check_completion": self.check_completion, "image_max_side": self.image_max_side,
                "coord_space": self.brain.coord_space}

    def _final_state(self) -> dict[str, Any] | None:
        state = getattr(self.device, "state", None)
        if not callable(state):
            return None
        try:
            value = state()
        except Exception:  # a state oracle failure must not lose the trace
            return None
        return value if isinstance(value, dict) else None
