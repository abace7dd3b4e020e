"""The result's JSON shape and the human-readable explanation (success paths, witness, decisions)."""

from __future__ import annotations

import io
import json
from typing import Any

from rich.console import Console

from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Verdict, register_condition
from droidpilot.verify.engine import verify
from droidpilot.verify.explain import render, success_paths
from droidpilot.verify.frame import Frame
from droidpilot.verify.result import Match
from droidpilot.verify.rule import Condition, Node, Success, Task

JSON_KEYS = {"ok", "matched", "total_score", "max_score", "reason", "manual_review_needed", "checker_calls",
             "decisions"}


@register_condition("t_res_text")
class TextHas(ConditionChecker):
    """Yes when the frame's text contains ``params["word"]``; undecided when it contains ``??``."""

    reads = "action"

    def check(self, frame: Any, params: dict[str, Any], options: Any = None) -> Any:
        if "??" in frame.text:
            return CheckResult(Verdict.UNDECIDED, "t_res_text", "action", reason="service down")
        found = params["word"] in frame.text
        return CheckResult(Verdict.from_value(found), "t_res_text", "action",
                           reason=f"text is {frame.text!r}")


def has(word: str) -> Condition:
    return Condition(type="t_res_text", params={"word": word})


def texts(*values: str) -> list[Frame]:
    return [Frame(index=i, text=t) for i, t in enumerate(values)]


def shop_task() -> Task:
    return Task(task_id="shop", nodes=[
        Node(id="search", name="Search", next=["sort", "open"], condition=has("search")),
        Node(id="sort", next=["open"], condition=has("sort")),
        Node(id="open", name="Open item", condition=has("open")),
        Node(id="login", condition=has("login")),
        Node(id="pay", deps=["open", "login"], condition=has("pay"), score=5),
    ], success=Success(any_of=["pay"]))


def test_to_dict_has_exactly_the_documented_keys_and_is_json() -> None:
    result = verify(shop_task(), texts("search", "open", "login", "pay"))
    data = result.to_dict()
    assert set(data) == JSON_KEYS
    assert data["ok"] is True
    assert data["matched"] == [{"node": "search", "frame": 0}, {"node": "open", "frame": 1},
                               {"node": "login", "frame": 2}, {"node": "pay", "frame": 3}]
    assert data["total_score"] == 35 and isinstance(data["total_score"], int)
    assert data["max_score"] == 45
    assert data["checker_calls"] == len(data["decisions"])
    assert json.loads(json.dumps(data)) == data


def test_match_unpacks_as_node_and_frame_with_mobiflow_names() -> None:
    match = Match("open", 3, "action", "Open item", 10.0)
    node, frame = match
    assert (node, frame) == ("open", 3)
    assert (match.node_id, match.frame_index) == ("open", 3)


def test_success_paths_list_every_way_through_or_and_and_joins() -> None:
    paths, truncated = success_paths(shop_task())
    assert not truncated
    assert sorted(map(tuple, paths)) == sorted([("search", "open", "login", "pay"),
                                                ("search", "sort", "open", "login", "pay")])
    assert {len(p) for p in paths} == {4, 5}


def _rendered(result: Any, task: Task) -> str:
    out = io.StringIO()
    render(result, task, Console(file=out, width=200, color_system=None), verbose=True)
    return out.getvalue()


def test_explanation_lists_paths_then_witness_then_decisions() -> None:
    task = shop_task()
    text = _rendered(verify(task, texts("search", "open", "login", "pay")), task)
    assert text.startswith("PASS shop")
    paths_at, witness_at, decisions_at = (text.index("Success paths"), text.index("Witness"),
                                          text.index("Per-node decisions"))
    assert paths_at < witness_at < decisions_at
    assert "search -> open -> login -> pay" in text
    assert "t_res_text: yes" in text


def test_explanation_escapes_untrusted_text_and_flags_manual_review() -> None:
    task = Task(task_id="[red]t[/red]", nodes=[
        Node(id="a", name="[bold]Home[/bold]", next=["b"], condition=has("[link]")),
        Node(id="b", condition=has("next"))])
    text = _rendered(verify(task, texts("[link] [/b]", "??")), task)
    assert "FAIL" in text and "manual review needed" in text
    assert "[red]t[/red]" in text and "[bold]Home[/bold]" in text
    assert "text is '[link] [/b]'" in text


def test_failure_explanation_shows_the_best_partial_path_and_unmet_node() -> None:
    task = shop_task()
    result = verify(task, texts("search", "sort", "open", "pay"))
    text = _rendered(result, task)
    assert "Best partial path" in text
    assert "never met" in text and "login" in result.reason
    assert result.reason.count("e.g.") == 1
