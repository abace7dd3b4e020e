"""A recorded gym episode is a real trace folder: the verifier judges it as it judges a bench run."""

from __future__ import annotations

import json

from droidpilot.gym.factories import world_env
from droidpilot.gym.recording import RecordTraces
from droidpilot.gym.reference import ReferencePolicy
from droidpilot.verify.engine import verify
from droidpilot.verify.trace import load_trace


def _record(tmp_path, last=None):
    env = RecordTraces(world_env("bank-balance"), tmp_path)
    env.reset(seed=2)
    policy, done = ReferencePolicy(env.unwrapped.task), False
    while not done:
        reply = policy(env.unwrapped)
        if last and reply.startswith("Action: answer"):
            reply = last
        _, _, terminated, truncated, _ = env.step(reply)
        done = terminated or truncated
    return env.folders[-1], env.unwrapped.task


def test_a_won_episode_verifies_and_its_files_say_so(tmp_path):
    folder, task = _record(tmp_path)
    result = verify(task.rule, load_trace(folder, task_description=task.instruction))
    assert result.ok
    oracle = json.loads((folder / "oracle.json").read_text())
    assert oracle["ok"] is True and oracle["effects"]["ok"] is True  # effects as data, not JSON text
    run = json.loads((folder / "run.json").read_text())
    assert run["status"] == "completed" and run["reference"] == [op.action for op in task.reference]
    actions = json.loads((folder / "actions.json").read_text())["actions"]
    assert actions[-2]["type"] == "answer" and actions[-1]["type"] == "done"
    assert (folder / "1.jpg").is_file() and (folder / "1.xml").is_file()


def test_a_wrong_answer_is_recorded_and_fails_verification(tmp_path):
    folder, task = _record(tmp_path, last="Action: answer (0.01)")
    assert not verify(task.rule, load_trace(folder, task_description=task.instruction)).ok
    assert json.loads((folder / "oracle.json").read_text())["ok"] is False
