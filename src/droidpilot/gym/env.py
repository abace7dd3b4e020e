"""``PhoneEnv``: a SimPhone task as a Gymnasium environment (observation, actions, reward, episode end).

Each ``reset(seed=...)`` draws a task from the environment's source, resets SimPhone to the task's seeded
start state and returns the screen. A step reads the action (text reply, structured dict or android_env
touch), grounds it on the phone's own UI (no OCR), performs it and returns the next screen. The episode
terminates when the agent says ``stop`` or ``answer`` (with touch actions, which cannot say so: when the
task's oracle passes after a gesture) and is truncated at the step limit. Everything is deterministic:
the same seed and actions give the same observations and rewards, bit for bit.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from PIL import Image

from droidpilot.agent.actions import FINAL_ACTIONS, Action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.execute import perform, trace_entries
from droidpilot.bench.suite import BenchTask
from droidpilot.device.base import DeviceError
from droidpilot.device.sim.phone import SimDevice
from droidpilot.device.sim.validate import parse_size
from droidpilot.gym.action_spaces import (
    ACTION_MODES,
    ActionError,
    Decoded,
    TouchGestures,
    action_space,
    from_structured,
    from_text,
)
from droidpilot.gym.judge import judge
from droidpilot.gym.milestones import MilestoneJudge
from droidpilot.gym.perception import PerceptionText
from droidpilot.gym.text_space import UnicodeText
from droidpilot.gym.uiground import ground

REWARDS = ("oracle", "milestones")
DEFAULT_SIZE = (540, 1200)
MAX_INSTRUCTION = 2000
MAX_TEXT = 2000
MAX_PERCEPTION = 50_000
COORD_SPACES = ("image", "normalized", "thousand")


class PhoneEnv(gymnasium.Env[dict[str, Any], Any]):
    """A SimPhone task per episode, drawn from ``tasks`` (a ``WorldTasks`` or ``SuiteTasks``)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, tasks: Any, *, action: str = "text", reward: str = "oracle",
                 size: tuple[int, int] | str = DEFAULT_SIZE, ui_tree: bool = False,
                 max_steps: int | None = None, coord_space: str = "image", ui_tree_max: int = 200_000,
                 render_mode: str | None = None, perception: str | None = None, ocr: str = "rapidocr"
                 ) -> None:
        """``perception``: None (off), ``labels`` or ``ocr``: the agent's perception list as the
        observation's ``perception`` text (see ``gym.perception``); ``ocr`` names the engine it uses."""
        if action not in ACTION_MODES:
            raise ActionError(f"action={action!r} is not one of: {', '.join(ACTION_MODES)}")
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r} is not one of: {', '.join(REWARDS)}")
        if coord_space not in COORD_SPACES:
            raise ValueError(f"coord_space={coord_space!r} is not one of: {', '.join(COORD_SPACES)} "
                             "(how a text reply's coordinates are read: observation pixels, 0-1 or 0-1000)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not one of: rgb_array")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        self.size = _size(size)
        self.device_size = _device_size(self.size)
        self.tasks, self.action_mode, self.reward_mode = tasks, action, reward
        self.ui_tree, self.max_steps, self.coord_space = ui_tree, max_steps, coord_space
        self.render_mode = render_mode
        self.device = SimDevice(size=self.device_size)
        width, height = self.size
        obs: dict[str, spaces.Space[Any]] = {
            "screenshot": spaces.Box(0, 255, shape=(height, width, 3), dtype=np.uint8),
            "instruction": UnicodeText(MAX_INSTRUCTION),
        }
        if ui_tree:
            obs["ui_tree"] = UnicodeText(ui_tree_max)
        self._perception = PerceptionText(perception, ocr) if perception is not None else None
        if self._perception is not None:
            obs["perception"] = UnicodeText(MAX_PERCEPTION)
        self.observation_space = spaces.Dict(obs)
        self.action_space = action_space(action, MAX_TEXT)
        self._gestures = TouchGestures()
        # info["performed"]: the trace entry of each action performed (set by RecordTraces; off by default,
        # as vector envs merge every info key of every step)
        self.trace_info = False
        self.task: BenchTask | None = None
        self._judge: MilestoneJudge | None = None
        self._start: dict[str, Any] | None = None
        self._steps = 0
        self._limit = 0
        self._done = True
        self._share = 0.0

    # -- episode -----------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode: the task drawn for ``seed`` (else for the next seed of the env's generator);
        ``options={"task_seed": N}`` draws task N without reseeding the generator."""
        super().reset(seed=seed)
        if options and "task_seed" in options:
            episode = int(options["task_seed"])
        elif seed is not None:
            episode = int(seed)
        else:
            episode = int(self.np_random.integers(0, 2**31 - 1))
        if episode < 0:
            raise ValueError(f"the task seed must be >= 0, got {episode}")
        task = self.tasks.task(episode)
        self.task = task
        self.device.reset(task.seed)
        if task.setup:
            self.device.apply_setup(task.setup)
        self._start = self.device.state()
        self._steps, self._done = 0, False
        self._limit = self.max_steps or task.step_limit()
        self._gestures.reset()
        self._judge = None
        if self.reward_mode == "milestones":
            self._judge = MilestoneJudge(task.rule, task.instruction)
            self._share = 1.0 / (len(self._judge.milestones) + 1)
            self._judge.observe(self.device.ui_xml())
        info = {"task_id": task.id, "template": task.template, "task_seed": episode,
                "step_limit": self._limit, "milestones": list(self._judge.reached) if self._judge else []}
        return self._observation(), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Perform ``action``; (observation, reward, terminated, truncated, info)."""
        if self._done or self.task is None:
            raise RuntimeError("the episode is over (or never began): call reset() first")
        info: dict[str, Any] = {"action": "", "error": ""}
        reward, terminated, answer = 0.0, False, None
        decoded = self._decode(action, info)
        fresh: list[str] = []
        if decoded is not None:
            info["action"] = decoded.action.format()
            if decoded.action.name in FINAL_ACTIONS:
                terminated, answer = True, decoded.action.text if decoded.action.name == "answer" else None
                info["answer"] = answer
                fresh = self._finish_trace(decoded)
            else:
                fresh = self._perform(decoded, info)
        self._steps += 1
        if self.action_mode == "touch" and decoded is not None and not info["error"]:
            terminated = judge(self.task, self.device.state(), None, self._start).ok
        truncated = not terminated and self._steps >= self._limit
        if self._judge is not None:
            reward += self._share * len(fresh)
            info["milestones"] = list(self._judge.reached)
            info["new_milestones"] = fresh
        if terminated or truncated:
            self._done = True
            verdict = judge(self.task, self.device.state(), answer, self._start)
            info["oracle"] = _vector_safe(verdict.to_dict())
            info["success"] = verdict.ok
            if verdict.ok:
                reward += self._share if self._judge is not None else 1.0
        return self._observation(), float(reward), terminated, truncated, info

    def render(self) -> np.ndarray | None:  # type: ignore[override]
        """The screen as an RGB array at the observation size (render_mode ``rgb_array``)."""
        if self.render_mode != "rgb_array":
            return None
        return self._pixels()

    # -- steps -------------------------------------------------------------------------------------
    def _decode(self, action: Any, info: dict[str, Any]) -> Decoded | None:
        """The action to take, or None (a touch that completes no gesture, an unreadable reply)."""
        if self.action_mode == "touch":
            gesture = self._gestures.feed(action)
            return None if gesture is None else Decoded(gesture, "normalized")
        if self.action_mode == "structured":
            return from_structured(action)
        try:
            return from_text(action, self.coord_space)
        except ActionError as exc:
            if not isinstance(action, str):
                raise
            info["error"] = str(exc)
            return None

    def _perform(self, decoded: Decoded, info: dict[str, Any]) -> list[str]:
        """Ground and perform an action on the phone; newly reached milestones."""
        action = decoded.action
        frame = CoordFrame(decoded.space, self.device_size, self.size)  # type: ignore[arg-type]
        grounding = ground(action, self.device, frame)
        if not grounding.ok:
            info["error"] = grounding.message or f"cannot find {grounding.target!r} on the screen"
            return []
        try:
            perform(self.device, action, grounding)
        except DeviceError as exc:
            info["error"] = f"the phone refused {action.format()}: {exc}"
            return []
        if self._judge is None and not self.trace_info:
            return []
        entry, function = trace_entries(action, grounding)
        if self.trace_info:
            info["performed"] = {"entry": entry, "function": function, "reasoning": decoded.reasoning}
        if self._judge is None:
            return []
        self._judge.act(entry, function, decoded.reasoning)
        return self._judge.observe(self.device.ui_xml())

    def _finish_trace(self, decoded: Decoded) -> list[str]:
        """Record the final action as a bench run records it (an answer frame, then a ``done`` frame on
        the last screen); the milestones this reaches (the answer's, typically)."""
        if self._judge is None:
            return []
        action: Action = decoded.action
        before = len(self._judge.reached)
        if action.name == "answer":
            self._judge.act({"type": "answer", "text": action.text, "status": "ok"},
                            {"name": "answer", "parameters": {"text": action.text}}, decoded.reasoning)
            self._judge.observe(self.device.ui_xml())
        self._judge.act({"type": "done", "status": "completed"},
                        {"name": "done", "parameters": {"status": "completed"}}, decoded.reasoning)
        self._judge.rejudge()
        return self._judge.reached[before:]

    # -- observation -------------------------------------------------------------------------------
    def _pixels(self) -> np.ndarray:
        """The screen at the observation size. Drawn at that size, it is SimPhone's cached frame array,
        read-only (it never changes; copy it to write into it): vector envs copy it into their batch."""
        if self.device_size == self.size:
            return self.device.screenshot_array()
        image = self.device.screenshot().resize(self.size, Image.Resampling.BILINEAR)
        return np.asarray(image, dtype=np.uint8)

    def _observation(self) -> dict[str, Any]:
        assert self.task is not None
        obs: dict[str, Any] = {"screenshot": self._pixels(), "instruction": self.task.instruction}
        if self.ui_tree:
            obs["ui_tree"] = self.device.ui_xml()
        if self._perception is not None:
            obs["perception"] = self._perception.describe(self.device, self._list_frame())[:MAX_PERCEPTION]
        return obs

    def _list_frame(self) -> CoordFrame:
        """The space of the perception list's points: the one text actions are read in; normalised for
        structured and touch actions, which take normalised coordinates."""
        space = self.coord_space if self.action_mode == "text" else "normalized"
        return CoordFrame(space, self.device_size, self.size)  # type: ignore[arg-type]


