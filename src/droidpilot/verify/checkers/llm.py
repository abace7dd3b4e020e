"""The ``llm`` checker: a multimodal model judges the step from its screenshots and the node's prompt.

It sends the frame's screenshot (and the next frame's, to show the step's effect), the task
description and the node's ``prompt`` to ``options.llm_judge`` (a ``droidpilot.llm.LlmJudge`` or any
object with the same ``ask`` method), or else calls a MobiFlow-style ``options.llm(ctx)``. The model's
yes is compared with ``expected_true`` (default true). No judge, an unreachable service or an answer
that cannot be read is undecided, never no.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.errors import DroidpilotError
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Param, Verdict, register_condition
from droidpilot.verify.placeholders import fill_placeholders

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions

NOT_CONFIGURED = ("no LLM configured: pass --llm-base-url and --llm-model (or set DROIDPILOT_LLM_BASE_URL / "
                  "DROIDPILOT_LLM_MODEL), or give VerifierOptions.llm_judge or .llm")
_ACTION_CHARS = 400


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def describe_action(action: Any) -> str:
    """The frame's action as compact JSON for the prompt ("" when there is none)."""
    if not action:
        return ""
    try:
        text = json.dumps(action, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        text = str(action)
    return text if len(text) <= _ACTION_CHARS else text[:_ACTION_CHARS] + "..."


@register_condition("llm")
class LlmCheck(ConditionChecker):
    """Ask a model whether the node's ``prompt`` holds for this step; ``expected_true: false`` inverts."""

    reads = "screen"
    cost = 100
    params_spec: ClassVar[Mapping[str, Param] | None] = {
        "prompt": Param("str", required=True, help="the yes/no question about this step; "
                                                   "{task_description} is filled from the trace"),
        "expected_true": Param("bool", help="the answer that makes the node hold (default true)"),
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        prompt = params.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            return ["llm needs a non-empty 'prompt': the yes/no question to ask about the step"]
        return []

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        task = str(getattr(frame, "task_description", "") or "")
        prompt = fill_placeholders(str(params.get("prompt") or "").strip(), task)
        expected = bool(params.get("expected_true", True))
        if not prompt:
            return self._result(Verdict.UNDECIDED, "the node's llm condition has no prompt", prompt, expected)
        judge = getattr(options, "llm_judge", None) if options is not None else None
        if judge is not None:
            return self._ask_judge(judge, frame, prompt, task, expected)
        legacy = getattr(options, "llm", None) if options is not None else None
        if legacy is not None:
            return self._ask_callable(legacy, frame, params, options, prompt, expected)
        return self._result(Verdict.UNDECIDED, NOT_CONFIGURED, prompt, expected)

    # -- sources of answers ----------------------------------------------------------------------
    def _ask_judge(self, judge: Any, frame: Frame, prompt: str, task: str, expected: bool) -> CheckResult:
        if not frame.has_image():
            return self._result(Verdict.UNDECIDED, f"frame {frame.index} has no screenshot to show the LLM",
                                prompt, expected)
        try:
            images = [frame.image_bytes()]
            following = frame.next_frame
            if following is not None and following.has_image():
                images.append(following.image_bytes())
            judgement = judge.ask(prompt, images, task_description=task,
                                  action=describe_action(frame.action))
        except DroidpilotError as exc:
            return self._result(Verdict.UNDECIDED, f"cannot ask the LLM: {exc}", prompt, expected)
        details = dict(judgement.to_details()) if hasattr(judgement, "to_details") else {}
        details["images"] = len(images)
        answer = judgement.answer
        if answer is None:
            return self._result(Verdict.UNDECIDED, str(judgement.reason), prompt, expected, details)
        return self._decided(bool(answer), str(judgement.reason), prompt, expected, details)

    def _ask_callable(self, llm: Any, frame: Frame, params: dict[str, Any], options: VerifierOptions | None,
                      prompt: str, expected: bool) -> CheckResult:
        ctx = {"frame": frame, "params": {**params, "prompt": prompt}, "options": options}
        try:
            answer = llm(ctx)
        except Exception as exc:  # a user's callable failing is surfaced, not fatal
            return self._result(Verdict.UNDECIDED, f"options.llm raised {type(exc).__name__}: {exc}",
                                prompt, expected)
        if answer is None:
            return self._result(Verdict.UNDECIDED, "options.llm could not tell (returned None)", prompt,
                                expected)
        if not isinstance(answer, (bool, int)):
            return self._result(Verdict.UNDECIDED, f"options.llm returned {type(answer).__name__}, "
                                                   "expected True, False or None", prompt, expected)
        return self._decided(bool(answer), "answer of options.llm", prompt, expected, {"source": "callable"})

    # -- results ---------------------------------------------------------------------------------
    def _decided(self, answer: bool, why: str, prompt: str, expected: bool,
                 details: dict[str, Any]) -> CheckResult:
        verdict = Verdict.YES if answer == expected else Verdict.NO
        reason = f'the LLM answered "{_yes_no(answer)}" (node holds on "{_yes_no(expected)}")'
        if why:
            reason = f"{reason}: {why}"
        return self._result(verdict, reason, prompt, expected, details)

    def _result(self, verdict: Verdict, reason: str, prompt: str, expected: bool,
                details: dict[str, Any] | None = None) -> CheckResult:
        info = {"prompt": prompt, "expected_true": expected, **(details or {})}
        return CheckResult(verdict, self.name, self.reads, reason=reason, details=info)
