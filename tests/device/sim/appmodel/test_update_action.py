"""The app model's ``update`` action: it sets fields on the records a condition picks and keeps their other
fields (a moved note keeps its to-do flag), ``last`` moves them to the end, and a malformed one is refused
with what it needs."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from droidpilot.device.sim.appmodel.actions import run
from droidpilot.device.sim.appmodel.model import Action


class _Host:
    """The few host calls an update sequence may make (a toast), recorded."""

    def __init__(self) -> None:
        self.toasts: list[str] = []

    def show_toast(self, text: str) -> None:
        self.toasts.append(text)


def _ctx() -> dict[str, Any]:
    notes = [{"title": "A", "body": "x", "todo": True}, {"title": "B", "body": "y"},
             {"title": "C", "body": "z"}]
    return {"state": {"notes": notes}, "params": {"dest": "Work"}, "field": {}}


def test_update_sets_fields_and_keeps_the_others() -> None:
    ctx = _ctx()
    act = Action.model_validate({"update": {"in": "state.notes", "where": "item.title == 'A'",
                                            "set": {"folder": "{params.dest}"}}})
    run(_Host(), [act], ctx)  # type: ignore[arg-type]
    assert ctx["state"]["notes"][0] == {"title": "A", "body": "x", "todo": True, "folder": "Work"}
    assert ctx["state"]["notes"][1:] == [{"title": "B", "body": "y"}, {"title": "C", "body": "z"}]


def test_update_last_moves_the_updated_record_to_the_end() -> None:
    ctx = _ctx()
    act = Action.model_validate({"update": {"in": "state.notes", "where": "item.title == 'B'",
                                            "set": {"body": "new"}, "last": True}})
    run(_Host(), [act], ctx)  # type: ignore[arg-type]
    assert [n["title"] for n in ctx["state"]["notes"]] == ["A", "C", "B"]
    assert ctx["state"]["notes"][-1] == {"title": "B", "body": "new"}


def test_update_that_matches_nothing_changes_nothing() -> None:
    ctx = _ctx()
    before = [dict(n) for n in ctx["state"]["notes"]]
    act = Action.model_validate({"update": {"in": "state.notes", "where": "item.title == 'Z'",
                                            "set": {"body": "new"}, "last": True}})
    run(_Host(), [act], ctx)  # type: ignore[arg-type]
    assert ctx["state"]["notes"] == before


@pytest.mark.parametrize("bad", [
    {"in": "state.notes", "where": "item.title == 'A'"},  # no set
    {"in": "state.notes", "set": {"body": "x"}},  # no where
    {"in": "state.notes", "where": "true", "set": "body"},  # set is not a mapping
])
def test_a_malformed_update_is_refused_saying_what_it_needs(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="update needs `in`"):
        Action.model_validate({"update": bad})
