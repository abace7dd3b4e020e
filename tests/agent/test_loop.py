"""The loop end to end on a Pillow-drawn phone with real OCR and icon localization and the replay brain:
grounding through open App, click icon and the 2-4 candidate choice; feedback; reflection; limits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from droidpilot.agent.brains.replay import ReplayBrain
from droidpilot.agent.loop import Agent, Limits
from droidpilot.verify.engine import verify
from droidpilot.verify.spec import load_rule_text
from droidpilot.verify.trace import load_trace

RULE = """
task_id: paper-save
app_id: paper
description: open notes, press the red button, save
nodes:
  - id: opened
    condition: {type: action_match, params: {type: click, contains: {text: Notes}}}
  - id: liked
    deps: [opened]
    condition: {type: action_match, params: {type: click, contains: {text: red circle}}}
  - id: saved
    deps: [liked]
    condition: {type: action_match, params: {type: click, contains: {text: Save}}}
  - id: done
    deps: [saved]
    condition: {type: action_match, params: {type: done}}
"""


def _reply(action: str, thought: str = "next") -> str:
    return f"Observation: a screen\nThought: {thought}\nAction: {action}"


def _steps(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]


def test_replay_run_grounds_app_icon_and_ambiguous_text(paper_phone: Any, ocr_engine: Any,
                                                        tmp_path: Path) -> None:
    brain = ReplayBrain([
        _reply("open App (Notes)"),
        _reply("click icon (red circle, bottom right)"),
        _reply("click text (Save)"),
        {"text": "2", "kind": "choose"},
        _reply("stop"),
        {"text": "Completed: yes\nReason: saved", "kind": "complete"},
    ])
    result = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path / "t").run("Save a note")
    assert result.termination == "completed" and result.completed
    assert paper_phone.state() == {"screen": "saved", "liked": True, "typed": []}
    assert result.actions == 3 and result.model_calls == 6
    folder = tmp_path / "t"
    actions = json.loads((folder / "actions.json").read_text())["actions"]
    assert [a["type"] for a in actions] == ["click", "click", "click", "done"]
    icon_x, icon_y = actions[0]["position_x"], actions[0]["position_y"]
    assert 60 <= icon_x <= 200 and 150 <= icon_y <= 350  # the icon above the label, or the label
    assert actions[1]["bounds"][0] >= 380 and actions[1]["position_y"] > 950  # the red circle
    assert actions[2]["position_y"] > 880  # the second "Save": the one the brain chose
    steps = _steps(folder)
    choice_step = steps[2]
    assert choice_step["grounding"]["status"] == "ambiguous"
    assert len(choice_step["grounding"]["candidates"]) == 2 and choice_step["grounding"]["chosen"] == 2
    assert choice_step["choice"]["number"] == 2
    assert all(set(s["timings"]) == {"perception", "model", "device"} for s in steps)
    run = json.loads((folder / "run.json").read_text())
    assert run["termination"] == "completed" and run["final_state"]["screen"] == "saved"
    verdict = verify(load_rule_text(RULE), load_trace(folder))
    assert verdict.ok, verdict.reason


def test_not_found_feedback_offers_the_closest_texts(paper_phone: Any, ocr_engine: Any,
                                                     tmp_path: Path) -> None:
    brain = ReplayBrain([_reply("open App (Notes)"), _reply("click text (New notes list)"),
                         _reply("click text (New note)")])
    result = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path,
                   limits=Limits(max_steps=3)).run("Open the new note")
    assert result.termination == "max_steps"
    steps = _steps(tmp_path)
    assert steps[1]["outcome"] == "grounding_not_found"
    assert '"New note"' in steps[1]["feedback_next"]
    # The feedback reached the brain's next prompt.
    assert "New note" in steps[2]["prompt"].split("Feedback on your last action:")[1]
    # Tapping "New note" changes nothing on that screen: reflection says so.
    assert steps[2]["outcome"] == "unchanged" and "did not change" in steps[2]["feedback_next"]


def test_unparseable_reply_gets_one_reprompt_quoting_the_grammar(paper_phone: Any, ocr_engine: Any,
                                                                  tmp_path: Path) -> None:
    brain = ReplayBrain([_reply("dance wildly"), _reply("click text (Mail)"), _reply("stop"),
                         "Completed: yes"])
    Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path).run("Open Mail")
    steps = _steps(tmp_path)
    assert steps[0]["outcome"] == "ok" and steps[0]["action"]["text"] == "click text (Mail)"
    reprompt = steps[0]["reprompt"]
    assert "Unknown action" in reprompt["error"] and "Answer in this format" in reprompt["prompt"]
    assert "dance wildly" in steps[0]["response"] and "click text (Mail)" in reprompt["response"]
    assert [c["kind"] for c in steps[0]["calls"]] == ["operate", "operate"]


def test_unparseable_twice_is_a_failed_step_and_repeated_failure_ends_the_run(
        paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    brain = ReplayBrain([_reply("dance wildly"), "still no idea", _reply("back"), _reply("back"),
                         _reply("back"), _reply("back")])
    result = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path,
                   limits=Limits(max_repeated_failures=3)).run("Open Mail")
    steps = _steps(tmp_path)
    assert steps[0]["outcome"] == "parse_error" and "Unknown action" in steps[0]["feedback_next"]
    assert steps[0]["response"].endswith("dance wildly")
    assert steps[0]["reprompt"]["response"] == "still no idea"
    assert paper_phone.screen == "home"
    # On the home screen "back" changes nothing: three of them in a row end the run.
    assert result.termination == "repeated_failing_action"
    assert json.loads((tmp_path / "actions.json").read_text())["actions"][-1]["type"] == "done"


def test_completion_check_can_refuse_a_stop(paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    brain = ReplayBrain([_reply("stop"), "Completed: no\nReason: nothing was saved.",
                         _reply("open App (Mail)"), _reply("stop"), "Completed: yes"])
    result = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path).run("Open Mail")
    assert result.completed and paper_phone.screen == "mail"
    steps = _steps(tmp_path)
    assert steps[0]["outcome"] == "not_completed" and "nothing was saved" in steps[0]["feedback_next"]


def test_brain_error_and_limits_end_with_a_reason(paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    result = Agent(paper_phone, ReplayBrain([_reply("wait")]), ocr_engine=ocr_engine,
                   out_dir=tmp_path / "a").run("Wait")
    assert result.termination == "brain_error" and "replay exhausted" in result.error
    result = Agent(paper_phone, ReplayBrain([_reply("wait")] * 5), ocr_engine=ocr_engine,
                   out_dir=tmp_path / "b", limits=Limits(max_model_calls=2)).run("Wait")
    assert result.termination == "max_model_calls" and result.model_calls == 2


def test_extended_actions_convert_coordinates_once(paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    brain = ReplayBrain([_reply("tap (250, 541)")], coord_space="thousand")  # 0-1000 of 540x1200
    Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path, limits=Limits(max_steps=1)).run("x")
    assert paper_phone.taps == [(135, 649)]
    action = json.loads((tmp_path / "actions.json").read_text())["actions"][0]
    assert (action["position_x"], action["position_y"]) == (135, 649)


def test_a_crashing_device_backend_ends_the_run_and_keeps_the_trace(paper_phone: Any, ocr_engine: Any,
                                                                    tmp_path: Path) -> None:
    def broken() -> Any:
        raise RuntimeError("renderer exploded")

    brain = ReplayBrain([_reply("open App (Notes)"), _reply("back")])
    agent = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path)
    original = paper_phone.tap

    def tap_then_break(x: int, y: int) -> None:
        original(x, y)
        paper_phone.screenshot = broken  # the next screenshot fails
    paper_phone.tap = tap_then_break
    result = agent.run("Open notes")
    assert result.termination == "device_error" and "renderer exploded" in result.error
    assert json.loads((tmp_path / "run.json").read_text())["termination"] == "device_error"
    assert load_trace(tmp_path).frames  # still a readable trace


def test_a_checkpoint_pauses_and_stops_the_run(paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    from droidpilot.agent.loop import StopRequested

    calls: list[int] = []

    def checkpoint() -> bool:
        calls.append(len(calls))
        if len(calls) == 2:  # a person operated the phone between steps 1 and 2
            paper_phone.tap(10, 10)
            return True
        if len(calls) == 3:
            raise StopRequested("stopped from the studio")
        return False

    brain = ReplayBrain([_reply("wait")] * 5)
    agent = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path, checkpoint=checkpoint)
    result = agent.run("Wait")
    assert result.termination == "stopped" and result.error == "stopped from the studio"
    assert result.steps == 2 and calls == [0, 1, 2]
    assert json.loads((tmp_path / "run.json").read_text())["termination"] == "stopped"


def test_a_markdown_reply_acts_without_a_reprompt_and_two_actions_get_one(paper_phone: Any, ocr_engine: Any,
                                                                          tmp_path: Path) -> None:
    markdown = ("### Observation\nThe home screen.\n\n### Thought\nMail holds the inbox; the example "
                "`click text (Notes)` is not what I need.\n\n### Action\n```\nclick text (Mail)\n```")
    two = "### Thought\nEither works.\n### Action\nclick text (Mail)\n### Action\nback"
    brain = ReplayBrain([markdown, two, _reply("stop"), "Completed: yes"])
    Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path).run("Open Mail")
    steps = _steps(tmp_path)
    assert steps[0]["action"]["text"] == "click text (Mail)" and "reprompt" not in steps[0]
    assert [c["kind"] for c in steps[0]["calls"]] == ["operate"]
    assert "two different actions" in steps[1]["reprompt"]["error"]
