"""The reference policy wins its tasks, including operations that name one of several same-text targets."""

from __future__ import annotations

import pytest

from droidpilot.gym.factories import world_env
from droidpilot.gym.reference import ReferencePolicy


@pytest.mark.parametrize("size", ["540x1200", "270x600"])
def test_a_chosen_candidate_is_tapped_in_observation_pixels(size):
    # contacts-open-card searches a name, then taps the second "Caleb Wright" (the result, not the query)
    env = world_env("contacts-open-card", size=size)
    env.reset(seed=11)
    assert any(op.choose == 2 for op in env.task.reference)
    policy, done, replies = ReferencePolicy(env.task), False, []
    while not done:
        replies.append(policy(env))
        _, reward, terminated, truncated, info = env.step(replies[-1])
        done = terminated or truncated
    assert any(r.startswith("Action: tap (") for r in replies)
    assert info["success"] is True and reward == 1.0
