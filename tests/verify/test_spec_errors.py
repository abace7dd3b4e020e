"""Every validation error: each names the file, the line, the node and a fix, and all come at once."""

from __future__ import annotations

import textwrap

import pytest

from droidpilot.verify.problems import RuleProblem
from droidpilot.verify.spec import RuleError, load_rule_text


def problems_of(text: str) -> list[RuleProblem]:
    with pytest.raises(RuleError) as err:
        load_rule_text(textwrap.dedent(text), source="rule.yaml")
    assert str(err.value) == "\n".join(str(p) for p in err.value.problems)
    return err.value.problems


def only_problem(text: str) -> RuleProblem:
    problems = problems_of(text)
    assert len(problems) == 1, problems
    assert problems[0].file == "rule.yaml"
    return problems[0]


def test_malformed_yaml_gives_line_and_column() -> None:
    p = only_problem("""\
        nodes:
          - id: a
            next: [b]
            - c
          - id: b
        """)
    assert p.line == 4 and p.node is None
    assert "YAML syntax error" in p.message and "column 5" in p.message
    assert "[...] list" in p.fix
    assert str(p).startswith("rule.yaml:4: YAML syntax error")


def test_empty_rule_and_non_mapping_top_level() -> None:
    assert "the rule is empty" in only_problem("").message
    p = only_problem("- id: a\n- id: b\n")
    assert p.line == 1 and "top level is a list, not a mapping" in p.message and "task_id:" in p.fix


def test_nodes_missing_or_not_a_list() -> None:
    assert "has no nodes" in only_problem("task_id: x\n").message
    assert only_problem("task_id: x\nnodes: []\n").line == 2
    p = only_problem("task_id: x\nnodes: {id: a}\n")
    assert p.line == 2 and "'nodes' must be a list" in p.message


def test_node_without_id_and_node_not_a_mapping() -> None:
    problems = problems_of("""\
        nodes:
          - name: no id here
          - just a string
        """)
    assert [(p.line, p.node) for p in problems] == [(2, None), (3, None)]
    assert "nodes[0] has no id" in problems[0].message and "id:" in problems[0].fix
    assert "nodes[1] is a string, not a mapping" in problems[1].message


def test_duplicate_ids_name_both_lines() -> None:
    p = only_problem("""\
        nodes:
          - id: a
          - id: b
            deps: [a]
          - id: a
        """)
    assert (p.line, p.node) == (5, "a")
    assert p.message == "duplicate node id (first at line 2)" and "unique" in p.fix


def test_deps_and_next_naming_missing_nodes_with_did_you_mean() -> None:
    problems = problems_of("""\
        nodes:
          - id: open_search
            next: [type_keyword, nowhere]
          - id: typed_keyword
            deps: [open_serch]
        """)
    assert [(p.line, p.node) for p in problems] == [(3, "open_search"), (3, "open_search"),
                                                    (5, "typed_keyword")]
    assert problems[0].message == ("next names 'type_keyword', which is not a node "
                                   "(did you mean 'typed_keyword'?)")
    assert problems[0].fix == "write 'typed_keyword'"
    assert problems[1].fix == "add a node with id 'nowhere' or remove it from next"
    assert str(problems[2]) == ("rule.yaml:5: node 'typed_keyword': deps names 'open_serch', which is not a "
                                "node (did you mean 'open_search'?) — write 'open_search'")


def test_success_naming_a_missing_node_mentions_a_commented_out_node() -> None:
    p = only_problem("""\
        nodes:
          - id: a
        # - id: finish
        success:
          all_of: [a, finish]
        """)
    assert (p.line, p.node) == (5, None)
    assert "success.all_of names 'finish', which is not a node" in p.message
    assert "commented out at line 3" in p.message and "uncomment" in p.fix


def test_success_shape_problems() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
        success:
          any_of: [a]
          all_of: [a]
          anyof: [a]
        """)
    messages = [p.message for p in problems]
    assert "success gives both any_of and all_of" in messages
    assert "success has an unknown key 'anyof' (did you mean 'any_of'?)" in messages
    p = only_problem("nodes:\n  - id: a\nsuccess: [a]\n")
    assert (p.line, p.message) == (3, "success must be a mapping, not a list")


def test_cycle_names_the_nodes_in_order() -> None:
    p = only_problem("""\
        nodes:
          - id: start
            next: [a]
          - id: a
            next: [b]
          - id: b
            next: [c]
          - id: c
            deps: [b]
            next: [a]
        """)
    assert (p.line, p.node) == (4, "a")
    assert p.message == "cycle: a -(next)-> b -(next)-> c -(next)-> a"
    assert "remove one of these" in p.fix


def test_self_loop_and_two_separate_cycles_are_each_reported() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            deps: [a]
          - id: b
            next: [c]
          - id: c
            next: [b]
        """)
    assert [p.message for p in problems] == ["cycle: a -(deps)-> a", "cycle: b -(next)-> c -(next)-> b"]


def test_unknown_checker_type_with_did_you_mean() -> None:
    p = only_problem("""\
        nodes:
          - id: a
            condition:
              type: text_mach
              params: {any: [x]}
        """)
    assert (p.line, p.node) == (4, "a")
    assert p.message == "unknown checker type 'text_mach' (did you mean 'text_match'?)"
    assert "escalate" in p.fix and "ocr_match" in p.fix


def test_unknown_sub_checker_in_a_combinator() -> None:
    p = only_problem("""\
        nodes:
          - id: a
            condition:
              type: escalate
              params:
                ocr: {any: [x]}
                txet: {any: [x]}
        """)
    assert (p.line, p.node) == (7, "a")
    assert p.message == "escalate has an unknown sub-checker 'txet' (did you mean 'text'?)"
    assert p.fix == "use one of: action, dynamic_match, icons, llm, ocr, regex, text, ui, xml"


