"""Two PhoneEnvs in Gymnasium's vector environments, in-process and in subprocesses with shared memory."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import droidpilot.gym  # noqa: F401  (registers the environments)
from droidpilot.gym.factories import world_env

TEMPLATES = "zh-chat-send*,contacts-add"


def _factory():
    return world_env(TEMPLATES, action="structured", ui_tree=True, reward="milestones", max_steps=3)


def _run(vec):
    obs, _ = vec.reset(seed=[0, 1])
    out = [obs["screenshot"].copy(), tuple(obs["instruction"])]
    action = {"action_type": np.array([8, 9]), "coords": np.full((2, 4), 0.5, dtype=np.float32),
              "text": ("", "")}  # back, home
    for _ in range(4):
        obs, reward, _, truncated, _ = vec.step(action)
        out += [obs["screenshot"].copy(), reward.copy(), truncated.copy(), tuple(obs["ui_tree"])]
    vec.close()
    return out


@pytest.fixture(scope="module")
def sync_run():
    return _run(SyncVectorEnv([_factory, _factory]))


def test_sync_vector_env_steps_two_phones(sync_run):
    screens, instructions = sync_run[0], sync_run[1]
    assert screens.shape == (2, 1200, 540, 3) and screens.dtype == np.uint8
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in text) for text in instructions)
    truncated = sync_run[2 + 4 * 2 + 2]  # the third step reached max_steps=3 in both
    assert truncated.tolist() == [True, True]


def test_async_vector_env_with_shared_memory_gives_what_sync_gives(sync_run):
    async_run = _run(AsyncVectorEnv([_factory, _factory], shared_memory=True))
    assert len(async_run) == len(sync_run)
    for mine, theirs in zip(async_run, sync_run, strict=True):
        if isinstance(mine, np.ndarray):
            assert np.array_equal(mine, theirs)
        else:
            assert mine == theirs  # text, Chinese included, survives shared memory unchanged


def test_make_vec_builds_world_envs():
    vec = gymnasium.make_vec("droidpilot/World-v0", num_envs=2, vectorization_mode="sync",
                             templates="contacts-add")
    obs, info = vec.reset(seed=4)
    assert obs["screenshot"].shape == (2, 1200, 540, 3)
    assert list(info["task_id"]) == ["contacts-add-4-0", "contacts-add-5-0"]
    vec.close()


def test_episodes_ending_together_with_differently_shaped_effects_merge():
    """Two episodes end in one vector step, one declaring a note's field a plain value and one a dict of
    removals: the merged ``info`` holds both verdicts (the effects as JSON text) instead of failing."""
    import json

    def factory():
        return world_env("contacts-phone-to-note,notes-delete-one", action="structured", max_steps=1)

    vec = SyncVectorEnv([factory, factory])
    _, info = vec.reset(seed=[0, 1])
    assert list(info["template"]) == ["contacts-phone-to-note", "notes-delete-one"]
    back = {"action_type": np.array([8, 8]), "coords": np.zeros((2, 4), np.float32), "text": ("", "")}
    _, _, _, truncated, info = vec.step(back)
    vec.close()
    assert truncated.tolist() == [True, True]
    declared = [json.loads(text)["declared"]["notes.notes"] for text in info["oracle"]["effects"]]
    assert declared[0] == "any" and list(declared[1]) == ["removed"]
    assert info["success"].tolist() == [False, False]
