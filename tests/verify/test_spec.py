"""Loading rules: fields, defaults, source lines, JSON, warnings and the repairs that warn."""

from __future__ import annotations

import json
import logging
import textwrap
from pathlib import Path

import pytest

from droidpilot.errors import InputError
from droidpilot.verify.spec import RuleError, load_rule, load_rule_text, validate_task

RULE = textwrap.dedent("""\
    task_id: search_demo
    app_id: com.example.shop
    task_type: search
    description: search for a thing
    extra_field: kept
    nodes:
      - id: open_search
        name: open the search page
        condition:
          type: ui_flag
          params: {key: screen, equals: search}
        next: [typed]
      - id: typed
        condition:
          type: escalate
          params:
            text: {any: [search]}
            action: {type: action_match, params: {type: input}}
        score: 25
      - id: done
        deps: [typed]
    success:
      any_of: [done]
    """)


def test_loads_fields_defaults_and_lines() -> None:
    task = load_rule_text(RULE)
    assert task.task_id == "search_demo" and task.app_id == "com.example.shop"
    assert task.model_extra == {"extra_field": "kept"}
    assert [n.id for n in task.nodes] == ["open_search", "typed", "done"]
    assert [n.line for n in task.nodes] == [7, 13, 20]
    assert task.node("open_search").score == 10.0
    assert task.node("typed").score == 25
    assert task.node("done").condition is None
    assert task.node("done").deps == ["typed"]
    # the nested form {type, params} is accepted and kept as written
    nested = {"type": "action_match", "params": {"type": "input"}}
    assert task.node("typed").condition.params["action"] == nested
    assert task.success_targets() == ("any", ["done"])
    assert task.warnings == []


def test_load_rule_from_yaml_and_json_files(tmp_path: Path) -> None:
    yaml_path = tmp_path / "rule.yml"
    yaml_path.write_text(RULE, encoding="utf-8")
    task = load_rule(yaml_path)
    assert task.source == yaml_path

    data = load_rule_text(RULE).model_dump()
    json_path = tmp_path / "rule.json"
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    from_json = load_rule(json_path)
    assert from_json.source == json_path
    assert [n.id for n in from_json.nodes] == ["open_search", "typed", "done"]
    assert all(isinstance(n.line, int) for n in from_json.nodes)  # YAML reads this JSON identically


def test_json_syntax_error_names_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "nodes": [\n    {"id": "a",}\n  ]\n}\n', encoding="utf-8")
    with pytest.raises(RuleError) as err:
        load_rule(path)
    (problem,) = err.value.problems
    assert problem.file == str(path) and problem.line == 3
    assert "JSON syntax error" in problem.message and problem.fix


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="rule file not found"):
        load_rule(tmp_path / "nope.yaml")


def test_yaml_is_loaded_safely() -> None:
    text = RULE.replace("extra_field: kept", "extra_field: !!python/object/apply:os.system ['true']")
    with pytest.raises(RuleError, match="could not determine a constructor"):
        load_rule_text(text)


def test_deps_and_next_warning_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    text = RULE.replace("    score: 25\n", "    score: 25\n    next: [done]\n")
    with caplog.at_level(logging.WARNING, logger="droidpilot.verify.spec"):
        task = load_rule_text(text, source="r.yaml")
    assert len(task.warnings) == 1
    warning = task.warnings[0]
    assert warning.startswith("r.yaml:21: node 'done': has deps ['typed'] and is also named in next of "
                              "['typed']")
    assert warning in caplog.text


def test_dead_end_node_warning() -> None:
    text = RULE.replace("success:", "  - id: side_trip\n    deps: [open_search]\nsuccess:")
    task = load_rule_text(text)
    assert len(task.warnings) == 1
    assert "node 'side_trip': no success node (any_of ['done']) can be reached from here" in task.warnings[0]


def test_condition_key_beside_type_is_moved_under_params_with_a_warning() -> None:
    text = textwrap.dedent("""\
        nodes:
          - id: a
            condition:
              type: escalate
              text: {any: [go]}
        """)
    task = load_rule_text(text)
    assert task.node("a").condition.params == {"text": {"any": ["go"]}}
    assert task.warnings == ["<string>:5: node 'a': 'text' stands beside type: instead of under params:; "
                             "read as params.text — indent 'text' under params:"]


def test_stray_colon_in_parameter_name_is_repaired_with_a_warning() -> None:
    text = textwrap.dedent("""\
        nodes:
          - id: a
            condition:
              type: juxtaposition
              params:
                text:
                  all:: [search, q]
        """)
    task = load_rule_text(text)
    assert task.node("a").condition.params["text"] == {"all": ["search", "q"]}
    assert len(task.warnings) == 1
    assert "<string>:7: node 'a': juxtaposition.text: parameter 'all:' has a stray ':'" in task.warnings[0]


def test_numbers_given_for_text_fields_are_read_as_text() -> None:
    task = load_rule_text("task_id: 2024\nnodes:\n  - id: 7\n    deps: []\n")
    assert task.task_id == "2024" and task.nodes[0].id == "7"


def test_numeric_ids_can_be_referred_to_as_written() -> None:
    # the id was read as text but deps: [7] was "not a list of node ids"
    task = load_rule_text("nodes:\n  - id: 7\n    next: [8]\n  - id: 8\n  - id: c\n    deps: [7, 8]\n"
                          "success: {all_of: [c, 8]}\n")
    assert task.node("c").deps == ["7", "8"] and task.nodes[0].next == ["8"]
    assert task.success_targets() == ("all", ["c", "8"])
    with pytest.raises(RuleError, match="'deps' must be a list of node ids"):
        load_rule_text("nodes:\n  - id: a\n  - id: b\n    deps: [true]\n")


def test_no_success_means_sinks() -> None:
    task = load_rule_text("nodes:\n  - id: a\n    next: [b, c]\n  - id: b\n  - id: c\n")
    assert task.success_targets() == ("any", ["b", "c"])
    assert task.warnings == []


def test_perception_types_are_valid_even_when_not_installed() -> None:
    text = "nodes:\n  - id: a\n    condition:\n      type: icons_match\n      params: {whatever: 1}\n"
    from droidpilot.verify.checkers.base import _REGISTRY

    saved = _REGISTRY.pop("icons_match", None)
    try:
        task = load_rule_text(text)
    finally:
        if saved is not None:
            _REGISTRY["icons_match"] = saved
    assert task.node("a").condition.type == "icons_match"


def test_validate_task_checks_tasks_built_in_python() -> None:
    task = load_rule_text(RULE)
    task.nodes[2].deps = ["typo_node"]
    with pytest.raises(RuleError, match="deps names 'typo_node', which is not a node"):
        validate_task(task)
