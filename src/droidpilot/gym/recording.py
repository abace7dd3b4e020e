"""Gym rollouts recorded as droidpilot trace folders, so ``verify``, the studio and ``export`` read them.

Each episode becomes ``OUT/<task id>-<episode>/`` with what a bench run writes: screenshots and UI dumps
(frame N: the screen before action N), ``actions.json`` / ``react.json``, a final ``done`` frame,
``oracle.json``, ``rule.yaml`` and ``run.json`` (instruction, answer, the task's reference operations).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium

from droidpilot.agent.recorder import TraceRecorder
from droidpilot.atomicio import atomic_write_bytes, atomic_write_json


class RecordTraces(gymnasium.Wrapper):
    """Wraps a ``PhoneEnv``; every episode is written as a trace folder under ``out``, named by ``name``
    from the reset's info (default: ``<task id>-<episode number>``). ``durable`` False skips the fsyncs
    (see ``TraceRecorder``), for traces made again at will from their seeds."""

    def __init__(self, env: gymnasium.Env, out: str | Path,
                 name: Callable[[dict[str, Any]], str] | None = None, durable: bool = True) -> None:
        super().__init__(env)
        env.unwrapped.trace_info = True
        self.out = Path(out)
        self.name = name
        self.durable = durable
        self.episodes = 0
        self.folders: list[Path] = []
        self._recorder: TraceRecorder | None = None
        self._screen: tuple[Any, str] | None = None

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        phone = self.env.unwrapped
        task = phone.task
        folder = self.out / (self.name(info) if self.name else f"{task.id}-{self.episodes}")
        self.episodes += 1
        self._recorder = TraceRecorder(folder, task.instruction, task.apps[0], overwrite=True,
                                       durable=self.durable)
        self.folders.append(folder)
        atomic_write_bytes(folder / "rule.yaml", task.rule_text.encode("utf-8"), fsync=self.durable)
        self._recorder.write_run({"instruction": task.instruction, "status": "running", "task_id": task.id,
                                  "reference": [op.action for op in task.reference],
                                  "device_size": list(phone.device_size)})
        self._screen = (phone.device.screenshot(), phone.device.ui_xml())
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        recorder, phone = self._recorder, self.env.unwrapped
        if recorder is None or self._screen is None:
            return obs, reward, terminated, truncated, info
        image, xml = self._screen
        done = info.get("performed")
        if done is not None:
            recorder.record_frame(image, xml, done["entry"], done["reasoning"], done["function"])
            self._screen = (phone.device.screenshot(), phone.device.ui_xml())
        elif "answer" in info and info["answer"] is not None:
            entry = {"type": "answer", "text": info["answer"], "status": "ok"}
            function = {"name": "answer", "parameters": {"text": info["answer"]}}
            recorder.record_frame(image, xml, entry, "", function)
        if terminated or truncated:
            status = "completed" if terminated else "max_steps"
            image, xml = self._screen
            recorder.finish(image, xml, "", status, {"status": status, "answer": info.get("answer"),
                                                     "success": info.get("success")})
            atomic_write_json(recorder.folder / "oracle.json", _oracle_json(info.get("oracle")),
                              fsync=self.durable)
            self._recorder = None
        return obs, reward, terminated, truncated, info


def _oracle_json(verdict: dict[str, Any] | None) -> dict[str, Any]:
    """``oracle.json`` as a bench run writes it, from the verdict in ``info`` (effects there are JSON)."""
    if not verdict:
        return {"ok": None, "checks": []}
    out = {"ok": verdict["ok"], "checks": verdict["checks"]}
    if verdict.get("effects"):
        out["effects"] = json.loads(verdict["effects"])
    return out
