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


@pytest.mark.parametrize("size", ["540x1200", "720x1600"])
def test_a_long_press_at_task_coordinates_lands_on_the_same_field_at_any_size(size):
    # notes-from-clipboard long-presses the note's body at (540, 800) of the 1080x2400 phone to paste;
    # played unscaled on a smaller screen it pressed beside the field and "Paste" never showed
    env = world_env("notes-from-clipboard", size=size)
    env.reset(seed=1)
    policy, done, replies = ReferencePolicy(env.task), False, []
    while not done:
        replies.append(policy(env))
        _, reward, terminated, truncated, info = env.step(replies[-1])
        assert not info["error"], (replies[-1], info["error"])
        done = terminated or truncated
    width = int(size.split("x")[0])
    assert f"Action: long press ({width // 2}, {round(800 * width / 1080)})" in replies
    assert info["success"] is True and reward == 1.0
