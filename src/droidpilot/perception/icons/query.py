"""Parse what a model says about an icon: "red heart", "gray gear", "three dots, top right", "top left".

Colour and shape words have synonyms ("grey", "magnifying glass", "x"); glyph words ("gear", "kebab",
"shopping cart") map to Material glyphs through the glyph library. A word understood as neither is kept
in ``unknown`` so callers can say it was not understood (never dropped silently). Text written in the
icon ("LIVE icon", "'Go' button") is kept in ``texts`` and a label it is next to ("next to Home") in
``anchor``, both to be looked up among the screen's OCR lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from droidpilot.errors import InputError
from droidpilot.perception.icons.apps import name_words
from droidpilot.perception.icons.brands import find_brands
from droidpilot.perception.icons.glyphs.vocabulary import longest_glyph_phrase, synonyms
from droidpilot.perception.icons.purpose import (
    PURPOSE_VERBS,
    filled_row,
    object_words,
    purpose_looks,
    split_purpose,
)

COLOUR_WORDS: dict[str, str] = {
    "red": "red", "crimson": "red", "scarlet": "red", "maroon": "brown",
    "orange": "orange", "amber": "orange",
    "yellow": "yellow", "gold": "yellow", "golden": "yellow",
    "green": "green", "lime": "green", "olive": "green", "emerald": "green",
    "cyan": "cyan", "teal": "cyan", "turquoise": "cyan", "aqua": "cyan",
    "blue": "blue", "navy": "blue", "azure": "blue",
    "purple": "purple", "violet": "purple", "magenta": "purple", "lilac": "purple", "indigo": "purple",
    "pink": "pink", "rose": "pink",
    "brown": "brown", "tan": "brown",
    "black": "black",
    "white": "white",
    "gray": "gray", "grey": "gray", "silver": "gray",
}

# Multi-word phrases first; each maps to one shape class.
SHAPE_PHRASES: tuple[tuple[str, str], ...] = (
    ("magnifying glass", "magnifier"), ("search icon", "magnifier"), ("rounded square", "rounded square"),
    ("rounded rectangle", "rectangle"), ("rounded corner square", "rounded square"),
    ("app icon", "rounded square"), ("plus sign", "plus"), ("minus sign", "line"),
)
SHAPE_WORDS: dict[str, str] = {
    "circle": "circle", "circular": "circle", "round": "circle", "dot": "circle", "disc": "circle",
    "disk": "circle", "ring": "circle", "oval": "circle", "ellipse": "circle", "button": "circle",
    "square": "square", "box": "square", "squircle": "rounded square",
    "rectangle": "rectangle", "rectangular": "rectangle", "bar": "rectangle", "pill": "rectangle",
    "triangle": "triangle", "triangular": "triangle", "play": "triangle",
    "heart": "heart", "like": "heart", "love": "heart",
    "star": "star", "favorite": "star", "favourite": "star",
    "plus": "plus", "add": "plus", "cross": "plus", "x": "plus", "close": "plus",
    "arrow": "arrow", "back": "arrow", "forward": "arrow", "chevron": "arrow", "send": "arrow",
    "line": "line", "dash": "line", "minus": "line", "underline": "line", "hyphen": "line",
    "magnifier": "magnifier", "magnifying": "magnifier", "search": "magnifier", "lens": "magnifier",
    "loupe": "magnifier",
}
# How the icon is drawn: a filled silhouette or an outline ("outlined heart", "solid star").
STYLE_WORDS = {"filled": "filled", "solid": "filled", "outlined": "outlined", "outline": "outlined",
               "hollow": "outlined"}
POSITION_WORDS: dict[str, str] = {
    "top": "top", "upper": "top", "up": "top", "bottom": "bottom", "lower": "bottom", "down": "bottom",
    "left": "left", "right": "right", "center": "center", "centre": "center", "middle": "center",
    "central": "center",
}
FILLER = {"a", "an", "the", "icon", "shaped", "shape", "of", "at", "in", "on", "with", "and", "corner",
          "side", "screen", "area", "part", "symbol", "logo", "light", "dark", "bright", "small", "big",
          "large", "filled", "outlined", "outline", "solid", "hollow", "like", "-", "s", "glass",
          "sign", "mark", "pointing", "facing", "app", "apps", "application", "tile",
          # how it moves or bends, and the bar it sits in: nothing the looks are matched by
          "curved", "spinning", "rotating", "toolbar"}


@dataclass(frozen=True)
class Position:
    """A coarse place on screen: vertical (top/center/bottom or None) and horizontal (left/center/right)."""

    vertical: str | None = None
    horizontal: str | None = None

    @property
    def given(self) -> bool:
        """Was any position asked for?"""
        return self.vertical is not None or self.horizontal is not None

    def __str__(self) -> str:
        if self.vertical == "center" and self.horizontal == "center":
            return "center"
        return " ".join(p for p in (self.vertical, self.horizontal) if p) or "anywhere"


# Drawn classes that are plain geometry: their words do not also name glyphs ("circle", "bar").
GEOMETRIC = {"circle", "square", "rounded square", "rectangle", "triangle", "line"}
# Words that start a phrase about the icon's surroundings ("in the search bar", "next to Home", "under the
# video", "before All", "switch for Airplane mode"): what follows names another thing, so it is neither the
# icon's shape nor a word not understood.
CONTEXT_WORDS = {"in", "inside", "within", "next", "beside", "near", "under", "below", "above", "between",
                 "beneath", "underneath", "before", "after", "for"}
# Words that say text is written in the icon ("circle with letter W"): what follows is the text.
TEXT_MARKERS = {"letter", "letters", "text", "word", "reading", "saying", "says", "labelled", "labeled",
                "initial", "with"}


@dataclass(frozen=True)
class IconQuery:
    """A parsed icon description: colour name, shape class, glyphs, position, and words not understood."""

    colour: str | None
    shape: str | None
    position: Position = field(default_factory=Position)
    unknown: tuple[str, ...] = ()
    raw: str = ""
    glyphs: tuple[str, ...] = ()  # Material glyph names the shape words stand for
    glyph_words: tuple[str, ...] = ()  # the words that named them ("three dots")
    status_bar: bool = False  # the query asks for an icon of the system status bar
    style: str | None = None  # "filled" or "outlined" when the words say so ("outlined heart")
    texts: tuple[str, ...] = ()  # text written inside the icon ("LIVE icon", "G logo"), lower-case
    anchor: str | None = None  # a label the icon is next to ("chevron next to To" -> "to"), lower-case
    names: tuple[str, ...] = ()  # words that may name the app whose label is on screen ("youtube")
    brands: tuple[str, ...] = ()  # brands of brands.yaml the words name ("youtube", "play store")
    container: str | None = None  # the thing the icon is in or on ("search bar", "cyan button")
    anchor_row: bool = False  # the anchor is the row the icon serves ("switch for Airplane mode")

    @property
    def text(self) -> str:
        """The description in canonical words ("red heart", "gray three dots"), as a ranker reads it."""
        what = self.shape or (" ".join(self.glyph_words) if self.glyph_words else None)
        return " ".join(p for p in (self.colour, what) if p) or self.raw

    @property
    def has_shape(self) -> bool:
        """Does the query say what the icon looks like (a drawn class or a glyph)?"""
        return self.shape is not None or bool(self.glyphs)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: what was understood and what was not."""
        return {"raw": self.raw, "colour": self.colour, "shape": self.shape, "glyphs": list(self.glyphs),
                "glyph_words": list(self.glyph_words), "position": str(self.position),
                "unknown": list(self.unknown), "status_bar": self.status_bar, "style": self.style,
                "texts": list(self.texts), "anchor": self.anchor, "names": list(self.names),
                "brands": list(self.brands), "container": self.container,
                "anchor_row": self.anchor_row}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower().replace("centre", "center"))


