"""Parse what a model says about an icon: "red heart", "gray magnifier", "red heart, bottom", "top left".

Colour and shape words have synonyms ("grey", "magnifying glass", "search icon", "x"); a shape word
outside the vocabulary is kept in ``unknown`` so callers can say it was not understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from droidpilot.errors import InputError

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
POSITION_WORDS: dict[str, str] = {
    "top": "top", "upper": "top", "up": "top", "bottom": "bottom", "lower": "bottom", "down": "bottom",
    "left": "left", "right": "right", "center": "center", "centre": "center", "middle": "center",
    "central": "center",
}
FILLER = {"a", "an", "the", "icon", "shaped", "shape", "of", "at", "in", "on", "with", "and", "corner",
          "side", "screen", "area", "part", "symbol", "logo", "light", "dark", "bright", "small", "big",
          "large", "filled", "outlined", "outline", "solid", "hollow", "like", "-", "s", "glass",
          "sign", "mark"}


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


@dataclass(frozen=True)
class IconQuery:
    """A parsed icon description: colour name, shape class, position, and words not understood."""

    colour: str | None
    shape: str | None
    position: Position = field(default_factory=Position)
    unknown: tuple[str, ...] = ()
    raw: str = ""

    @property
    def text(self) -> str:
        """The description in canonical words ("red heart"), as a ranker reads it."""
        return " ".join(p for p in (self.colour, self.shape) if p) or self.raw


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


def parse_icon_query(description: str, position: str | None = None) -> IconQuery:
    """Parse an icon description; a trailing ", bottom" (Mobile-Agent's form) is read as the position.

    Raises InputError when the description has neither a colour nor a shape word.
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
    lowered = " " + " ".join(_words(desc)) + " "
    shape = None
    for phrase, cls in SHAPE_PHRASES:
        if f" {phrase} " in lowered:
            shape = cls
            lowered = lowered.replace(f" {phrase} ", " ")
            break
    colour = None
    unknown: list[str] = []
    trailing: list[str] = []  # position words after the shape ("blue circle at the top left")
    for word in lowered.split():
        if word in COLOUR_WORDS and colour is None:
            colour = COLOUR_WORDS[word]
        elif word in SHAPE_WORDS and shape is None:
            shape = SHAPE_WORDS[word]
        elif shape is not None and word in POSITION_WORDS and word not in ("up", "down"):
            trailing.append(word)
        elif word in POSITION_WORDS:
            continue  # before the shape it describes the icon ("left arrow"), not where it is
        elif word not in FILLER and word not in COLOUR_WORDS and word not in SHAPE_WORDS:
            unknown.append(word)
    if not pos_text and trailing:
        pos_text = " ".join(trailing)
    if colour is None and shape is None:
        raise InputError(f"icon description {description!r} names no colour and no shape I know; use "
                         "'[colour] [shape]' such as 'red heart' or 'gray magnifier' (colours: red, "
                         "orange, yellow, green, cyan, blue, purple, pink, brown, black, white, gray)")
    return IconQuery(colour, shape, parse_position(pos_text), tuple(unknown), raw)
