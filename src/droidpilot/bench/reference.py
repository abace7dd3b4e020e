"""The ``reference`` brain: replays a task's reference operations through the normal agent loop.

Each operation is answered as ``Observation / Thought / Action`` text, so it is parsed, grounded by OCR
and icon localization, executed and recorded exactly like a model's answer: a reference run that passes
checks the suite (oracle and rule) and the grounding together. After the last operation it says
``stop`` and confirms completion; when grounding offers 2-4 candidates it picks the one the operation
names (``choose``) or else the candidate whose text reads most like the target.
"""

from __future__ import annotations

from typing import Any

from droidpilot.agent.brains.base import BrainReply, BrainRequest
from droidpilot.agent.coords import CoordSpace
from droidpilot.agent.response import format_response
from droidpilot.bench.task import RefOp
from droidpilot.perception.match import similarity
from droidpilot.perception.normalize import match_key


def pick_candidate(target: str, choices: list[dict[str, Any]]) -> int:
    """1-based number of the candidate whose text is ``target`` (exactly after normalisation), else the
    most similar one; ties go to the first, as a person reading top to bottom would."""
    want = match_key(target)
    best, best_score = 1, -1.0
    for i, choice in enumerate(choices, start=1):
        text = str(choice.get("text") or choice.get("description") or "")
        score = 1000.0 if match_key(text) == want else similarity(target, text)
        if score > best_score:
            best, best_score = i, score
    return best


MAX_SCROLLS = 30


def _visible(request: BrainRequest, text: str) -> bool:
    """Whether OCR reads ``text`` on the request's screen (normalised, as one line or inside one)."""
    want = match_key(text)
    return any(want and want in match_key(line.text) for line in request.screen.lines())


class ReferenceBrain:
    """Answers with the reference operations in order, then ``stop``; ``wrong_final`` replaces the last
    operation (used to record negative traces for the verifier's evaluation)."""

    name = "reference"
    coord_space: CoordSpace = "device"
    extended_actions = True

    def __init__(self, ops: list[RefOp], wrong_final: str | None = None) -> None:
        self.ops = list(ops)
        if wrong_final is not None and self.ops:
            self.ops[-1] = RefOp(wrong_final)
        self.wrong_final = wrong_final
        self._next = 0
        self._scrolled = 0
        self._current: RefOp | None = None

    def decide(self, request: BrainRequest) -> BrainReply:
        """The next operation, ``stop`` after the last, ``yes`` to the completion check, or a candidate."""
        if request.kind == "complete":
            return BrainReply("Completed: yes\nReason: every reference operation was carried out.",
                              model_calls=0)
        if request.kind == "choose":
            wanted = self._current.choose if self._current is not None else None
            number = wanted if wanted and wanted <= len(request.choices) else pick_candidate(
                request.target, request.choices)
            return BrainReply(str(number), model_calls=0)
        if self._next >= len(self.ops):
            self._current = None
            return BrainReply(format_response("The reference operations are done.",
                                              "Nothing is left to do.", "stop"), model_calls=0)
        while self._next < len(self.ops) and self.ops[self._next].until is not None:
            op = self.ops[self._next]
            if self._scrolled >= MAX_SCROLLS or _visible(request, op.until or ""):
                self._next, self._scrolled = self._next + 1, 0
                continue
            self._current, self._scrolled = op, self._scrolled + 1
            return BrainReply(format_response(f"Step {request.step}.", f"Scrolling until {op.until} shows.",
                                              op.action), model_calls=0)
        if self._next >= len(self.ops):
            self._current = None
            return BrainReply(format_response("The reference operations are done.",
                                              "Nothing is left to do.", "stop"), model_calls=0)
        op = self.ops[self._next]
        self._current = op
        self._next += 1
        thought = f"Reference operation {self._next} of {len(self.ops)}."
        return BrainReply(format_response(f"Step {request.step}.", thought, op.action), model_calls=0)

    def describe(self) -> dict[str, Any]:
        """The operations (for run.json)."""
        return {"operations": [op.action for op in self.ops], "wrong_final": self.wrong_final}
