"""The pieces of the v2/E loops, with near misses: role reply fields, the reflector's outcome, element
references, --role-model parsing, role prompts in both languages, and the memory folder's versions."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.agent.loops.perception_list import element_reference
from droidpilot.agent.loops.role_replies import RoleReplyError, fields, outcome, require
from droidpilot.agent.loops.roles import parse_role_models
from droidpilot.agent.memory.learn import merged, parse_shortcuts, parse_tips
from droidpilot.agent.memory.store import Memory, MemoryStore
from droidpilot.agent.prompts import LANGUAGES, render, template
from droidpilot.errors import InputError

ROLE_TEMPLATES = ("role_planner", "role_decider", "role_reflector", "role_manager", "role_operator",
                  "role_notetaker", "role_tip_reflector", "role_shortcut_reflector")


@pytest.mark.parametrize("text", [
    "Outcome: B\nError: opened Mail", "**Outcome:** B\n**Error:** opened Mail", "## Outcome\n",
    "outcome：B（错误页面）\nerror: opened Mail", "Result: wrong page\nError: opened Mail",
    "结果：B\n错误：opened Mail",
])
def test_differently_written_outcomes_are_read(text: str) -> None:
    if text.startswith("## Outcome"):
        with pytest.raises(RoleReplyError):
            outcome(text)
        return
    letter, _ = outcome(text)
    assert letter == "B"


@pytest.mark.parametrize("text, error", [
    ("Outcome: D", "is not A, B or C"),
    ("Outcome: Absolutely fine", "is not A, B or C"),
    ("The action worked: A", "no 'Outcome:' line"),
    ("Outcomes: A", "no 'Outcome:' line"),
])
def test_near_miss_outcomes_are_refused_with_the_fix(text: str, error: str) -> None:
    with pytest.raises(RoleReplyError, match=error):
        outcome(text)


def test_fields_run_until_the_next_label_and_keep_the_first() -> None:
    got = fields("Plan: 1. a\n2. b\nSubgoal: open Notes\nPlan: again")
    assert got == {"plan": "1. a\n2. b", "subgoal": "open Notes"}
    with pytest.raises(RoleReplyError, match="'Progress:'"):
        require("Progress report follows", "progress", "Progress: x")


@pytest.mark.parametrize("line, expected", [
    ("tap 7", ("tap", 7)), ("Tap (7)", ("tap", 7)), ("click element #12", ("tap", 12)),
    ("long press [3]", ("long_press", 3)), ("tap on item 4.", ("tap", 4)),
    ("tap (7, 8)", None), ("tap 7a", None), ("click text (7)", None), ("type (7)", None),
])
def test_element_references_and_their_near_misses(line: str, expected: tuple[str, int] | None) -> None:
    assert element_reference(line) == expected


def test_role_models_parse_and_refuse_clearly() -> None:
    assert parse_role_models(["reflector=a", " planner = b "], "v2") == {"reflector": "a", "planner": "b"}
    assert parse_role_models(["reflector=a", "reflector=a"], "v2") == {"reflector": "a"}
    with pytest.raises(InputError, match="two models"):
        parse_role_models(["reflector=a", "reflector=b"], "v2")
    with pytest.raises(InputError, match="its roles are manager, operator"):
        parse_role_models(["planner=a"], "e")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", ROLE_TEMPLATES)
def test_every_role_prompt_exists_in_both_languages_with_the_same_placeholders(name: str,
                                                                               language: str) -> None:
    import re

    placeholders = set(re.findall(r"\{\{(\w+)\}\}", template(name, "en")))
    assert placeholders == set(re.findall(r"\{\{(\w+)\}\}", template(name, language)))
    text = render(name, language, **{p: "{{x}} {y}" for p in placeholders})
    assert "{{x}} {y}" in text  # substituted text is inserted as is


def test_the_memory_folder_keeps_every_version(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "m")
    assert store.load().version == 0 and store.versions() == []
    shortcut = parse_shortcuts("shortcuts:\n  - name: go\n    steps: [home]\n", "task 1")
    first = store.save(merged(Memory(), ["tip one"], shortcut, "task 1"))
    second = store.save(merged(first, parse_tips("tips: [tip two]"), [], "task 2"))
    assert (first.version, second.version) == (1, 2) and store.versions() == [1, 2]
    assert store.load(1).tips == ["tip one"] and store.load().tips == ["tip two"]
    assert list(store.load().shortcuts) == ["go"] and store.load().shortcuts["go"].learnt_from == "task 1"
    with pytest.raises(InputError, match="has no version 7"):
        store.load(7)


def test_a_broken_memory_file_is_named_with_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "memory-v0001.yaml").write_text("version: 1\ntips: [a\nshortcuts: []\n")
    with pytest.raises(InputError, match=r"memory-v0001\.yaml, line \d+: not valid YAML"):
        MemoryStore(folder).load()
    (folder / "memory-v0001.yaml").write_text("version: 1\nshortcuts:\n  - name: s\n    steps: [fly (up)]\n")
    with pytest.raises(InputError, match=r"shortcuts\[0\].*step 1"):
        MemoryStore(folder).load()
