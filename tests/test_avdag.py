"""Scripts written for MobiFlow's ``avdag`` run unchanged on droidpilot's facade."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from avdag.conditions import ConditionChecker, get_checker, register_condition
from avdag.loader import load_task
from avdag.types import Frame, VerifierOptions
from avdag.verifier import verify, verify_task_folder
from droidpilot.verify.examples import example_dir

RULE = """
task_id: mobiflow_style
app_id: com.example.notes
description: write a note
nodes:
  - id: opened
    name: notes app open
    next: [typed]
    condition:
      type: keyword_in_text
      params: {keyword: "notes"}
  - id: typed
    name: typed the note
    next: [saved]
    condition:
      type: escalate
      params:
        text: {any: ["typed"]}
        llm: {prompt: "Did the agent type {task_description}?"}
  - id: saved
    condition:
      type: keyword_in_text
      params: {keyword: "saved"}
success:
  any_of: [saved]
"""


@register_condition("keyword_in_text")
class KeywordInText(ConditionChecker):
    """A MobiFlow checker: returns a plain bool from the frame dict."""

    def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> bool:
        return params["keyword"] in frame.get("text", "")


def test_a_mobiflow_script_runs_unchanged(tmp_path: Path) -> None:
    rule = tmp_path / "task.yaml"
    rule.write_text(RULE, encoding="utf-8")
    asked: list[dict[str, Any]] = []

    def llm(ctx: dict[str, Any]) -> bool:
        asked.append(ctx)
        return "buy milk" in ctx["frame"].get("text", "")

    task = load_task(str(rule))
    frames = [
        {"text": "notes app home", "task_description": "buy milk"},
        {"text": "wrote buy milk", "action": {"type": "input", "text": "buy milk"}},
        {"text": "note saved"},
    ]
    options = VerifierOptions(escalation_order=["text", "llm"], llm=llm, log_decisions=True)
    result = verify(frames, task, options)
    assert result.ok, result.reason
    assert [(m.node_id, m.frame_index) for m in result.matched] == [("opened", 0), ("typed", 1), ("saved", 2)]
    assert result.total_score == 30 and not result.manual_review_needed
    assert asked and "buy milk" in asked[-1]["params"]["prompt"]  # placeholder filled from the frames
    assert result.logs and isinstance(result.reason, str)
    assert get_checker("keyword_in_text").check(frames[0], {"keyword": "notes"}) is True


def test_frames_may_be_droidpilot_frames_and_failures_explain_themselves(tmp_path: Path) -> None:
    rule = tmp_path / "task.yaml"
    rule.write_text(RULE, encoding="utf-8")
    frames = [Frame(index=0, text="notes"), Frame(index=1, text="idle"), Frame(index=2, text="saved")]
    result = verify(frames, load_task(rule), VerifierOptions())
    assert not result.ok
    assert result.manual_review_needed  # the llm could not be asked: undecided, not no
    assert "never met: typed" in result.reason


def test_verify_task_folder_reads_a_runner_folder() -> None:
    folder = example_dir()
    result = verify_task_folder(folder / "rule.yaml", folder / "trace")
    assert result.ok
    assert result.matched[-1].node_id == "finished" and result.matched[-1].frame_index == 4


def test_duck_typed_checker_without_the_base_class_registers_too() -> None:
    @register_condition("has_banner")
    class HasBanner:  # MobiFlow scripts sometimes skip the base class
        def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> bool | None:
            text = frame.get("text", "")
            return None if "?" in text else "banner" in text

    from avdag.types import Node, Task
    from droidpilot.verify.rule import Condition

    task = Task(nodes=[Node(id="b", condition=Condition(type="has_banner"))])
    assert verify([{"text": "none"}, {"text": "banner"}], task).ok
    unsure = verify([{"text": "?"}], task)
    assert not unsure.ok and unsure.manual_review_needed
