"""The named glyph library: Material icon glyphs from the installed font, query words -> glyphs, matching.

Thousands of names instead of eleven drawn shape classes: a query word maps through the glyph names and
a synonym table (data) to glyphs, which are rendered and compared with candidate masks at any scale.
"""

from __future__ import annotations

from droidpilot.perception.icons.glyphs.catalogue import available, glyph_codepoints
from droidpilot.perception.icons.glyphs.match import best_glyphs, glyph_fits, mask_descriptor
from droidpilot.perception.icons.glyphs.render import draw_glyph, glyph_mask
from droidpilot.perception.icons.glyphs.vocabulary import longest_glyph_phrase, phrase_glyphs, synonyms

__all__ = [
    "available",
    "best_glyphs",
    "draw_glyph",
    "glyph_codepoints",
    "glyph_fits",
    "glyph_mask",
    "longest_glyph_phrase",
    "mask_descriptor",
    "phrase_glyphs",
    "synonyms",
]