def parse_position(text: str | None) -> Position:
    """"top left", "Bottom", "upper-right corner", "center" -> Position; "" or None -> anywhere.

    Raises InputError for words that are not positions, listing the accepted ones.
    """
    if not text or not text.strip():
        return Position()
    vertical = horizontal = None
    bad = []
    for word in _words(text):
        place = POSITION_WORDS.get(word)
        if place in ("top", "bottom"):
            vertical = place
        elif place in ("left", "right"):
            horizontal = place
        elif place == "center":
            vertical = vertical or "center"
            horizontal = horizontal or "center"
        elif word not in FILLER:
            bad.append(word)
    if bad:
        raise InputError(f"icon position {text!r}: {', '.join(map(repr, bad))} is not a position; use "
                         "top, bottom, left, right, center, or two of them such as 'top left'")
    return Position(vertical, horizontal)


def parse_icon_query(description: str, position: str | None = None, names_ok: bool = False) -> IconQuery:
    """Parse an icon description; a trailing ", bottom" (Mobile-Agent's form) is read as the position.

    Raises InputError when the description has neither a colour nor a shape word (nor a brand); with
    ``names_ok``, words not understood are kept as an app's possible name (its label may be on screen)
    and only a description of filler words alone is refused.
    """
    raw = description.strip().strip("()[]").strip()
    if not raw:
        raise InputError("empty icon description; give a colour and a shape such as 'red heart'")
    desc, pos_text = raw, position
    if "," in raw:
        head, tail = raw.rsplit(",", 1)
        tail_words = _words(tail)
        if tail_words and all(w in POSITION_WORDS or w in FILLER for w in tail_words):
            desc = head
            pos_text = position or tail  # an explicit position wins over the one in the text
    words = _words(desc)
    status_bar = False
    for k in range(len(words) - 1):
        if words[k] in ("status", "notification") and words[k + 1] == "bar":
            status_bar, words = True, [*words[:k], "in", "the", *words[k + 2:]]
            break
    words, purpose = split_purpose(words)
    raw_purpose = purpose
    purpose, purpose_context = _split_context(purpose)
    words, context = _split_context(words)
    context = context or purpose_context  # "arrow to fill in jpmorgan chase": the row reading it
    texts = written_texts(desc, len(words))
    brands, icon_words = _brand_spans(words)
    colour, shape, glyphs, glyph_words, unknown, trailing = _read_words(icon_words)
    if purpose and not glyphs:  # "icon to open the menu": what it does names what it shows
        _, p_shape, p_glyphs, p_words, _, _ = _read_words(object_words(purpose))
        shape, glyphs, glyph_words = shape or p_shape, p_glyphs, glyph_words + p_words
    if looks := purpose_looks(raw_purpose, glyph_words):  # "arrow to fill in X": the fill-in arrow,
        _, shape, glyphs, glyph_words, _, _ = _read_words(looks)  # not any drawn arrow
    unknown = [w for w in unknown if w not in texts and w not in TEXT_MARKERS]
    said = words + [w for w in object_words(purpose) if w not in PURPOSE_VERBS]
    names = name_words(said, set(COLOUR_WORDS) | set(POSITION_WORDS) | FILLER | TEXT_MARKERS)
    trailing += [w for w in context if w in POSITION_WORDS and w not in ("up", "down")]
    if not pos_text and trailing:
        pos_text = " ".join(trailing)
    if colour is None and shape is None and not glyphs and not texts and not brands \
            and not (names_ok and names):
        raise InputError(f"icon description {description!r} names no colour and no shape I know; use "
                         "'[colour] [shape]' such as 'red heart' or 'gray gear' (colours: red, "
                         "orange, yellow, green, cyan, blue, purple, pink, brown, black, white, gray; "
                         f"not understood: {', '.join(unknown) or '-'})")
    style = next((STYLE_WORDS[w] for w in words if w in STYLE_WORDS), None)
    if row := filled_row(raw_purpose):  # "arrow to fill in west lake": the row reading "west lake"
        anchor, container, anchor_row = row, None, True
    else:
        anchor, container = _anchor(_with_numbers(desc, context)), _container(context)
        anchor_row = bool(context) and context[0] == "for"
    return IconQuery(colour, shape, parse_position(pos_text), tuple(unknown), raw, tuple(glyphs),
                     tuple(glyph_words), status_bar, style, texts, anchor, names, brands, container,
                     anchor_row)


