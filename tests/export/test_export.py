"""Exporting recorded gym rollouts: each format's records, coordinates as each expects, failed episodes
left out unless asked, and bad input named."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("gymnasium")

from droidpilot.errors import InputError
from droidpilot.export.formats import smart_resize
from droidpilot.export.writer import export
from droidpilot.gym.factories import world_env
from droidpilot.gym.recording import RecordTraces
from droidpilot.gym.reference import ReferencePolicy


@pytest.fixture(scope="module")
def rollouts(tmp_path_factory):
    out = tmp_path_factory.mktemp("rollouts")
    env = RecordTraces(world_env("contacts-add"), out)
    for seed in (3, 4):  # won by the reference
        env.reset(seed=seed)
        policy, done = ReferencePolicy(env.unwrapped.task), False
        while not done:
            _, _, terminated, truncated, _ = env.step(policy(env.unwrapped))
            done = terminated or truncated
    env.reset(seed=5)  # lost: opens the app, then stops
    env.step("Action: open App (Contacts)")
    env.step("Action: stop")
    return out, env.folders


def _read(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_androidcontrol_episodes_keep_pixels_and_step_instructions(rollouts, tmp_path):
    out, _ = rollouts
    summary = export([out], "androidcontrol", tmp_path / "ac.jsonl")
    assert (summary.episodes, summary.records) == (2, 2)
    assert any("failed; --include-failed keeps it" in s for s in summary.skipped)
    first = _read(tmp_path / "ac.jsonl")[0]
    assert first["goal"].startswith("Add a new contact named") and first["success"] is True
    kinds = [a["action_type"] for a in first["actions"]]
    assert kinds[0] == "open_app" and "input_text" in kinds
    clicks = [a for a in first["actions"] if a["action_type"] == "click"]
    assert all(0 <= a["x"] < 540 and 0 <= a["y"] < 1200 for a in clicks)
    assert len(first["screenshots"]) == len(first["actions"]) == len(first["step_instructions"])
    assert first["step_instructions"][0] == "Open Contacts" and "Tap Phone" in first["step_instructions"]
    assert first["screenshot_widths"][0] == 540


def test_qwen_records_scale_points_to_the_resized_image_and_end_with_terminate(rollouts, tmp_path):
    out, _ = rollouts
    export([out], "qwen-mobile-use", tmp_path / "q.jsonl")
    records = _read(tmp_path / "q.jsonl")
    assert smart_resize(540, 1200) == (532, 1204)
    calls = [json.loads(r["messages"][2]["content"].split("<tool_call>\n")[1].split("\n</tool_call>")[0])
             for r in records]
    clicks = [c["arguments"]["coordinate"] for c in calls if c["arguments"]["action"] == "click"]
    assert clicks and all(0 <= x <= 532 and 0 <= y <= 1204 for x, y in clicks)
    last = records[-1]["messages"][2]["content"]
    assert '"action": "terminate", "status": "success"' in last
    assert records[1]["messages"][1]["content"][1]["text"].endswith("Step 1: Open Contacts")


def test_sharegpt_records_have_one_image_per_image_tag(rollouts, tmp_path):
    out, _ = rollouts
    export([out], "sharegpt", tmp_path / "s.jsonl", include_failed=True)
    records = _read(tmp_path / "s.jsonl")
    assert {r["success"] for r in records} == {True, False}
    for r in records:
        assert r["messages"][0]["content"].count("<image>") == len(r["images"]) == 1
        assert r["messages"][1]["content"].startswith("Thought: ")
    assert any("Action: click text (Phone)" in r["messages"][1]["content"] for r in records)


def test_bad_input_is_named(tmp_path):
    with pytest.raises(InputError, match="holds no trace folder"):
        export([tmp_path], "sharegpt", tmp_path / "x.jsonl")
    with pytest.raises(InputError, match="not a folder"):
        export([tmp_path / "missing"], "sharegpt", tmp_path / "x.jsonl")
    with pytest.raises(InputError, match="--format 'alpaca' is not one of"):
        export([tmp_path], "alpaca", tmp_path / "x.jsonl")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "actions.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match=r"actions\.json: cannot read it as JSON"):
        export([broken], "sharegpt", tmp_path / "x.jsonl")


def test_the_command_writes_the_file_and_refuses_bad_input_without_a_traceback(rollouts, tmp_path):
    out, _ = rollouts
    target = tmp_path / "cli.jsonl"
    ok = subprocess.run([sys.executable, "-m", "droidpilot", "export", str(out), "--format", "androidcontrol",
                         "--out", str(target)], capture_output=True, text=True)
    assert ok.returncode == 0 and "2 episodes, 2 records" in ok.stdout and len(_read(target)) == 2
    bad = subprocess.run([sys.executable, "-m", "droidpilot", "export", str(tmp_path / "nope"), "--format",
                          "sharegpt", "--out", str(target)], capture_output=True, text=True)
    assert bad.returncode == 2 and "not a folder" in bad.stderr and "Traceback" not in bad.stderr
