"""The v2 loop end to end on SimPhone with scripted role brains (no model weights here): planner,
decider with the perception list and memory, reflector that sends a wrong page back, every role call in
steps.jsonl, and the task's rule and oracle judging the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.agent.loop_support import assert_went_back_from_the_wrong_page, read_steps, run_multi
from tests.support.role_brains import ScriptedRoleBrain, act, element

from droidpilot.agent.brains.base import BrainRequest

DATE = "Sunday, November 22, 2026"


def _remembered(request: BrainRequest) -> str:
    line = next(ln for ln in request.prompt.splitlines() if ln.startswith("Important content remembered:"))
    return line.split(":", 1)[1].strip()


def _type_remembered(request: BrainRequest) -> str:
    return act(f"type (Today is {_remembered(request)})", "type the date I remembered")


def _reflect(request: BrainRequest) -> str:
    after = next(ln for ln in request.prompt.splitlines() if ln.startswith("Texts on the screen after:"))
    if "Inbox" in after:
        return "Outcome: B\nError: this is Mail, not Notes"
    return "Outcome: A\nError: None"


def _run(brain: ScriptedRoleBrain, folder: Path, ocr_engine: Any) -> dict[str, Any]:
    return run_multi(brain, folder, ocr_engine, "v2")


def test_v2_completes_a_two_app_task_with_memory_and_list_numbers(ocr_engine: Any, tmp_path: Path) -> None:
    brain = ScriptedRoleBrain([
        act("open App (Calendar)", "see today's date"),
        act("exit", "the date is on screen; keep it", memory=DATE),
        lambda r: act(f"tap {element(r.prompt, 'Notes')}", "open Notes from the list"),
        act("click icon (plus, bottom right)", "new note"),
        _type_remembered,
        act("click icon (black arrow, top right)", "save"),
        act("stop", "done"),
    ], {"planner": "Progress: working through the task", "reflector": _reflect})
    row = _run(brain, tmp_path / "t", ocr_engine)
    assert row["termination"] == "completed" and row["loop"] == "v2"
    assert row["su"] == 1 and row["su_oracle"] == 1, row
    steps = read_steps(tmp_path / "t")
    assert [s["action"]["name"] for s in steps] == ["open_app", "exit", "tap", "click_icon", "type",
                                                    "click_icon", "stop"]
    assert steps[2]["reply_format"] == "element" and steps[2]["grounding"]["target"] == "Notes"
    assert steps[4]["action"]["text"] == f"type (Today is {DATE})"
    assert all(s["perception"] and s["perception"][0]["n"] == 1 for s in steps)
    roles = [[e["role"] for e in s["roles"]] for s in steps]
    assert roles[0] == ["decider", "reflector"]
    assert roles[1] == ["planner", "decider", "reflector"] and roles[-1] == ["planner", "decider"]
    entry = steps[1]["roles"][0]
    assert {"prompt", "reply", "parsed", "prompt_tokens", "latency_s", "model"} <= set(entry)
    assert brain.count("planner") == 6 and brain.count("reflector") == 6


def test_v2_reflector_sends_a_wrong_page_back(ocr_engine: Any, tmp_path: Path) -> None:
    brain = ScriptedRoleBrain([
        act("open App (Calendar)"),
        act("exit", memory=DATE),
        lambda r: act(f"tap {element(r.prompt, 'Mail')}", "Notes, I think"),
        lambda r: act(f"tap {element(r.prompt, 'Notes')}", "wrong page before: now Notes")
        if "wrong page" in r.prompt else act("stop", "the feedback did not arrive"),
        act("click icon (plus, bottom right)"),
        _type_remembered,
        act("click icon (black arrow, top right)"),
        act("stop"),
    ], {"planner": "Progress: going on", "reflector": _reflect})
    row = _run(brain, tmp_path / "t", ocr_engine)
    assert row["su"] == 1 and row["su_oracle"] == 1, row
    assert_went_back_from_the_wrong_page(tmp_path / "t", "wrong page")


def test_v2_unreadable_decider_reply_gets_the_corrective_reprompt(ocr_engine: Any, tmp_path: Path) -> None:
    brain = ScriptedRoleBrain([
        "I would like to open the calendar app now.",  # no Action line
        act("open App (Calendar)"),
        act("exit", memory=DATE),
        lambda r: act(f"tap {element(r.prompt, 'Notes')}"),
        "Thought: the list\nAction: tap 999",  # no such element: re-prompted with the list size
        act("click icon (plus, bottom right)"),
        _type_remembered,
        act("click icon (black arrow, top right)"),
        act("stop"),
    ], {"planner": "I think things are going well.",  # no Progress line, then a readable one
        "reflector": _reflect})
    brain.roles["planner"] = _flaky("Progress: on the way")
    row = _run(brain, tmp_path / "t", ocr_engine)
    assert row["su"] == 1, row
    steps = read_steps(tmp_path / "t")
    first = steps[0]["roles"][0]
    assert first["role"] == "decider" and "Unknown action 'I would like" in first["reprompt"]["error"]
    assert first["reprompt"]["prompt"].endswith("Answer again in exactly the form asked for.")
    assert first["parsed"]["action"]["name"] == "open_app"
    fourth = steps[3]["roles"][1]
    assert "no element 999" in fourth["reprompt"]["error"]
    planner = steps[1]["roles"][0]
    assert planner["role"] == "planner" and "no 'Progress:' line" in planner["reprompt"]["error"]
    assert planner["parsed"] == "on the way"


def _flaky(good: str) -> Any:
    calls = {"n": 0}

    def answer(request: BrainRequest) -> str:
        calls["n"] += 1
        return "I think things are going well." if calls["n"] == 1 else good
    return answer