def _size(size: tuple[int, int] | str) -> tuple[int, int]:
    """(width, height) of the observation; ValueError for anything but two positive integers."""
    if isinstance(size, str):
        try:
            width, height = (int(v) for v in size.lower().split("x"))
        except ValueError:
            raise ValueError(f"size {size!r} is not WIDTHxHEIGHT (for example 540x1200)") from None
    else:
        width, height = (int(v) for v in size)
    if width < 1 or height < 1:
        raise ValueError(f"size {width}x{height} must be positive")
    return width, height


def _device_size(size: tuple[int, int]) -> tuple[int, int]:
    """The size SimPhone draws at: the observation's own when it can, else 540x1200 (then resized)."""
    try:
        return parse_size(f"{size[0]}x{size[1]}")
    except DeviceError:
        return DEFAULT_SIZE


def _vector_safe(verdict: dict[str, Any]) -> dict[str, Any]:
    """The oracle's verdict for ``info``, with the effects report as JSON text: its shape differs between
    tasks (a field's change is a value in one, a dict of removals in another), and Gymnasium's vector envs
    merge ``info`` key by key, failing on a key that is a dict in one step and a value in another."""
    effects = verdict.get("effects")
    return {"ok": verdict["ok"], "checks": verdict["checks"],
            "effects": "" if effects is None else json.dumps(effects, ensure_ascii=False, sort_keys=True)}
