"""``{task_description}`` / ``{{task_description}}`` filled through nested parameters, nothing else."""

from __future__ import annotations

from droidpilot.verify.placeholders import fill_placeholders, has_placeholder


def test_both_spellings_are_filled_recursively_and_a_new_object_is_returned() -> None:
    params = {
        "llm": {"prompt": "任务`{{task_description}}`完成了吗？", "expected_true": True},
        "ocr": {"any": ["{task_description}", "plain"]},
        "nested": [{"deep": ["x {task_description} y"]}],
        "score": 3,
    }
    filled = fill_placeholders(params, "买一杯咖啡")
    assert filled == {
        "llm": {"prompt": "任务`买一杯咖啡`完成了吗？", "expected_true": True},
        "ocr": {"any": ["买一杯咖啡", "plain"]},
        "nested": [{"deep": ["x 买一杯咖啡 y"]}],
        "score": 3,
    }
    assert params["llm"]["prompt"] == "任务`{{task_description}}`完成了吗？"  # the input is untouched
    assert filled is not params and filled["nested"] is not params["nested"]


def test_other_braces_and_backslashes_are_left_alone() -> None:
    params = {"pattern": r"\d{2,4}", "prompt": "{other} {{ x }} task_description {task}"}
    assert fill_placeholders(params, "t") == params
    assert fill_placeholders("{task_description}", r"C:\new\1") == r"C:\new\1"


def test_has_placeholder() -> None:
    assert has_placeholder({"a": ["{{task_description}}"]})
    assert not has_placeholder({"a": ["task_description", 1, None]})
