"""Purpose phrases in icon queries ("icon to open the menu"): understood, and read as the icon only where
the icon's own words name no glyph."""

from __future__ import annotations

import pytest

from droidpilot.perception.icons.purpose import object_words, split_purpose
from droidpilot.perception.icons.query import parse_icon_query


@pytest.mark.parametrize(("text", "glyph"), [
    ("icon to open the menu", "menu"),
    ("button used to go back", "arrow_back"),
    ("icon to search", "search"),
    ("icon that opens the menu, top left", "menu"),
])
def test_a_purpose_names_the_glyph_when_the_icon_words_do_not(text: str, glyph: str) -> None:
    q = parse_icon_query(text, names_ok=True)
    assert q.unknown == ()
    assert glyph in q.glyphs


def test_a_purpose_after_a_named_glyph_is_understood_but_not_read_as_the_icon() -> None:
    q = parse_icon_query("x to clear the search", names_ok=True)
    assert q.unknown == ()
    assert "close" in q.glyphs and "search" not in q.glyphs
    q = parse_icon_query("chevron to hide the keyboard, right", names_ok=True)
    assert "keyboard" not in q.glyphs and str(q.position) == "right"


def test_fill_in_names_the_row_and_the_fill_in_arrow() -> None:
    q = parse_icon_query("arrow to fill in jpmorgan chase", names_ok=True)
    assert q.unknown == ()
    assert (q.anchor, q.anchor_row, q.container) == ("jpmorgan chase", True, None)
    assert q.glyphs == ("north_west",) and q.shape is None  # the up-left arrow, not any drawn arrow
    assert "fill" not in q.names and "to" not in q.names


def test_a_named_glyph_is_not_narrowed_by_the_purpose() -> None:
    q = parse_icon_query("chevron to fill in west lake", names_ok=True)
    assert "north_west" not in q.glyphs and "chevron_right" in q.glyphs
    q = parse_icon_query("arrow to go back, top left", names_ok=True)
    assert "arrow_back" in q.glyphs and "arrow_forward" not in q.glyphs


def test_near_misses_stay_places_words_or_not_understood() -> None:
    q = parse_icon_query("chevron next to Add song", names_ok=True)
    assert q.anchor == "add song"  # "next to" is a place, though "add" is a verb
    q = parse_icon_query("calendar with check, To-dos tab", names_ok=True)
    assert "to" in q.unknown  # "to-dos" is no purpose: still sent to the model
    q = parse_icon_query("icon to frobnicate the widget", names_ok=True)
    assert "to" in q.unknown and "frobnicate" in q.unknown  # no verb known: not understood


def test_split_purpose_needs_a_named_icon_and_a_verb() -> None:
    assert split_purpose(["to", "open", "menu"]) == (["to", "open", "menu"], [])  # nothing named before
    assert split_purpose(["arrow", "to", "home"]) == (["arrow", "to", "home"], [])
    assert split_purpose(["icon", "used", "to", "go", "back"]) == (["icon"], ["go", "back"])
    assert object_words(["open", "the", "menu"]) == ["open", "menu"]
