"""dynamic_match: the task description's trigger keywords choose which keywords must appear."""

from __future__ import annotations

from droidpilot.verify.checkers import get_checker
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions

PARAMS = {
    "fields": ["text", "action.text"],
    "rules": [
        {"trigger": ["搜索", "search"], "any": ["搜索", "search"]},
        {"trigger": "购物车", "all": ["加入", "购物车"], "fields": ["reasoning"]},
    ],
}


def frame(description: str, **kw: object) -> Frame:
    return Frame(index=0, task_description=description, **kw)  # type: ignore[arg-type]


def test_declarations() -> None:
    checker = get_checker("dynamic_match")
    assert checker.reads == "action"
    assert set(checker.params_spec) == {"rules", "default", "fields", "ignore_case"}


def test_first_matching_trigger_chooses_the_rule() -> None:
    checker = get_checker("dynamic_match")
    hit = checker.run(frame("Search for coffee", action={"text": "SEARCH coffee"}), PARAMS, None)
    assert hit.yes
    assert hit.details["rule"] == 0 and hit.details["trigger"] == "search"
    assert hit.details["fields"] == ["text", "action.text"]
    miss = checker.run(frame("search for coffee", text="opened the cart"), PARAMS, None)
    assert miss.no and "rule 0" in miss.reason


def test_rule_fields_override_the_top_level_fields() -> None:
    checker = get_checker("dynamic_match")
    params = PARAMS
    assert checker.run(frame("把咖啡加入购物车", reasoning="点击加入购物车"), params, None).yes
    # the keywords are in text, but this rule only reads reasoning
    result = checker.run(frame("把咖啡加入购物车", text="加入购物车"), params, None)
    assert result.no and result.details["missing"] == ["加入", "购物车"]


def test_default_and_no_default() -> None:
    checker = get_checker("dynamic_match")
    with_default = {**PARAMS, "default": {"any": ["done"]}}
    result = checker.run(frame("play music", text="task done"), with_default, None)
    assert result.yes and result.details["rule"] == "default"
    result = checker.run(frame("play music", text="task done"), PARAMS, None)
    assert result.no
    assert result.reason == "no trigger matched the task description 'play music' and there is no default"


def test_task_description_falls_back_to_options() -> None:
    options = VerifierOptions(extra={"task_description": "search tea"})
    assert get_checker("dynamic_match").run(Frame(index=0, text="search"), PARAMS, options).yes


def test_validate() -> None:
    checker = get_checker("dynamic_match")
    assert checker.validate(PARAMS) == []
    assert checker.validate({}) == [
        "dynamic_match needs 'rules' (a list of {trigger, any|all}) and/or 'default'"]
    problems = checker.validate({"rules": [{"triger": ["x"], "any": "y"}, "oops", {"trigger": "t"}],
                                 "default": {"fields": "text", "any": ["z"]}})
    assert problems == [
        "rules[0] has unknown key 'triger' (did you mean 'trigger'?); allowed: trigger, any, all, fields",
        "rules[0] needs 'trigger': keywords of the task description",
        "rules[1] must be a mapping like {trigger: [...], any: [...]}",
        "rules[2]: the rule needs 'any' or 'all' with at least one keyword",
        "default.fields must be a list of field names such as [text, action.text]",
    ]
