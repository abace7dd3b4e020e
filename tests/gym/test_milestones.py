"""The incremental milestone judge agrees with the verifier judging the whole trace at once."""

from __future__ import annotations

import gymnasium
import pytest

import droidpilot.gym  # noqa: F401  (registers the environments)
from droidpilot.gym.milestones import MilestoneJudge
from droidpilot.gym.reference import ReferencePolicy
from droidpilot.verify.engine import verify


def _episode(template, seed, last=None):
    env = gymnasium.make("droidpilot/World-v0", templates=template, reward="milestones").unwrapped
    env.reset(seed=seed)
    policy, rewards, done = ReferencePolicy(env.task), [], False
    while not done:
        reply = policy(env)
        if last is not None and reply.startswith("Action: answer"):
            reply = last
        _, reward, terminated, truncated, info = env.step(reply)
        rewards.append(reward)
        done = terminated or truncated
    return env, rewards, info


@pytest.mark.parametrize("template", ["bank-balance", "contacts-add"])
def test_incremental_judging_matches_one_full_verification(template):
    env, rewards, info = _episode(template, seed=2)
    judge = env._judge
    full = verify(env.task.rule, judge._frames, task_description=env.task.instruction)
    conditioned = {n.id for n in env.task.rule.nodes if n.condition is not None}  # pass-through: no milestone
    reached = {s.node for s in full.nodes if s.state == "reached" and s.node in conditioned}
    assert set(info["milestones"]) == reached and full.ok is judge.ok is True
    assert info["success"] and sum(rewards) == pytest.approx(1.0)


def test_a_wrong_answer_misses_the_answer_milestone_and_the_oracle():
    env, rewards, info = _episode("bank-balance", seed=2, last="Action: answer (12.00)")
    assert "answer" not in info["milestones"] and info["success"] is False
    share = 1 / (len(env._judge.milestones) + 1)
    assert sum(rewards) == pytest.approx(share * len(info["milestones"]))
    assert 0 < sum(rewards) < 1


def test_a_milestone_seen_again_is_not_reached_again():
    env = gymnasium.make("droidpilot/World-v0", templates="contacts-add", reward="milestones").unwrapped
    env.reset(seed=2)
    policy, info = ReferencePolicy(env.task), {"milestones": []}
    while not info["milestones"]:  # up to the "New contact" screen with the name and number filled in
        info = env.step(policy(env))[-1]
    judge = MilestoneJudge(env.task.rule, env.task.instruction)
    xml = env.device.ui_xml()
    assert judge.observe(xml) == ["screen_1"]
    judge.act({"type": "wait", "status": "ok"}, {"name": "wait", "parameters": {}})
    assert judge.observe(xml) == [] and judge.reached == ["screen_1"] and not judge.ok



def test_forbidden_nodes_are_no_milestones_and_meeting_one_fails_the_episode():
    env, rewards, info = _episode("clock-delete", seed=0)
    played = env._judge
    assert played.rule.forbidden() and not set(played.rule.forbidden()) & set(played.milestones)
    assert played.ok and info["success"] and sum(rewards) == pytest.approx(1.0)
    judge = MilestoneJudge(env.task.rule, env.task.instruction)
    for frame in played._frames:  # the same run judged again, step by step
        judge.observe(frame.xml_text)
        if frame.action:
            judge.act(frame.action, {"name": frame.action.get("type"), "parameters": {}})
    assert judge.ok
    last = played._frames[-1].xml_text  # then another alarm deleted: a tap on "Delete alarm" again
    judge.act({"type": "click", "text": "Delete alarm", "status": "ok"}, {"name": "click", "parameters": {}})
    judge.observe(last)
    assert not judge.ok