def test_unknown_parameter_name_with_did_you_mean() -> None:
    p = only_problem("""\
        nodes:
          - id: a
            condition:
              type: juxtaposition
              params:
                text:
                  any: [x]
                  ignore_cas: true
        """)
    assert (p.line, p.node) == (8, "a")
    assert p.message == "juxtaposition.text: unknown parameter 'ignore_cas' (did you mean 'ignore_case'?)"
    assert p.fix == "text_match takes: any, all, ignore_case, whole_numbers, value"


def test_parameters_of_the_wrong_type() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            condition:
              type: text_match
              params:
                any: 5
                ignore_case: "yes"
        """)
    assert [(p.line, p.node) for p in problems] == [(6, "a"), (7, "a")]
    assert problems[0].message == ("text_match: parameter 'any' must be a string or a list of strings, "
                                   "not number 5")
    assert problems[0].fix == 'write "a" or ["a", "b"]'
    assert "parameter 'ignore_case' must be true or false" in problems[1].message


def test_missing_required_parameter_and_checker_specific_problems() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            condition:
              type: regex_match
              params: {ignore_case: true}
          - id: b
            condition:
              type: regex_match
              params: {pattern: "(unclosed"}
          - id: c
            condition:
              type: text_match
              params: {ignore_case: true}
        """)
    assert [p.node for p in problems] == ["a", "b", "c"]
    assert "missing required parameter 'pattern'" in problems[0].message
    assert problems[0].fix == "add pattern: ..."
    assert "invalid regular expression '(unclosed'" in problems[1].message
    assert "text_match needs 'any' or 'all'" in problems[2].message


def test_score_must_be_a_number_and_deps_a_list() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            score: high
          - id: b
            deps: a
            next: [true]
        """)
    assert [(p.line, p.node) for p in problems] == [(3, "a"), (5, "b"), (6, "b")]
    assert problems[0].message == "score must be a number, not 'high'"
    assert problems[1].message == "'deps' must be a list, not a string"
    assert problems[1].fix == "write deps: [a]"
    assert problems[2].message == "'next' must be a list of node ids"


def test_condition_shape_problems() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            condition: text_match
          - id: b
            condition:
              params: {any: [x]}
          - id: c
            condition:
              type: text_match
              params: [x]
          - id: d
            condition:
              type: escalate
          - id: e
            condition:
              type: escalate
              params:
                escalation_order: [text, telepathy]
                text: {any: [x]}
        """)
    assert [p.node for p in problems] == ["a", "b", "c", "d", "e"]
    assert "condition must be a mapping, not a string" in problems[0].message
    assert "condition has no checker type" in problems[1].message
    assert "params must be a mapping, not a list" in problems[2].message
    assert "escalate has no sub-checkers" in problems[3].message
    assert "escalation_order names unknown checker 'telepathy'" in problems[4].message


def test_same_checker_twice_and_duplicate_yaml_keys() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            condition:
              type: escalate
              params:
                text: {any: [x]}
                text_match: {any: [y]}
            next: [a2]
            next: [a3]
          - id: a2
          - id: a3
        """)
    messages = sorted(p.message for p in problems)
    assert messages == ["escalate: 'text_match' and 'text' are the same checker (text_match)",
                        "key 'next' is given twice (the later value would silently win)"]


def test_all_problems_are_collected_in_one_pass_in_line_order() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            deps: [missing]
            condition:
              type: nope
          - id: a
            score: []
        success:
          any_of: [gone]
        """)
    assert [p.line for p in problems] == [3, 5, 6, 7, 9]
    assert len({p.message for p in problems}) == 5


def test_sub_checker_shape_problems_and_the_nested_form() -> None:
    problems = problems_of("""\
        nodes:
          - id: a
            condition:
              type: juxtaposition
              params:
                ocr: [x]
                escalation_order: [ocr]
                action:
                  type: action_match
                  params:
                    typ: click
        """)
    assert [(p.line, p.node) for p in problems] == [(6, "a"), (7, "a"), (11, "a")]
    assert problems[0].message == "juxtaposition: 'ocr' must be a mapping of ocr_match parameters, not list"
    assert problems[1].message == "'escalation_order' applies only to escalate, not to juxtaposition"
    assert problems[2].message == "juxtaposition.action: unknown parameter 'typ' (did you mean 'type'?)"
    assert problems[2].fix == "action_match takes: type, contains, value, declares, exact, field"


def test_a_misspelt_node_field_is_kept_but_warned_about() -> None:
    task = load_rule_text("nodes:\n  - id: a\n  - id: b\n    dep: [a]\n", source="r.yaml")
    assert task.node("b").deps == [] and task.node("b").model_extra == {"dep": ["a"]}
    assert task.warnings == ["r.yaml:4: node 'b': the node has an unknown key 'dep' (kept as description; "
                             "did you mean 'deps'?) — rename it to 'deps' if that was meant"]


@pytest.mark.parametrize(("text", "line", "fix"), [
    ("nodes:\n\t- id: a\n", 2, "YAML forbids tabs for indentation: use spaces"),
    ("nodes:\n  - id: 'a\n    next: [b]\n", 4, "close the quote opened at line 2"),
    ("nodes:\n  - id: a\n    next: [b\n  - id: b\n", 4, "close the [ or { opened at line 3"),
    ("nodes:\n  - id: a\n    name: x: y\n", 3, "a ':' inside a value needs quotes"),
])
def test_yaml_syntax_errors_come_with_a_fix(text: str, line: int, fix: str) -> None:
    p = only_problem(text)
    assert p.line == line and p.message.startswith("YAML syntax error") and p.fix.startswith(fix)
