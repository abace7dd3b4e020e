"""A ``dm_env`` view of a SimPhone task with android_env's specs, for agents written against AndroidEnv.

Observations are android_env's ``pixels`` (H x W x 3 uint8), ``timedelta`` (microseconds since the last
observation: SimPhone's virtual time, one second per input event, so it is deterministic) and
``orientation`` (one-hot, always portrait); actions are its touch-screen ``action_type`` (touch, lift,
repeat) and ``touch_position`` in [0, 1]^2. The task's instruction is in ``task_extras()``, as
android_env gives a task's extras. Needs the optional ``dm-env`` extra.
"""

from __future__ import annotations

from typing import Any

import dm_env
import numpy as np
from dm_env import specs

from droidpilot.gym.env import PhoneEnv

PORTRAIT = np.array([1, 0, 0, 0], dtype=np.uint8)


class DmEnvView(dm_env.Environment):
    """``PhoneEnv`` (with touch actions) behind dm_env's ``reset``/``step`` and android_env's specs.

    Episodes are drawn from ``seed``, ``seed + 1``, ...; a step after the last one starts the next episode,
    as dm_env expects. Truncation at the step limit ends the episode with discount 1, termination with 0.
    """

    def __init__(self, env: PhoneEnv, seed: int = 0) -> None:
        if env.action_mode != "touch":
            raise ValueError(f"the dm_env view needs a PhoneEnv built with action='touch', not "
                             f"{env.action_mode!r}: android_env's action spec is touch events")
        self.env = env
        self._seed = seed
        self._episode = -1
        self._clock = 0.0
        self._needs_reset = True
        self._extras: dict[str, Any] = {}

    def reset(self) -> dm_env.TimeStep:
        """The first step of the next episode."""
        self._episode += 1
        obs, info = self.env.reset(seed=self._seed + self._episode)
        self._needs_reset = False
        self._clock = self.env.device.virtual_time()
        self._extras = {"instruction": obs["instruction"], "task_id": info["task_id"]}
        return dm_env.restart(self._observation(obs, 0))

    def step(self, action: dict[str, Any]) -> dm_env.TimeStep:
        """Feed one touch event; a new episode begins when the previous one has ended."""
        if self._needs_reset:
            return self.reset()
        obs, reward, terminated, truncated, info = self.env.step(action)
        now = self.env.device.virtual_time()
        delta, self._clock = round((now - self._clock) * 1_000_000), now
        observation = self._observation(obs, delta)
        self._extras = {**self._extras, "oracle": info.get("oracle"), "milestones": info.get("milestones")}
        if terminated or truncated:
            self._needs_reset = True
            if terminated:
                return dm_env.termination(reward, observation)
            return dm_env.truncation(reward, observation)
        return dm_env.transition(reward, observation)

    def observation_spec(self) -> dict[str, specs.Array]:
        """android_env's base observation spec at the environment's size."""
        width, height = self.env.size
        return {
            "pixels": specs.BoundedArray((height, width, 3), np.uint8, 0, 255, name="pixels"),
            "timedelta": specs.Array((), np.int64, name="timedelta"),
            "orientation": specs.BoundedArray((4,), np.uint8, 0, 1, name="orientation"),
        }

    def action_spec(self) -> dict[str, specs.Array]:
        """android_env's single-finger touch-screen action spec."""
        return {
            "action_type": specs.DiscreteArray(3, name="action_type"),
            "touch_position": specs.BoundedArray((2,), np.float32, [0.0, 0.0], [1.0, 1.0],
                                                 name="touch_position"),
        }

    def task_extras(self, latest_only: bool = True) -> dict[str, Any]:
        """The task's instruction and id, and after a step the oracle's verdict and milestones."""
        return dict(self._extras)

    def close(self) -> None:
        self.env.close()

    @staticmethod
    def _observation(obs: dict[str, Any], delta_us: int) -> dict[str, np.ndarray]:
        return {"pixels": obs["screenshot"], "timedelta": np.int64(delta_us), "orientation": PORTRAIT.copy()}
