"""``RayVectorEnv``: Gymnasium's vector-environment API over environments living in Ray actors, spread over
a cluster's nodes (as ``bench --ray`` spreads phones), for rollouts wider than one machine.

Each environment is built by its factory inside an actor of its own (one CPU each by default, scheduled
with Ray's ``SPREAD`` strategy); a step sends each actor its action and gathers the results, which are
batched exactly as ``SyncVectorEnv`` batches them, with the same next-step autoreset. Needs the optional
``ray`` extra; this module imports ``ray`` only when an environment is built.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from droidpilot.ray_env import connect


class EnvHost:
    """One environment inside a Ray actor, with ``SyncVectorEnv``'s next-step autoreset: the step after
    an episode ended resets it instead (reward 0, not terminated). The runner wraps it with
    ``ray.remote``; it runs as a plain object too."""

    def __init__(self, factory: Callable[[], gymnasium.Env]) -> None:
        self.env = factory()
        self.ended = False

    def spaces(self) -> tuple[Any, Any, dict[str, Any], str | None]:
        """(observation space, action space, metadata, render mode) of the environment."""
        return self.env.observation_space, self.env.action_space, dict(self.env.metadata), \
            self.env.render_mode

    def where(self) -> str:
        """The Ray node id this actor runs on."""
        import ray

        return str(ray.get_runtime_context().get_node_id())

    def reset(self, seed: int | None, options: dict[str, Any] | None) -> tuple[Any, dict[str, Any]]:
        self.ended = False
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.ended:
            self.ended = False
            obs, info = self.env.reset()
            return obs, 0.0, False, False, info
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.ended = bool(terminated or truncated)
        return obs, float(reward), bool(terminated), bool(truncated), info

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """The environment's attribute ``name``, called with the arguments when it is a method."""
        value = getattr(self.env, name)
        return value(*args, **kwargs) if callable(value) else value

    def close(self) -> None:
        self.env.close()


class RayVectorEnv(VectorEnv):
    """``env_fns`` (picklable factories, e.g. ``functools.partial(world_env, "contacts-*")``) each run in
    a Ray actor. ``address``: a running cluster's (``auto``, ``HOST:PORT``, ``ray://HOST:10001``), or
    None for the cluster this process is connected to, else a loopback-only local Ray started for it."""

    def __init__(self, env_fns: Sequence[Callable[[], gymnasium.Env]], *, address: str | None = None,
                 num_cpus: float = 1, copy: bool = True) -> None:
        super().__init__()
        if not env_fns:
            raise ValueError("RayVectorEnv needs at least one environment factory")
        if num_cpus <= 0:
            raise ValueError(f"num_cpus must be positive, got {num_cpus}")
        self._stack = contextlib.ExitStack()
        self._ray = self._stack.enter_context(connect(address))
        remote = self._ray.remote(num_cpus=num_cpus, scheduling_strategy="SPREAD")(EnvHost)
        self.actors = [remote.remote(fn) for fn in env_fns]
        self.num_envs = len(self.actors)
        self.copy = copy
        described = self._ray.get([a.spaces.remote() for a in self.actors])
        obs_space, act_space, metadata, render_mode = described[0]
        for i, (obs, act, _, _) in enumerate(described[1:], start=1):
            if obs != obs_space or act != act_space:
                raise ValueError(f"environment {i} has other spaces than environment 0; a vector env's "
                                 "environments must share their observation and action spaces")
        self.metadata = {**metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        self.render_mode = render_mode
        self.single_observation_space, self.single_action_space = obs_space, act_space
        self.observation_space = batch_space(obs_space, self.num_envs)
        self.action_space = batch_space(act_space, self.num_envs)
        self._observations = create_empty_array(obs_space, n=self.num_envs, fn=np.zeros)

    def nodes(self) -> list[str]:
        """The Ray node id of each environment's actor, in environment order."""
        return list(self._ray.get([a.where.remote() for a in self.actors]))

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset every environment (seeds as ``SyncVectorEnv`` takes them: None, an int n giving n, n+1,
        ..., or one per environment)."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        results = self._ray.get([a.reset.remote(s, options) for a, s in zip(self.actors, seeds, strict=True)])
        infos: dict[str, Any] = {}
        for i, (_, info) in enumerate(results):
            infos = self._add_info(infos, info, i)
        return self._batch([obs for obs, _ in results]), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every environment with its action (an environment whose episode ended resets instead)."""
        single = list(iterate(self.action_space, actions))
        results = self._ray.get([a.step.remote(act) for a, act in zip(self.actors, single, strict=True)])
        infos: dict[str, Any] = {}
        for i, result in enumerate(results):
            infos = self._add_info(infos, result[4], i)
        rewards = np.array([r[1] for r in results], dtype=np.float64)
        terminations = np.array([r[2] for r in results], dtype=np.bool_)
        truncations = np.array([r[3] for r in results], dtype=np.bool_)
        return self._batch([r[0] for r in results]), rewards, terminations, truncations, infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Each environment's attribute ``name`` (called with the arguments when it is a method)."""
        return tuple(self._ray.get([a.call.remote(name, *args, **kwargs) for a in self.actors]))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def render(self) -> tuple[Any, ...] | None:
        return self.call("render")

    def close_extras(self, **kwargs: Any) -> None:
        """Close the environments, end their actors, and shut down a Ray started for this env."""
        try:
            self._ray.get([a.close.remote() for a in self.actors])
        finally:
            for actor in self.actors:
                self._ray.kill(actor)
            self._stack.close()

    def _batch(self, observations: list[Any]) -> Any:
        self._observations = concatenate(self.single_observation_space, observations, self._observations)
        return deepcopy(self._observations) if self.copy else self._observations
