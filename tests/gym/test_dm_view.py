"""The dm_env view: android_env's specs hold for every time step, and a touch-driven episode runs."""

from __future__ import annotations

import numpy as np
import pytest

dm_env = pytest.importorskip("dm_env")

from droidpilot.gym.dm_view import DmEnvView  # noqa: E402
from droidpilot.gym.factories import world_env  # noqa: E402


def _view(**kwargs):
    return DmEnvView(world_env("contacts-add", action="touch", max_steps=6, **kwargs), seed=3)


def _touch(kind, x=0.5, y=0.5):
    return {"action_type": np.int32(kind), "touch_position": np.array([x, y], dtype=np.float32)}


def test_time_steps_match_android_envs_specs_and_episodes_roll_over():
    view = _view()
    obs_spec, act_spec = view.observation_spec(), view.action_spec()
    assert act_spec["action_type"].num_values == 3 and act_spec["touch_position"].shape == (2,)
    first = view.reset()
    assert first.first() and first.reward is None
    assert view.task_extras()["instruction"].startswith("Add a new contact")
    steps = [first]
    for i in range(8):  # 6 steps reach the limit, then a step starts the next episode
        steps.append(view.step(_touch(i % 2)))
    for ts in steps:
        for key, spec in obs_spec.items():
            spec.validate(ts.observation[key])
    assert [ts.step_type for ts in steps[5:8]] == [dm_env.StepType.MID, dm_env.StepType.LAST,
                                                  dm_env.StepType.FIRST]
    assert steps[6].discount == 1.0  # truncated, not terminated
    # a lift completes a tap: one input event, one virtual second; a touch alone takes none
    assert [int(ts.observation["timedelta"]) for ts in steps[1:5]] == [0, 1_000_000, 0, 1_000_000]


def test_a_touch_drawn_view_is_refused_for_other_action_modes():
    with pytest.raises(ValueError, match="action='touch'"):
        DmEnvView(world_env("contacts-add", action="text"))


def test_the_same_touches_give_the_same_pixels():
    def run():
        view, out = _view(), []
        view.reset()
        for i, (x, y) in enumerate([(0.5, 0.3), (0.5, 0.3), (0.2, 0.9), (0.2, 0.9)]):
            out.append(view.step(_touch(i % 2, x, y)).observation["pixels"].tobytes())
        return out

    assert run() == run()
