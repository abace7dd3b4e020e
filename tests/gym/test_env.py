"""PhoneEnv end to end on real SimPhone tasks: reference replays win, seeding is exact, spaces hold."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import droidpilot.gym  # noqa: F401  (registers the environments)
from droidpilot.gym import ActionError
from droidpilot.gym.reference import ReferencePolicy

TEMPLATE = "contacts-add"


def _make(**kwargs):
    return gymnasium.make("droidpilot/World-v0", templates=TEMPLATE, **kwargs).unwrapped


def _replay(env, seed):
    env.reset(seed=seed)
    policy = ReferencePolicy(env.task)
    rewards, done = [], False
    while not done:
        _, reward, terminated, truncated, info = env.step(policy(env))
        rewards.append(reward)
        done = terminated or truncated
    return rewards, terminated, info


def test_reference_replay_wins_the_oracle_reward():
    rewards, terminated, info = _replay(_make(reward="oracle"), seed=3)
    assert terminated and info["success"] is True
    assert rewards[-1] == 1.0 and sum(rewards[:-1]) == 0.0
    assert all(c["ok"] for c in info["oracle"]["checks"])


def test_milestone_rewards_add_up_to_one_for_a_won_episode():
    env = _make(reward="milestones")
    rewards, _, info = _replay(env, seed=3)
    assert info["milestones"] == ["screen_1", "screen_2"]
    # two milestones and the oracle: a third each, given when each is first reached
    assert [r for r in rewards if r] == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert sum(rewards) == pytest.approx(1.0)


def test_an_episode_that_stops_early_gets_no_oracle_reward():
    env = _make(reward="oracle")
    env.reset(seed=3)
    _, reward, terminated, truncated, info = env.step("Action: open App (Contacts)")
    assert (reward, terminated, truncated) == (0.0, False, False)
    _, reward, terminated, _, info = env.step("stop")
    assert terminated and reward == 0.0 and info["success"] is False


def test_same_seed_and_actions_give_identical_observations_and_rewards():
    def rollout():
        env = _make(action="structured", reward="milestones", ui_tree=True)
        env.action_space.seed(11)
        obs, _ = env.reset(seed=5)
        frames, rewards = [obs["screenshot"].tobytes()], []
        for _ in range(12):
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            frames.append(obs["screenshot"].tobytes() + obs["ui_tree"].encode())
            rewards.append(reward)
            if terminated or truncated:
                obs, _ = env.reset()
                frames.append(obs["screenshot"].tobytes())
        return frames, rewards

    first, second = rollout(), rollout()
    assert first == second
    assert len(set(first[0])) > 1  # the frames are real pictures, not blanks


def test_reset_without_seed_follows_the_generator_of_the_first_seed():
    env_a, env_b = _make(), _make()
    env_a.reset(seed=9)
    env_b.reset(seed=9)
    ids_a = [env_a.reset()[1]["task_seed"] for _ in range(3)]
    ids_b = [env_b.reset()[1]["task_seed"] for _ in range(3)]
    assert ids_a == ids_b and len(set(ids_a)) == 3


@pytest.mark.parametrize("action", ["text", "structured", "touch"])
def test_env_checker_passes(action):
    """The checker's sampled text actions hold any characters ('{', quotes, '\\F'): reading them compiles no
    literal that makes Python warn (it printed "<unknown>:1: invalid escape sequence" four times)."""
    env = gymnasium.make("droidpilot/World-v0", templates="contacts-*", action=action, ui_tree=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
    compiled = [f"{w.category.__name__}: {w.message}" for w in caught if w.filename == "<unknown>"]
    assert not compiled, compiled


@pytest.mark.filterwarnings("error")
def test_a_text_action_with_a_windows_path_is_read_without_a_warning():
    """A reply dict holding 'C:\\Files' types that text (the backslash kept), and Python warns nothing."""
    env = _make()
    env.reset(seed=3)
    _, _, _, _, info = env.step("{'action': 'INPUT', 'value': 'C:\\Files', 'position': None}")
    assert info["error"] == "" and info["action"] == "type (C:\\Files)"


def test_observation_is_drawn_at_the_asked_size_or_resized():
    env = _make(size="540x1200")
    obs, _ = env.reset(seed=1)
    assert env.device.size() == (540, 1200) and obs["screenshot"].shape == (1200, 540, 3)
    small = _make(size=(96, 200))  # below what SimPhone draws: drawn at 540x1200, then resized
    obs, _ = small.reset(seed=1)
    assert small.device.size() == (540, 1200) and obs["screenshot"].shape == (200, 96, 3)
    assert obs["screenshot"].dtype == np.uint8


def test_the_screenshot_is_read_only_and_stays_as_it_was_after_later_steps():
    env = _make()
    first, _ = env.reset(seed=3)
    kept = first["screenshot"].copy()
    with pytest.raises(ValueError, match="read-only"):
        first["screenshot"][0, 0, 0] = 7
    later, *_ = env.step("Action: open App (Contacts)")
    assert not np.array_equal(later["screenshot"], kept)
    assert np.array_equal(first["screenshot"], kept)


def test_truncation_at_the_step_limit_judges_the_oracle():
    env = _make(max_steps=2)
    env.reset(seed=3)
    _, _, terminated, truncated, _ = env.step("Action: back")
    assert not terminated and not truncated
    _, reward, terminated, truncated, info = env.step("Action: back")
    assert truncated and not terminated and reward == 0.0 and info["success"] is False
    with pytest.raises(RuntimeError, match="reset"):
        env.step("Action: back")


def test_an_unreadable_reply_is_a_wasted_step_with_the_parsers_advice():
    env = _make()
    obs, _ = env.reset(seed=3)
    after, reward, terminated, _, info = env.step("I think I should open contacts")
    assert reward == 0.0 and not terminated
    assert "Unknown action" in info["error"] and "Write exactly one action" in info["error"]
    assert np.array_equal(obs["screenshot"], after["screenshot"])
    _, _, _, _, info = env.step("Action: click text (No Such Button Anywhere)")
    assert "No Such Button Anywhere" in info["error"]


def test_a_reply_that_is_not_text_is_refused_with_the_reason():
    env = _make()
    env.reset(seed=3)
    with pytest.raises(ActionError, match="str"):
        env.step({"action_type": 0})


def test_text_coordinates_are_read_in_the_chosen_space():
    for space, point in (("image", "(270, 600)"), ("normalized", "(0.5, 0.5)"), ("thousand", "(500, 500)")):
        env = _make(coord_space=space)
        env.reset(seed=3)
        _, _, _, _, info = env.step(f"Action: tap {point}")
        assert info["error"] == "" and info["action"].startswith("tap")


def test_bad_construction_arguments_are_refused():
    with pytest.raises(ActionError, match="one of: text, structured, touch"):
        _make(action="keyboard")
    with pytest.raises(ValueError, match="reward='dense'"):
        _make(reward="dense")
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        _make(size="540 by 1200")


def test_mobile_eval_env_draws_its_task_files():
    env = gymnasium.make("droidpilot/MobileEval-v0").unwrapped
    obs, info = env.reset(seed=0)
    assert obs["instruction"] == env.task.instruction and info["task_id"] == env.task.id
    again = gymnasium.make("droidpilot/MobileEval-v0").unwrapped
    assert again.reset(seed=0)[1]["task_id"] == info["task_id"]


def test_importing_droidpilot_does_not_import_gymnasium():
    code = ("import sys, droidpilot, droidpilot.bench, droidpilot.device.sim.phone; "
            "print('gymnasium' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_template_glob_that_matches_nothing_is_named():
    from droidpilot.bench.suite import SuiteError

    with pytest.raises(SuiteError, match="'contacts-ad' matches no template"):
        gymnasium.make("droidpilot/World-v0", templates="contacts-add,contacts-ad")
