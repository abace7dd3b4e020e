"""Parsing what a model says about an icon: colour, shape, synonyms and positions."""

from __future__ import annotations

import pytest

from droidpilot.errors import InputError
from droidpilot.perception.icons.query import Position, parse_icon_query, parse_position


@pytest.mark.parametrize(("text", "colour", "shape"), [
    ("red heart", "red", "heart"),
    ("gray magnifier", "gray", "magnifier"),
    ("Grey magnifying glass", "gray", "magnifier"),
    ("search icon", None, "magnifier"),
    ("blue circle", "blue", "circle"),
    ("a teal round button", "cyan", "circle"),
    ("violet star", "purple", "star"),
    ("white X", "white", "plus"),
    ("green rounded square", "green", "rounded square"),
    ("left arrow", None, "arrow"),
    ("dark gray line", "gray", "line"),
    ("yellow", "yellow", None),
])
def test_colour_and_shape_words(text: str, colour: str | None, shape: str | None) -> None:
    q = parse_icon_query(text)
    assert (q.colour, q.shape) == (colour, shape)
    assert q.position == Position()


@pytest.mark.parametrize(("text", "vertical", "horizontal"), [
    ("top", "top", None), ("Bottom", "bottom", None), ("left", None, "left"), ("right", None, "right"),
    ("center", "center", "center"), ("middle", "center", "center"), ("top left", "top", "left"),
    ("upper-right corner", "top", "right"), ("bottom center", "bottom", "center"), ("", None, None),
])
def test_positions(text: str, vertical: str | None, horizontal: str | None) -> None:
    assert parse_position(text) == Position(vertical, horizontal)


def test_mobile_agent_form_with_position_after_a_comma() -> None:
    q = parse_icon_query("(red heart, bottom)")
    assert (q.colour, q.shape, str(q.position)) == ("red", "heart", "bottom")
    assert str(parse_icon_query("red heart, bottom", position="top left").position) == "top left"


def test_position_words_after_the_shape_are_a_position() -> None:
    q = parse_icon_query("a blue circle icon at the top left")
    assert (q.colour, q.shape, q.position) == ("blue", "circle", Position("top", "left"))


def test_unknown_words_are_kept() -> None:
    q = parse_icon_query("red frobnicator")
    assert q.colour == "red" and q.shape is None and not q.glyphs and q.unknown == ("frobnicator",)
    assert q.to_dict()["unknown"] == ["frobnicator"]


def test_glyph_words_map_to_material_glyphs_through_names_and_synonyms() -> None:
    gear = parse_icon_query("gray gear, top right")
    assert gear.glyphs == ("settings",) and gear.glyph_words == ("gear",) and not gear.unknown
    assert str(gear.position) == "top right"
    assert parse_icon_query("three dots").glyphs[:1] == ("more_vert",)
    assert parse_icon_query("white hamburger menu").glyphs == ("menu",)
    assert parse_icon_query("shopping cart").glyphs == ("shopping_cart",)  # a name spelt with a space
    up = parse_icon_query("red up arrow")
    assert up.shape == "arrow" and "arrow_upward" in up.glyphs and up.position.given is False
    heart = parse_icon_query("red heart")  # a drawn class and glyphs at once
    assert heart.shape == "heart" and "favorite" in heart.glyphs
    assert parse_icon_query("blue circle").glyphs == ()  # plain geometry stays a drawn class


def test_errors_say_what_is_accepted() -> None:
    with pytest.raises(InputError, match="red heart"):
        parse_icon_query("the frobnicator thing")
    with pytest.raises(InputError, match="empty"):
        parse_icon_query("  ")
    with pytest.raises(InputError, match="top, bottom, left, right, center"):
        parse_position("north")


def test_place_phrases_are_not_read_as_the_icon() -> None:
    q = parse_icon_query("camera icon in the search bar")
    assert q.shape is None and "search" not in q.glyphs and "photo_camera" in q.glyphs and not q.unknown
    q = parse_icon_query("house icon next to Home")
    assert q.glyphs[0] == "home" and "skip_next" not in q.glyphs and not q.unknown
    q = parse_icon_query("red heart under the video, bottom")
    assert q.colour == "red" and q.shape == "heart" and q.position.vertical == "bottom"
    assert parse_icon_query("gear in the top bar").position.vertical == "top"  # a place word still counts