def _brand_spans(words: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """(brands named, the words left to read as the icon's looks): a brand's name is not also read as
    glyphs ("google maps pin": a pin, not a map), unless the name is a glyph word itself ("facebook")."""
    found = find_brands(words)
    keep = list(words)
    for _brand, start, end in reversed(found):
        span, _ = longest_glyph_phrase(words, start)
        if span != end - start:
            del keep[start:end]
    return tuple(dict.fromkeys(b.key for b, _, _ in found)), keep


def written_texts(desc: str, n_words: int) -> tuple[str, ...]:
    """Words the description writes as text shown in the icon, lower-case: capitals ("LIVE icon", "G
    logo") or quoted ("'Go' button"), among its first ``n_words`` words (not its surroundings)."""
    tokens = re.findall(r"'[^']{1,12}'|\"[^\"]{1,12}\"|[A-Za-z0-9]+", desc)
    out: list[str] = []
    seen = 0
    marked = False  # the word before was "letter", "text"...: this one is the text ("letter w")
    written = False  # the word before was taken as the text: a marker after it names the icon ("Aa text")
    for tok in tokens:
        if seen >= n_words:
            break
        quoted = tok[0] in "'\""
        seen += len(_words(tok)) if quoted else 1
        word = tok[1:-1] if quoted else tok
        was = written
        written = quoted or (word.isupper() and len(word) <= 6 and word.isalnum()) or _cased_letter(word) or (
            marked and word.isalnum() and len(word) <= 12 and word.lower() not in FILLER)
        if written:
            out.append(word.lower())
        marked = not quoted and not was and word.lower() in TEXT_MARKERS - {"with"}
    return tuple(dict.fromkeys(out))


def _cased_letter(word: str) -> bool:
    """Is the word one letter written in both cases ("Aa", "AaA"): the text-size button's label, no
    word of the language (a capitalised word, "All", "Go", is not)."""
    return 2 <= len(word) <= 3 and word.isalpha() and len(set(word.lower())) == 1 \
        and not word.isupper() and not word.islower()


ANCHOR_HEADS = {"next", "to", "beside", "near", "by", "the", "a", "an", "under", "below", "above",
                "beneath", "underneath", "between", "before", "after", "for"}


def _anchor(context: list[str]) -> str | None:
    """The label named after a place word ("next to Home" -> "home"); None for "in the search bar" (an
    enclosing thing, not a label) or when no words remain."""
    if not context or context[0] in ("in", "inside", "within", "on"):
        return None
    rest = list(context)
    while rest and rest[0] in ANCHOR_HEADS and len(rest) > 1:
        rest.pop(0)
    rest = [w for w in rest if w not in POSITION_WORDS]
    return " ".join(rest) or None


def _with_numbers(desc: str, context: list[str]) -> list[str]:
    """The context words with the numbers the description writes among them ("beside Tigo's 3.9" ->
    beside tigo s 3 9): a label is often a rating or a count, which the words alone drop. The context as
    it was when its words cannot be told apart in the text."""
    if not context:
        return context
    tokens = re.findall(r"[a-z0-9]+", desc.lower().replace("centre", "center"))
    starts = [k for k, t in enumerate(tokens) if t == context[0]]
    if not starts:
        return context
    tail = tokens[starts[-1]:]
    letters = [w for t in tail for w in re.findall(r"[a-z]+", t)]
    return tail if letters == context else context


def _split_context(words: list[str]) -> tuple[list[str], list[str]]:
    """(words about the icon, words about its surroundings): "camera in the search bar" -> camera | bar.

    A context word counts only after the icon was named ("in" opening a query is kept), and "on the"
    too ("sparkle on the cyan button"); "on" alone stays ("white plus on blue circle" names a tile).
    "in a circle" is the icon's own shape ("check in a circle"), not a thing it sits in.
    """
    for k in range(1, len(words)):
        word = words[k]
        if word in CONTEXT_WORDS or (word == "on" and k + 1 < len(words) and words[k + 1] == "the"):
            if word == "next" and (k + 1 >= len(words) or words[k + 1] != "to"):
                continue  # "skip next" is a glyph; "next to" is a place
            if word in ("in", "inside", "within") and _encloses_shape(words[k + 1:]):
                continue
            return words[:k], words[k:]
    return words, []


def _encloses_shape(rest: list[str]) -> bool:
    """Does "in ..." name a plain shape drawn around the icon ("in a circle", "in a rounded square")?"""
    if rest[:1] in (["a"], ["an"]):
        rest = rest[1:]
    if not rest:
        return False
    cls, n = _shape_phrase(rest, 0)
    if cls is None:
        cls, n = SHAPE_WORDS.get(rest[0]), 1
    return cls in GEOMETRIC and all(w in POSITION_WORDS or w in FILLER for w in rest[n:])


CONTAINER_SKIP = {"in", "inside", "within", "on", "the", "a", "an", "of", "at"}


def _container(context: list[str]) -> str | None:
    """The thing named after "in" / "on the" ("in the search bar" -> "search bar"); None otherwise."""
    if not context or context[0] not in ("in", "inside", "within", "on"):
        return None
    rest = [w for w in context if w not in CONTAINER_SKIP and w not in POSITION_WORDS]
    return " ".join(rest) or None


def _read_words(words: list[str]) -> tuple[str | None, str | None, list[str], list[str], list[str],
                                           list[str]]:
    """(colour, shape class, glyphs, glyph words, unknown words, trailing position words)."""
    colour = shape = None
    glyphs: list[str] = []
    glyph_words: list[str] = []
    unknown: list[str] = []
    trailing: list[str] = []  # position words after the shape ("blue circle at the top left")
    i = 0
    while i < len(words):
        word = words[i]
        phrase_shape, n = _shape_phrase(words, i)
        if word in COLOUR_WORDS and colour is None:
            colour = COLOUR_WORDS[word]
            i += 1
            continue
        n_glyph, found = longest_glyph_phrase(words, i)
        if word in FILLER and word != "like" and n_glyph < 2:  # "icon", "sign": not glyph words alone
            n_glyph, found = 0, ()
        if phrase_shape is not None or found or word in SHAPE_WORDS:
            span = max(n, n_glyph, 1)
            phrase = " ".join(words[i:i + span])
            cls = phrase_shape or SHAPE_WORDS.get(phrase) or SHAPE_WORDS.get(words[i + span - 1])
            if cls is not None and shape is None:
                shape = cls
            geometric = cls in GEOMETRIC and phrase not in synonyms()  # "circle", "bar": no glyphs
            if found and not geometric and n_glyph == span:
                glyphs += [g for g in found if g not in glyphs]
                glyph_words.append(phrase)
            i += span
            continue
        if word in POSITION_WORDS:
            # after the shape it says where the icon is; before it, it describes the icon ("left arrow")
            if (shape is not None or glyphs) and word not in ("up", "down"):
                trailing.append(word)
        elif word not in FILLER and word not in COLOUR_WORDS:
            unknown.append(word)
        i += 1
    return colour, shape, glyphs, glyph_words, unknown, trailing


def _shape_phrase(words: list[str], start: int) -> tuple[str | None, int]:
    """A multi-word drawn-shape phrase ("magnifying glass") starting at ``start``: (class, words)."""
    for phrase, cls in SHAPE_PHRASES:
        parts = phrase.split()
        if words[start:start + len(parts)] == parts:
            return cls, len(parts)
    return None, 0
