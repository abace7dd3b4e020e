"""Fuzzing the rule loader and the trace loader (hypothesis, bounded). Whatever a file holds, loading it
gives a Task / Trace or an InputError naming the problem, and verifying what loaded gives a verdict or an
InputError: never another exception, never a hang."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from tests.support.hypothesis_profiles import examples

from droidpilot.errors import InputError
from droidpilot.verify.checkers.base import registered_names
from droidpilot.verify.engine import verify
from droidpilot.verify.rule import Condition, Node, Task
from droidpilot.verify.spec import load_rule_text
from droidpilot.verify.trace import load_trace

BOUNDED = settings(max_examples=examples(60), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20))
VALUES = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4)),
    max_leaves=20)
IDS = st.sampled_from(["a", "b", "c", "d", "nope"])
# Parameter names the built-in checkers take, so conditions get past the "unknown parameter" check.
PARAM_KEYS = ["any", "all", "none", "key", "equals", "text", "type", "params", "threshold", "checkers",
              "icon", "pattern", "question", "count", "min", "max", "field", "value", "regex"]


@st.composite
def rule_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A rule-shaped mapping: real field names and checker types, random values here and there."""
    nodes = []
    for node_id in draw(st.lists(IDS, min_size=0, max_size=5)):
        node: dict[str, Any] = {"id": draw(st.one_of(st.just(node_id), VALUES))}
        if draw(st.booleans()):
            node["next"] = draw(st.one_of(st.lists(IDS, max_size=3), VALUES))
        if draw(st.booleans()):
            node["deps"] = draw(st.one_of(st.lists(IDS, max_size=3), VALUES))
        if draw(st.booleans()):
            node["score"] = draw(SCALARS)
        if draw(st.integers(0, 3)):
            params = draw(st.dictionaries(st.sampled_from(PARAM_KEYS), VALUES, max_size=3))
            kind = draw(st.sampled_from([*registered_names(), "nope"]))
            node["condition"] = {"type": kind, "params": params}
        nodes.append(node)
    doc: dict[str, Any] = {"task_id": draw(st.one_of(st.just("fuzz"), VALUES)), "nodes": nodes}
    if draw(st.booleans()):
        how = draw(st.sampled_from(["any_of", "all_of", "one_of"]))
        doc["success"] = {how: draw(st.lists(IDS, max_size=3))}
    if draw(st.booleans()):
        doc[draw(st.text(max_size=8))] = draw(VALUES)
    return doc


FRAMES = [{"text": "a b c", "ui": {"screen": "home"}}, {"text": "d", "ui": {}}]


def _load_then_verify(text: str, source: str) -> None:
    try:
        task = load_rule_text(text, source)
    except InputError as exc:
        assert str(exc)
        return
    try:
        result = verify(task, FRAMES)
    except InputError as exc:
        assert str(exc)
        return
    assert math.isfinite(result.total_score) and math.isfinite(result.max_score)
    json.dumps(result.to_dict(), allow_nan=False)  # --json always prints valid JSON


@BOUNDED
@given(rule_documents())
def test_rule_shaped_yaml_loads_or_is_a_rule_error(doc: dict[str, Any]) -> None:
    _load_then_verify(yaml.safe_dump(doc, allow_unicode=True), "fuzz.yaml")


@BOUNDED
@given(rule_documents())
def test_rule_shaped_json_loads_or_is_a_rule_error(doc: dict[str, Any]) -> None:
    _load_then_verify(json.dumps(doc), "fuzz.json")


YAML_BITS = ["a: ", "&x ", "*x", "- ", "[", "]", "{", "}", ", ", "\n", "  ", "nodes:", "id: n", "next: [n]",
             "condition:", "type: text_match", "params:", "any: ", "!!python/object:os.system", "!!binary ",
             "'", '"', "#", "<<: *x", "? ", ".nan", ".inf", "~", "\t", "%YAML 1.1\n", "---\n", "..."]


@BOUNDED
@given(st.lists(st.one_of(st.sampled_from(YAML_BITS), st.text(max_size=5)), max_size=40).map("".join))
def test_arbitrary_yaml_text_loads_or_is_a_rule_error(text: str) -> None:
    _load_then_verify(text, "fuzz.yaml")


def _check_trace(path: Path) -> None:
    try:
        trace = load_trace(path)
    except InputError as exc:
        assert str(exc)
        return
    condition = Condition(type="text_match", params={"any": ["a"]})
    rule = Task(task_id="t", nodes=[Node(id="n", condition=condition)])
    try:
        verify(rule, trace)
    except InputError as exc:
        assert str(exc)


@BOUNDED
@given(st.one_of(VALUES, st.lists(st.dictionaries(st.sampled_from(
    ["text", "ui", "action", "xml", "image", "reasoning", "task_description", "app"]), VALUES, max_size=4),
    max_size=4)))
def test_a_json_trace_loads_or_is_an_input_error(frames: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        path.write_text(json.dumps(frames), encoding="utf-8")  # NaN/Infinity included when drawn
        _check_trace(path)


ACTION_KEYS = ["type", "action_index", "position_x", "position_y", "bounds", "text", "status"]


@BOUNDED
@given(st.one_of(VALUES, st.dictionaries(st.sampled_from(["actions", "task_description", "app_name"]),
                                         st.lists(st.dictionaries(st.sampled_from(ACTION_KEYS), VALUES,
                                                                  max_size=4), max_size=4), max_size=3)),
       st.one_of(st.none(), VALUES), st.integers(0, 2))
def test_a_trace_folder_loads_or_is_an_input_error(actions: Any, react: Any, shots: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in range(1, shots + 1):
            Image.new("RGB", (8, 16), (n * 60, 0, 0)).save(folder / f"{n}.png")
        (folder / "actions.json").write_text(json.dumps(actions), encoding="utf-8")
        if react is not None:
            (folder / "react.json").write_text(json.dumps(react), encoding="utf-8")
        _check_trace(folder)
