"""Run the agent on a studio phone in a thread; stop it, take over by hand, hand back, at any step.

The run is one of the agent's loops (``--loop`` v1, v2 or e, ``agent.loops``) with the shared brain factory;
the studio only adds a ``checkpoint`` that blocks while a person has taken over and raises
``StopRequested`` when asked to stop, and an ``on_step`` that publishes each step to the viewers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.agent.brains.factory import BRAINS, make_brain
from droidpilot.agent.loop import Limits, StopRequested
from droidpilot.agent.loops import LOOPS, calls_per_step, make_agent
from droidpilot.errors import DroidpilotError
from droidpilot.studio.errors import Conflict, StudioError
from droidpilot.studio.manual import Manual, trace_entries

Emit = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class AgentSettings:
    """What the page's agent panel asks for (validated by ``from_request``)."""

    instruction: str
    brain: str = "heuristic"
    model: str | None = None
    base_url: str | None = None
    responses: str | None = None
    max_steps: int = 20
    language: str = "en"
    check_completion: bool = True
    loop: str = "v1"  # the agent loop: v1 | v2 | e

    @classmethod
    def from_request(cls, body: dict[str, Any]) -> AgentSettings:
        """Settings from a JSON body (StudioError naming the bad field)."""
        instruction = body.get("instruction")
        if not isinstance(instruction, str) or not instruction.strip():
            raise StudioError("field 'instruction' must say what the agent should do")
        brain = body.get("brain", "heuristic")
        if brain not in BRAINS:
            raise StudioError(f"unknown brain {brain!r}; choose one of {', '.join(BRAINS)}")
        steps = body.get("max_steps", 20)
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= 200:
            raise StudioError(f"field 'max_steps' must be a whole number from 1 to 200, got {steps!r}")
        texts = {}
        for key in ("model", "base_url", "responses"):
            value = body.get(key) or None
            if value is not None and not isinstance(value, str):
                raise StudioError(f"field {key!r} must be a string")
            texts[key] = value
        language = body.get("language", "en")
        if language not in ("en", "zh"):
            raise StudioError(f"field 'language' must be en or zh, got {language!r}")
        loop = body.get("loop", "v1")
        if loop not in LOOPS:
            raise StudioError(f"field 'loop' must be one of {', '.join(LOOPS)}, got {loop!r}")
        return cls(instruction.strip(), brain, texts["model"], texts["base_url"], texts["responses"], steps,
                   language, bool(body.get("check_completion", True)), loop)


class AgentRun:
    """One agent run on ``device``; ``state``: running, pausing (taken over, finishing its step), paused
    (waiting at its checkpoint while a person operates), or finished."""

    def __init__(self, device: Any, settings: AgentSettings, folder: Path, *, ocr_engine: Any,
                 settle_s: float, emit: Emit) -> None:
        try:
            brain = make_brain(settings.brain, model=settings.model, base_url=settings.base_url,
                               responses=Path(settings.responses) if settings.responses else None)
        except DroidpilotError as exc:
            raise StudioError(str(exc)) from None
        self.settings = settings
        self.folder = folder
        self.emit = emit
        self.state = "running"
        self.result: dict[str, Any] | None = None
        self.steps = 0
        self._stop = threading.Event()
        self._resume = threading.Event()
        self._resume.set()
        self.parked = threading.Event()  # set while the loop waits at its checkpoint
        calls = max((2 + calls_per_step(settings.loop)) * settings.max_steps, 10)
        self.agent = make_agent(settings.loop, device, brain, ocr_engine=ocr_engine, out_dir=folder,
                                limits=Limits(max_steps=settings.max_steps, max_model_calls=calls),
                                language=settings.language, settle_s=settle_s,
                                check_completion=settings.check_completion, on_step=self._on_step,
                                checkpoint=self._checkpoint)
        self._thread = threading.Thread(target=self._main, name="studio-agent", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def describe(self) -> dict[str, Any]:
        """What the page shows about this run."""
        return {"state": self.state, "instruction": self.settings.instruction, "brain": self.settings.brain,
                "loop": self.settings.loop,
                "steps": self.steps, "folder": str(self.folder), "result": self.result}

    # -- control from the page --------------------------------------------------------------------
    def stop(self) -> None:
        """End the run before its next step (a paused run ends at once)."""
        if self.state == "finished":
            raise Conflict("the agent run has already finished")
        self._stop.set()
        self._resume.set()

    def take_over(self) -> None:
        """Pause before the next step, so a person can operate the phone."""
        if self.state != "running":
            raise Conflict(f"cannot take over: the agent run is {self.state}")
        self._resume.clear()
        self.state = "pausing"
        self.emit({"type": "agent", **self.describe()})

    def hand_back(self) -> None:
        """Let the agent go on from the screen as the person left it."""
        if self.state not in ("pausing", "paused"):
            raise Conflict(f"cannot hand back: the agent run is {self.state}")
        self.state = "running"
        self._resume.set()
        self.emit({"type": "agent", **self.describe()})

    def record_manual(self, image: Any, xml: str | None, manual: Manual) -> int | None:
        """Put a person's operation during a take-over into the agent's trace (the loop is parked)."""
        action, function = trace_entries(manual)
        return self.agent.record_manual(image, xml, action, function)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    # -- the thread -------------------------------------------------------------------------------
    def _checkpoint(self) -> bool:
        paused = not self._resume.is_set()
        if paused:
            self.parked.set()
            if self.state == "pausing":
                self.state = "paused"
                self.emit({"type": "agent", **self.describe()})
        while not self._resume.wait(0.2):
            pass
        self.parked.clear()
        if self._stop.is_set():
            raise StopRequested("stopped from the studio")
        return paused

    def _on_step(self, record: dict[str, Any]) -> None:
        self.steps = int(record.get("step", self.steps))
        self.emit({"type": "step", "step": record.get("step"), "thought": record.get("thought", ""),
                   "action": (record.get("action") or {}).get("text", ""),
                   "grounding": _grounding(record.get("grounding")), "outcome": record.get("outcome", ""),
                   "error": record.get("error", ""), "feedback": record.get("feedback_next", ""),
                   "t": time.time()})

    def _main(self) -> None:
        try:
            result = self.agent.run(self.settings.instruction)
            self.result = result.to_dict()
        except Exception as exc:  # reported to the page; the studio goes on
            self.result = {"termination": "error", "error": f"{type(exc).__name__}: {exc}"}
        self.state = "finished"
        self.parked.set()
        self.emit({"type": "agent", **self.describe()})


def _grounding(value: Any) -> dict[str, Any] | None:
    """Only the geometry of a grounding (what the page draws), in device pixels."""
    if not isinstance(value, dict):
        return None
    return {k: value[k] for k in ("status", "point", "end", "box", "target") if k in value}