def test_near_miss_words_that_look_like_place_phrases_stay() -> None:
    assert "skip_next" in parse_icon_query("skip next").glyphs  # "next" not followed by "to"
    assert parse_icon_query("white plus on blue circle").colour == "white"  # a tile, not a place
    # "in" opening the description is not a place: its words are reported as not understood
    with pytest.raises(InputError, match="not understood: progress, spinner"):
        parse_icon_query("in progress spinner")


def test_keyboard_keys_are_not_read_as_a_key() -> None:
    for text, glyph in (("backspace key", "backspace"), ("shift key arrow", "keyboard_capslock"),
                        ("enter key", "keyboard_return")):
        q = parse_icon_query(text)
        assert glyph in q.glyphs and "vpn_key" not in q.glyphs, text


def test_style_words_are_kept_as_the_style() -> None:
    assert parse_icon_query("outlined heart").style == "outlined"
    assert parse_icon_query("heart outline, right").style == "outlined"
    assert parse_icon_query("solid star").style == "filled"
    assert parse_icon_query("red heart").style is None
    assert parse_icon_query("filled heart").to_dict()["style"] == "filled"


def test_tile_says_the_icon_is_an_app_tile_and_is_understood() -> None:
    # "tile" is how people name a launcher icon, as "app" and "logo" are: not a word left not understood
    # (which made an app tile its label names, far ahead of every other, a question instead of a tap)
    q = parse_icon_query("orange pencil tile")
    assert q.colour == "orange" and "edit" in q.glyphs and q.unknown == ()
    # near miss: a word really not understood beside it is still kept
    assert parse_icon_query("crossed pencil tile").unknown == ("crossed",)


def test_before_after_and_for_name_the_label_the_icon_goes_with() -> None:
    # the training screens' phrasing: words once not understood, so the model was asked every time
    person = parse_icon_query("small person before AHC")
    assert person.anchor == "ahc" and person.unknown == ()
    assert parse_icon_query("chevron after sports").anchor == "sports"
    switch = parse_icon_query("gray switch for airplane mode")
    assert switch.anchor == "airplane mode" and switch.colour == "gray" and switch.unknown == ()
    # "for X" is the row the icon serves; "before"/"after"/"next to" are places beside a label
    assert switch.anchor_row and not person.anchor_row
    assert not parse_icon_query("chevron next to airplane mode").anchor_row
    assert not parse_icon_query("three dots next to Suggested for you").anchor_row


def test_for_inside_a_label_after_next_to_stays_part_of_the_label() -> None:
    # near miss: the first place word starts the label; a later "for" is the label's own word
    assert parse_icon_query("three dots next to Suggested for you").anchor == "suggested for you"
    assert parse_icon_query("info circle beside Rated for 3+").anchor == "rated for 3"  # numbers kept


def test_arrow_right_is_the_arrow_a_person_means_not_only_the_fonts_caret() -> None:
    # Material's "arrow_right" is a small caret; "arrow right beside About this app" is the -> arrow
    q = parse_icon_query("arrow right beside About this app", names_ok=True)
    assert {"arrow_forward", "arrow_right"} <= set(q.glyphs) and "arrow_back" not in q.glyphs
    assert q.anchor == "about this app"
    left = parse_icon_query("arrow left", names_ok=True)
    assert "arrow_back" in left.glyphs and "arrow_forward" not in left.glyphs
    # near miss: an arrow pointing up and left stays the one diagonal glyph
    assert parse_icon_query("arrow pointing up left", names_ok=True).glyphs == ("north_west",)


def test_how_an_icon_moves_or_bends_is_understood_but_a_word_not_known_is_not() -> None:
    assert parse_icon_query("curved share arrow, right", names_ok=True).unknown == ()
    assert parse_icon_query("spinning music disc, bottom right", names_ok=True).unknown == ()
    q = parse_icon_query("camera, toolbar", names_ok=True)
    assert q.unknown == () and "photo_camera" in q.glyphs
    # near miss: a word the parser does not know still sends the query to the model
    assert parse_icon_query("squiggly share arrow", names_ok=True).unknown == ("squiggly",)
