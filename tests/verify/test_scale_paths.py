"""Big rules: success paths are counted, never enumerated; explanations stay bounded; scores stay exact."""

from __future__ import annotations

import io

from rich.console import Console

from droidpilot.verify.engine import verify
from droidpilot.verify.explain import PATH_LIMIT, ROW_LIMIT, count_success_paths, render, success_paths
from droidpilot.verify.rule import Condition, Node, Success, Task


def ladder(n: int) -> Task:
    """Node k has next: [k+1, k+2]: the number of paths from n0 to the last node is a Fibonacci number."""
    return Task(task_id="ladder", nodes=[
        Node(id=f"n{k}", next=[f"n{j}" for j in (k + 1, k + 2) if j < n],
             condition=Condition(type="text_match", params={"any": [f"s{k}."]})) for k in range(n)])


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def test_paths_are_counted_exactly_without_listing_them() -> None:
    assert count_success_paths(ladder(10)) == fibonacci(10) == 55
    assert count_success_paths(ladder(3000)) == fibonacci(3000)  # about 10**626


def test_a_ladder_lists_a_bounded_number_of_distinct_shortest_first_paths() -> None:
    paths, truncated = success_paths(ladder(3000))
    assert truncated and len(paths) == PATH_LIMIT
    assert len({tuple(p) for p in paths}) == PATH_LIMIT
    assert all(p[0] == "n0" and p[-1] == "n2999" for p in paths)
    assert [len(p) for p in paths] == sorted(len(p) for p in paths)
    small, cut = success_paths(ladder(8))
    assert not cut and len(small) == fibonacci(8) == 21


def test_small_rules_still_list_every_path() -> None:
    task = Task(task_id="and", nodes=[
        Node(id="a", next=["c"]), Node(id="b", next=["c"]), Node(id="c", next=["d"]),
        Node(id="x"), Node(id="d", deps=["c", "x"])], success=Success(any_of=["d"]))
    paths, truncated = success_paths(task)
    assert not truncated
    assert sorted(map(tuple, paths)) == [("a", "c", "x", "d"), ("b", "c", "x", "d")]
    assert count_success_paths(task) == 2


def test_explaining_a_big_rule_prints_a_bounded_amount() -> None:
    n = 3000
    task = ladder(n)
    frames = [{"text": " ".join(f"s{k}." for k in range(f, f + 3)), "ui": {}} for f in range(0, n, 3)]
    result = verify(task, frames)
    out = io.StringIO()
    render(result, task, Console(file=out, width=120, color_system=None))
    text = out.getvalue()
    assert f"Success paths ({PATH_LIMIT} of up to about 10^626" in text
    assert "more ... ->" in text and "milestones)" in text  # long paths are shortened
    assert "more nodes not listed" in text
    assert len(text.splitlines()) < 3 * (PATH_LIMIT + 2 * ROW_LIMIT) + 200


def test_max_score_counts_shared_ancestors_once() -> None:
    def has(word: str) -> Condition:
        return Condition(type="text_match", params={"any": [word]})

    task = Task(task_id="diamond", nodes=[
        Node(id="r", score=5, next=["a", "b"], condition=has("r")), Node(id="a", score=1, condition=has("a")),
        Node(id="b", score=2, condition=has("b")),
        Node(id="j", score=3, deps=["a", "b"], condition=has("j"))],
        success=Success(any_of=["j"]))
    result = verify(task, [{"text": "r"}, {"text": "a"}])
    assert result.max_score == 11 and not result.ok and result.total_score == 6
