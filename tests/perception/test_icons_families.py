"""Other icon families' glyph names mapped onto the library's names: the general rule (words of the name,
less style words), the exceptions table, new names for what Material lacks, and near misses."""

from __future__ import annotations

import pytest

from droidpilot import iconfamilies
from droidpilot.iconfamilies import FamilyError
from droidpilot.perception.icons import query as icon_query
from droidpilot.perception.icons.glyphs.catalogue import available, glyph_codepoints, glyph_names
from droidpilot.perception.icons.glyphs.families import (
    NameTable,
    _table,
    family_references,
    library_name,
    name_table,
    new_names,
)
from droidpilot.perception.icons.glyphs.match import best_glyphs, library, mask_descriptor
from droidpilot.perception.icons.glyphs.render import glyph_mask
from droidpilot.perception.icons.glyphs.vocabulary import phrase_glyphs, synonyms

MATERIAL = {"settings", "home", "favorite", "favorite_border", "search", "shopping_cart", "heart_broken",
            "notifications_none", "thumb_up"}
PHRASES = {"cog": ("settings",), "heart": ("favorite", "favorite_border"), "magnifier": ("search",)}
TABLE = NameTable(frozenset({"o", "outline", "variant"}), frozenset({"th"}),
                  {"*": {"bell-o": "notifications_none", "gone": None}, "mdi": {"magnify": "search"}})


@pytest.mark.parametrize(("family", "glyph", "name"), [
    ("fa", "cog", "settings"),  # a synonym phrase's first glyph
    ("fa", "cogs", "cogs"),  # near miss: two cogs are not the settings gear
    ("mdi", "home", "home"),  # a Material name
    ("mdi", "home-variant", "home"),  # a style word: the same icon drawn otherwise
    ("mdi", "home-modern", "home_modern"),  # near miss: another word is another icon
    ("fa", "heart", "favorite"),
    ("fa", "heart-o", "favorite"),  # -o: outlined
    ("mdi", "heart-outline", "favorite"),
    ("mdi", "heart-broken", "heart_broken"),  # near miss: not a heart
    ("fa", "shopping-cart", "shopping_cart"),  # words joined with "_"
    ("mdi", "magnify", "search"),  # the family's own exception
    ("fa", "magnify", "magnify"),  # ... which another family does not share
    ("fa", "bell-o", "notifications_none"),  # an exception for any family, before the style rule
    ("fa", "thumbs-o-up", "thumbs_up"),  # a style word inside the name
    ("fa", "whatsapp", "whatsapp"),  # a brand Material lacks: a new name
    ("fa", "th", None),  # not_new: a two-letter name is no query word
    ("fa", "gone", None),  # an exception may leave a glyph out
    ("fa", "o", None),
])
def test_a_family_glyph_maps_by_words_then_exceptions(family: str, glyph: str, name: str | None) -> None:
    assert library_name(family, glyph, MATERIAL, PHRASES, TABLE) == name


def test_a_broken_name_table_is_an_error() -> None:
    with pytest.raises(FamilyError, match=r"needs the keys style_words, not_new and exceptions"):
        _table({"style_words": [], "exceptions": {}}, "family_names.yaml")
    with pytest.raises(FamilyError, match=r"exceptions.fa.cog must be a library name or null"):
        _table({"style_words": [], "not_new": [], "exceptions": {"fa": {"cog": ["settings"]}}}, "x.yaml")


needs_families = pytest.mark.skipif(
    not available() or not family_references(),
    reason="the Material font or the other icon families are not installed (`sudo make system-deps`: "
           + ", ".join(f.package for f in iconfamilies.all_families()) + ")")


@needs_families
def test_every_exception_names_a_material_glyph_or_a_family_glyph() -> None:
    material = set(glyph_codepoints())
    own = {g.replace("-", "_") for f in iconfamilies.installed() for g in iconfamilies.codepoints(f)}
    for fam, table in name_table().exceptions.items():
        for glyph, target in table.items():
            assert target is None or target in material or target in own, f"{fam}.{glyph} -> {target}"


