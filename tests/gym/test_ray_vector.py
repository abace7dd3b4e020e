"""``RayVectorEnv`` on a real two-node Ray cluster on loopback: the environments land on both nodes and the
batches are those ``SyncVectorEnv`` gives for the same seeds and actions, episode ends and autoresets
included; the actor's host object alone behaves as one environment of a ``SyncVectorEnv``."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from droidpilot.gym.factories import world_env
from droidpilot.gym.ray_vector import EnvHost, RayVectorEnv

FACTORY = partial(world_env, "contacts-add,notes-*", action="structured", reward="milestones", max_steps=2)
# tap the middle, back, then (the episodes were truncated at 2 steps) the autoreset step, then home
ACTIONS = [(0, 0.5), (8, 0.0), (8, 0.0), (9, 0.0)]


def _actions(n: int, kind: int, x: float) -> dict:
    return {"action_type": np.full(n, kind), "coords": np.full((n, 4), x or 0.5, dtype=np.float32),
            "text": ("",) * n}


def _run(vec) -> list:
    obs, info = vec.reset(seed=[5, 6])
    out = [obs["screenshot"].copy(), tuple(obs["instruction"]), list(info["task_id"])]
    for kind, x in ACTIONS:
        obs, reward, terminated, truncated, info = vec.step(_actions(2, kind, x))
        out += [obs["screenshot"].copy(), reward.tolist(), terminated.tolist(), truncated.tolist(),
                list(info.get("action", ["", ""]))]
    return out


@pytest.fixture(scope="module")
def sync_run() -> list:
    vec = SyncVectorEnv([FACTORY, FACTORY])
    try:
        return _run(vec)
    finally:
        vec.close()


def test_the_host_autoresets_the_step_after_an_episode_ends():
    host = EnvHost(FACTORY)
    host.reset(5, None)
    step = _actions(1, 8, 0.0)
    one = {k: v[0] for k, v in step.items()}
    assert host.step(one)[3] is False
    _, _, _, truncated, _ = host.step(one)
    assert truncated is True
    _, reward, terminated, truncated, info = host.step(one)  # the reset, not a step
    assert (reward, terminated, truncated) == (0.0, False, False) and "task_id" in info
    assert host.step(one)[3] is False  # a new episode: its first step again


@pytest.mark.slow
def test_ray_vector_env_spreads_over_nodes_and_matches_sync(ray_cluster, sync_run):
    vec = RayVectorEnv([FACTORY, FACTORY], address=ray_cluster.address())  # one CPU per node: one env each
    try:
        assert {ray_cluster.name_of(n) for n in vec.nodes()} == {"head", "w1"}
        ray_run = _run(vec)
    finally:
        vec.close()
    assert sync_run[3 + 4 * 0 + 3] == [False, False] and sync_run[3 + 5 + 3] == [True, True]  # truncated
    assert len(ray_run) == len(sync_run)
    for mine, theirs in zip(ray_run, sync_run, strict=True):
        if isinstance(mine, np.ndarray):
            assert np.array_equal(mine, theirs)
        else:
            assert mine == theirs


def test_a_factory_list_must_not_be_empty():
    with pytest.raises(ValueError, match="at least one"):
        RayVectorEnv([])
