"""The E loop end to end on SimPhone with scripted role brains (no model weights here): manager,
perceptor, operator, action reflector, notetaker; a shortcut learnt on one task and used on the next (fewer
model calls, same verdict); a shortcut whose precondition fails is refused with feedback; bad replies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.agent.loop_support import assert_went_back_from_the_wrong_page, read_steps, run_multi
from tests.support.role_brains import ScriptedRoleBrain, act, element

from droidpilot.agent.brains.base import BrainRequest
from droidpilot.agent.memory.store import MemoryStore

NOTE = "Today is Sunday, November 22, 2026"
SHORTCUT = """Here is what is worth keeping:
```yaml
shortcuts:
  - name: write_note
    description: write a new note from the home screen
    params: [text]
    precondition: {screen_shows: Notes}
    steps: ["open App (Notes)", "click icon (plus, bottom right)", "type ({text})",
            "click icon (black arrow, top right)"]
```"""


def _roles(shortcuts: str = "```yaml\nshortcuts: []\n```") -> dict[str, Any]:
    def manager(request: BrainRequest) -> str:
        return "Plan: 1. read the date in Calendar 2. write it in a new note\nSubgoal: " + (
            "read the date" if "No operations yet" in request.prompt else "write the note")

    def notetaker(request: BrainRequest) -> str:
        return f"Notes: the date is {NOTE[9:]}" if "November 22" in request.prompt else "Notes: None"

    return {"manager": manager, "reflector": "Outcome: A\nError: None", "notetaker": notetaker,
            "tip_reflector": "```yaml\ntips:\n  - Go home (exit) before opening the next app\n```",
            "shortcut_reflector": shortcuts}


def _run(brain: ScriptedRoleBrain, folder: Path, ocr_engine: Any, memory: Path) -> dict[str, Any]:
    return run_multi(brain, folder, ocr_engine, "e", memory)


ATOMIC = [act("open App (Calendar)"), act("exit"),
          lambda r: act(f"tap {element(r.prompt, 'Notes')}"),
          act("click icon (plus, bottom right)"), act(f"type ({NOTE})"),
          act("click icon (black arrow, top right)"), act("stop")]


def test_e_learns_a_shortcut_and_uses_it_on_the_next_task(ocr_engine: Any, tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    first = ScriptedRoleBrain(list(ATOMIC), _roles(SHORTCUT))
    row1 = _run(first, tmp_path / "t1", ocr_engine, memory)
    assert row1["su"] == 1 and row1["su_oracle"] == 1, row1
    assert row1["loop"] == "e" and row1["memory_version"] == 0 and row1["memory_version_after"] == 1
    saved = yaml.safe_load((memory / "memory-v0001.yaml").read_text())
    assert [s["name"] for s in saved["shortcuts"]] == ["write_note"]
    assert saved["tips"] == ["Go home (exit) before opening the next app"]
    steps = read_steps(tmp_path / "t1")
    assert [e["role"] for e in steps[0]["roles"]] == ["manager", "perceptor", "operator", "reflector",
                                                      "notetaker"]
    assert steps[-1]["phase"] == "experience" and steps[-1]["memory_version_after"] == 1

    def use_shortcut(request: BrainRequest) -> str:
        assert "shortcut write_note(text=...)" in request.prompt
        return act(f'shortcut write_note(text="{NOTE}")', "the learnt shortcut does the rest")

    second = ScriptedRoleBrain([act("open App (Calendar)"), act("exit"), use_shortcut, act("stop")],
                               _roles())
    row2 = _run(second, tmp_path / "t2", ocr_engine, memory)
    assert row2["su"] == row1["su"] == 1 and row2["su_oracle"] == 1, row2
    assert row2["memory_version"] == 1
    assert row2["model_calls"] < row1["model_calls"]
    assert (row1["steps"], row2["steps"]) == (6, 3)  # stop and the learning after the task are no steps
    steps = read_steps(tmp_path / "t2")
    call = steps[2]
    assert call["action"]["name"] == "shortcut" and len(call["frames"]) == 4
    assert [s["status"] for s in call["shortcut"]["steps"]] == ["ok"] * 4
    actions = json.loads((tmp_path / "t2" / "actions.json").read_text())["actions"]
    assert [a["type"] for a in actions] == ["click", "home", "click", "click", "input", "click", "done"]
    assert actions[4]["text"] == NOTE
    # the second task's reflection keeps the shortcut (no new one) in the next version
    again = yaml.safe_load((memory / "memory-v0002.yaml").read_text())
    assert row2["memory_version_after"] == 2 and [s["name"] for s in again["shortcuts"]] == ["write_note"]


def test_a_shortcut_whose_precondition_fails_is_refused_with_feedback(ocr_engine: Any,
                                                                      tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    MemoryStore(memory).save(_memory_with_shortcut())
    brain = ScriptedRoleBrain([
        act("open App (Calendar)"),
        act(f'shortcut write_note(text="{NOTE}")', "straight from the calendar"),
        lambda r: act("exit", "the shortcut needs the home screen")
        if "precondition does not hold" in r.prompt else act("stop", "no feedback came"),
        act(f'shortcut write_note(text="{NOTE}")'),
        act("stop"),
    ], _roles())
    row = _run(brain, tmp_path / "t", ocr_engine, memory)
    assert row["su"] == 1, row
    refused = read_steps(tmp_path / "t")[1]
    assert refused["outcome"] == "shortcut_precondition_failed" and "frames" not in refused
    assert refused["shortcut"]["precondition"] == {"screen_shows": "Notes", "holds": False}
    assert "does not show \"Notes\"" in refused["feedback_next"]


def test_unreadable_role_replies_get_one_corrective_reprompt(ocr_engine: Any, tmp_path: Path) -> None:
    answers = iter(["The manager thinks we should start.", "Plan: 1. all\nSubgoal: do it"])
    roles = _roles("```yaml\nshortcuts:\n  - name: bad name\n    steps: [fly away]\n```")
    roles["manager"] = lambda r: next(answers, "Plan: 1. all\nSubgoal: do it")
    brain = ScriptedRoleBrain(list(ATOMIC), roles)
    row = _run(brain, tmp_path / "t", ocr_engine, tmp_path / "memory")
    assert row["su"] == 1, row
    steps = read_steps(tmp_path / "t")
    manager = steps[0]["roles"][0]
    assert "no 'Subgoal:' line" in manager["reprompt"]["error"] and manager["parsed"]["subgoal"] == "do it"
    learnt = next(e for e in steps[-1]["roles"] if e["role"] == "shortcut_reflector")
    assert "name 'bad name'" in learnt["reprompt"]["error"] and "error" in learnt
    saved = yaml.safe_load((tmp_path / "memory" / "memory-v0001.yaml").read_text())
    assert saved["shortcuts"] == []  # the invalid shortcut was never stored; the tips were


def _memory_with_shortcut() -> Any:
    from droidpilot.agent.memory.learn import merged, parse_shortcuts
    from droidpilot.agent.memory.store import Memory

    return merged(Memory(), None, parse_shortcuts(SHORTCUT, "a test"), "a test")


@pytest.mark.parametrize("reply, error", [
    ("```yaml\nshortcuts:\n  - name: s\n    steps: [\"type ({query})\"]\n```", "not in params"),
    ("```yaml\nshortcuts:\n  - name: s\n    steps: [stop]\n```", "may not stop"),
    ("```yaml\nshortcuts: {name: s}\n```", "must be a list"),
    ("```yaml\nshortcuts:\n  - name: s\n    precondition: {app: Notes}\n    steps: [back]\n```",
     "precondition must be"),
    ("shortcuts: [", "cannot be read"),
])
def test_near_miss_shortcuts_are_refused(reply: str, error: str) -> None:
    from droidpilot.agent.loops.role_replies import RoleReplyError
    from droidpilot.agent.memory.learn import parse_shortcuts

    with pytest.raises(RoleReplyError, match=error):
        parse_shortcuts(reply, "t")


def test_differently_written_shortcut_calls_are_read() -> None:
    from droidpilot.agent.memory.shortcuts import parse_call

    assert parse_call('shortcut write_note(text="a, b")') == ("write_note", {"text": "a, b"})
    assert parse_call("Shortcut: write_note( text = hello )") == ("write_note", {"text": "hello"})
    assert parse_call("快捷操作 go_home") == ("go_home", {})
    assert parse_call("open App (Notes)") is None


def _reflect_mail_is_wrong(request: BrainRequest) -> str:
    after = next(ln for ln in request.prompt.splitlines() if ln.startswith("Texts on the screen after:"))
    return "Outcome: B\nError: this is Mail, not Notes" if "Inbox" in after else "Outcome: A\nError: None"


def test_e_action_reflector_sends_a_wrong_page_back(ocr_engine: Any, tmp_path: Path) -> None:
    """The action reflector's "wrong page" makes the loop press back (recorded), as v2 does; the operator
    then picks again from the home screen with the feedback in its prompt."""
    roles = _roles()
    roles["reflector"] = _reflect_mail_is_wrong
    brain = ScriptedRoleBrain([
        act("open App (Calendar)"), act("exit"),
        lambda r: act(f"tap {element(r.prompt, 'Mail')}", "Notes, I think"),
        lambda r: act(f"tap {element(r.prompt, 'Notes')}", "back on the home screen: now Notes")
        if "wrong page" in r.prompt and "Inbox" not in r.prompt else act("stop", "still on the wrong page"),
        act("click icon (plus, bottom right)"), act(f"type ({NOTE})"),
        act("click icon (black arrow, top right)"), act("stop"),
    ], roles)
    row = _run(brain, tmp_path / "t", ocr_engine, tmp_path / "memory")
    assert row["su"] == 1 and row["su_oracle"] == 1, row
    assert_went_back_from_the_wrong_page(tmp_path / "t", "the team went back")