@needs_families
def test_the_everyday_icons_real_apps_draw_from_other_families_are_references() -> None:
    refs = family_references()
    for name, drawing in [("settings", ("fa", "gear")), ("search", ("mdi", "magnify")),
                          ("home", ("fa", "home")), ("notifications", ("fa", "bell")),
                          ("shopping_bag", ("fa", "shopping-bag")),
                          ("my_location", ("mdi", "crosshairs-gps")),
                          ("keyboard", ("fa", "keyboard-o")), ("layers", ("mdi", "layers"))]:
        found = {(r.family, r.glyph) for r in refs.get(name, ())}
        assert drawing in found, (name, sorted(found))
    assert "settings" not in {n for n, rs in refs.items() if any(r.glyph == "cogs" for r in rs)}


@needs_families
def test_new_names_are_library_glyphs_query_words_reach() -> None:
    names = set(glyph_names())
    assert {"cogs", "youtube_play", "spotify", "instagram"} <= set(new_names()) <= names
    assert ("fa", "whatsapp") in {(r.family, r.glyph) for r in family_references()["whatsapp"]}
    assert phrase_glyphs("whatsapp") == ("whatsapp",)
    assert "whatsapp" in icon_query.parse_icon_query("green whatsapp logo, bottom").glyphs
    assert phrase_glyphs("cogs") == ("cogs",)  # near miss: "cogs" is its own drawing now, "cog" the gear
    assert phrase_glyphs("cog") == ("settings",)


@needs_families
def test_no_new_name_takes_a_word_the_query_reads_otherwise() -> None:
    taken = (set(icon_query.COLOUR_WORDS) | set(icon_query.STYLE_WORDS) | set(icon_query.POSITION_WORDS)
             | icon_query.FILLER | icon_query.CONTEXT_WORDS | icon_query.TEXT_MARKERS
             | set(icon_query.SHAPE_WORDS) | set(synonyms()))
    clash = sorted(n for n in new_names() if n.replace("_", " ") in taken)
    assert clash == []


@needs_families
def test_a_candidate_is_named_by_words_a_model_can_check_not_by_a_family_only_name() -> None:
    cogs = mask_descriptor(glyph_mask("cogs"))  # Font Awesome's two cogs: only other families draw them
    named = [n for n, _ in best_glyphs(cogs, 5)]
    assert named and not set(named) & set(new_names())
    assert "cogs" in library()[0]  # still a reference to match


@needs_families
@pytest.mark.parametrize(("family", "glyph", "not_name"), [
    ("mdi", "marker", "place"),  # a marker pen: the synonym "marker" means a map pin
    ("fa", "window-close-o", "close"),  # an x in a window's box is not the bare x
    ("fa", "arrows-alt", "fullscreen"),  # four arrows outward: a plus, not fullscreen's corners
    ("elusive", "fullscreen", "fullscreen"),  # four arrows outward on the diagonals: an x
    ("mdi", "gamepad", "sports_esports"),  # a D-pad cross: a plus, not a controller
    ("elusive", "check", "check"),  # a ticked box
])
def test_false_friends_are_not_references_of_the_name_they_spell(family: str, glyph: str,
                                                                  not_name: str) -> None:
    assert library_name(family, glyph, set(glyph_codepoints()), synonyms()) != not_name


@needs_families
def test_a_long_thin_arrow_is_no_reference_of_the_arrows_asked() -> None:
    # a 5-px underline beside a label fitted Font Awesome's long-arrow-left as "west" and tied with the
    # arrow the label points at (tests/perception/test_icons_anchors.py)
    assert not any(r.glyph.startswith("long-arrow") for n in ("west", "east", "north", "south")
                   for r in family_references().get(n, ()))


@needs_families
def test_a_family_left_out_takes_its_names_and_drawings_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(iconfamilies.FAMILIES_ENV, "material,mdi")
    assert "cogs" not in glyph_names()  # Font Awesome's, Fork Awesome's and Elusive's two cogs
    assert {r.family for rs in family_references().values() for r in rs} == {"mdi"}
    monkeypatch.setenv(iconfamilies.FAMILIES_ENV, "material")
    assert family_references() == {} and new_names() == [] and "settings" in glyph_names()
