"""Paths with ``{...}`` in lists and actions: a screen opened for one record by its position shows that
record's list and appends to it in place, and the shared file list takes an app's saved file."""

from __future__ import annotations

from typing import Any

import pytest

from droidpilot.device.sim.appmodel.actions import run
from droidpilot.device.sim.appmodel.expr import path_of
from droidpilot.device.sim.appmodel.model import Action
from droidpilot.device.sim.appmodel.sources import items_of
from droidpilot.errors import InputError


class _Host:
    """No navigation is asked of it here; the toasts are kept to check the message."""

    def __init__(self) -> None:
        self.toasts: list[str] = []

    def show_toast(self, text: str) -> None:
        self.toasts.append(text)


def _ctx() -> dict[str, Any]:
    lists = [{"name": "A", "songs": [{"name": "x"}]}, {"name": "B", "songs": []}]
    return {"state": {"playlists": lists}, "params": {"i": 1}, "sys": {"documents": []}}


def test_a_path_fills_its_placeholders_and_a_plain_path_is_kept() -> None:
    assert path_of(_ctx(), "state.playlists.{params.i}.songs") == "state.playlists.1.songs"
    assert path_of(_ctx(), "state.playlists") == "state.playlists"


def test_a_list_and_an_append_address_the_record_by_position() -> None:
    ctx = _ctx()
    assert items_of("state.playlists.{params.i}.songs", ctx) == []
    act = Action.model_validate({"append": {"to": "state.playlists.{params.i}.songs",
                                            "value": {"name": "y"}}})
    run(_Host(), [act], ctx)  # type: ignore[arg-type]
    assert ctx["state"]["playlists"][1]["songs"] == [{"name": "y"}]
    assert ctx["state"]["playlists"][0]["songs"] == [{"name": "x"}]  # the other record untouched
    assert items_of("state.playlists.{params.i}.songs", ctx) == [{"name": "y"}]


def test_an_app_may_append_to_files_documents() -> None:
    ctx = _ctx()
    saved = {"name": "A.m3u", "folder": "Download"}
    act = Action.model_validate({"append": {"to": "sys.documents", "value": saved}})
    run(_Host(), [act], ctx)  # type: ignore[arg-type]
    assert ctx["sys"]["documents"] == [saved]


def test_the_file_systems_listing_is_read_only_to_apps() -> None:
    # sys.files is the whole file system worked out from every app's records: an append there would be lost
    act = Action.model_validate({"append": {"to": "sys.files", "value": {"name": "A.m3u"}}})
    with pytest.raises(InputError, match=r"sys\.documents"):
        run(_Host(), [act], _ctx())  # type: ignore[arg-type]
