"""What the screen says about a query beyond the icon's looks: the label that names the app, the brand's
logo when no label does, and the container the icon is said to be in.

``read_scene`` is called once per query, before scoring. A label naming the app makes its tile the icon
(the nearest to the label weighs most, every other candidate ``NAMED_ELSEWHERE``); a brand with no
label on screen lends its logo's look (brands.yaml) to a query that says none; a container found on
screen weighs candidates outside it ``OUTSIDE``. An icon identified by its name or its text needs its
colour only near the asked one (a person's "purple" for an indigo avatar).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from droidpilot.perception.icons.apps import AppLabel, app_labels, labelled, labels_naming, same_word
from droidpilot.perception.icons.brands import Brand, brand_table
from droidpilot.perception.icons.context import container_box, field_around, inside
from droidpilot.perception.icons.placement import position_score
from droidpilot.perception.icons.query import IconQuery, parse_icon_query
from droidpilot.perception.types import Box, OcrLine, box_center

NAMED_ELSEWHERE = 0.3  # score share of a candidate no label names, when a label on screen names the app
OUTSIDE = 0.3  # score share of a candidate outside the container the query names
NEAR_COLOUR, NAMED_COLOUR = 0.2, 0.6  # a near colour (a neighbour's credit) counts as this when named
MULTICOLOUR = 3  # a logo of this many colours or more is checked by how many of them a candidate holds
HUE_PRESENT = 0.06  # share of a candidate's pixels at which one of the logo's colours is present
AVATAR_CHARS = 2  # an OCR line this short on a disc is the letter of an avatar or a logo


@dataclass(frozen=True)
class Scene:
    """The labels naming the app, the named container's box, and a multicoloured brand's colours."""

    labels: tuple[AppLabel, ...] = ()
    container: Box | None = None
    brand_colours: tuple[str, ...] = ()

    def naming(self, box: Box) -> float:
        """How surely a label naming the app names this candidate (0: none does; nearer is surer)."""
        return max((labelled(box, lb.box) for lb in self.labels), default=0.0)

    def naming_weights(self, boxes: Sequence[Box]) -> list[float]:
        """The share of its score each candidate keeps by the label naming the app: the nearest named one
        all, others named less for their distance, one no label names ``NAMED_ELSEWHERE``."""
        naming = [self.naming(b) for b in boxes]
        top = max(naming, default=0.0)
        if top <= 0:
            return [1.0] * len(naming)
        return [n / top if n > 0 else NAMED_ELSEWHERE for n in naming]

    def weight(self, box: Box, colours: dict[str, float]) -> float:
        """The share of its score a candidate keeps: 1.0 unless it is outside the named container or lacks
        the colours of the named brand's multicoloured logo."""
        w = 1.0
        if self.container is not None and not inside(box, self.container):
            w *= OUTSIDE
        if len(self.brand_colours) >= MULTICOLOUR:
            held = sum(colours.get(c, 0.0) >= HUE_PRESENT for c in self.brand_colours)
            w *= 0.4 + 0.6 * min(1.0, held / (len(self.brand_colours) - 1))
        return w


def named_colour(fit: float | None) -> float | None:
    """The colour fit of a candidate its label or its text identifies: a near colour is enough."""
    if fit is None or fit < NEAR_COLOUR:
        return fit
    return max(fit, NAMED_COLOUR)


def only_names(query: IconQuery) -> bool:
    """Does the query say nothing of the icon's looks or text, only words that may name an app?"""
    return query.colour is None and not query.has_shape and not query.texts and not query.brands


def with_looks(query: IconQuery, brand: Brand, lines: Sequence[OcrLine], size: tuple[int, int]
               ) -> IconQuery:
    """The query with the brand's logo filling in what it leaves unsaid: its shape or glyph, its colour
    when one is given, and the letter the logo carries when a line in the asked place reads it. The
    logo's own letter asked for ("google G logo") and read nowhere there is left to the looks."""
    looks = parse_icon_query(brand.looks) if brand.looks else None
    out = query
    if looks is not None and not query.has_shape:
        out = replace(out, shape=looks.shape, glyphs=looks.glyphs, glyph_words=looks.glyph_words)
    if looks is not None and query.colour is None and looks.colour is not None:
        out = replace(out, colour=looks.colour)
    placed = {" ".join(ln.text.lower().split()) for ln in lines
              if not query.position.given or position_score(box_center(ln.box), size, query.position) > 0}
    if query.texts and set(query.texts) <= set(brand.texts) and not set(query.texts) & placed:
        return replace(out, texts=())
    # a letter the logo carries ("f", "a"); a line reading the brand's whole name is another app's label
    # ("Amazon" over "Music"), since no label named this one
    texts = tuple(t for t in brand.texts if t in placed and len(t) <= AVATAR_CHARS)
    if texts and not query.texts:
        out = replace(out, texts=texts)
    return out


def read_scene(image: np.ndarray, query: IconQuery, lines: Sequence[OcrLine]) -> tuple[IconQuery, Scene]:
    """The query as the screen completes it (names a label settles are no longer unknown; a brand's
    look), and the scene that weighs its candidates."""
    height = image.shape[0]
    brands = [brand_table()[k] for k in query.brands]
    labels = labels_naming(lines, query.names, brands, height) if query.names or brands else []
    colours: tuple[str, ...] = ()
    if labels:
        said = [w for lb in labels for w in lb.words]
        named = name_run(re.findall(r"[a-z]+", query.raw.lower()), query.names, said)
        query = replace(query, unknown=tuple(w for w in query.unknown if w not in named))
    elif brands:
        query = with_looks(query, brands[0], lines, (image.shape[1], height))
        colours = brands[0].colours
    container = container_box(image, lines, query.container)
    if container is not None:  # "alexa ring in the search bar": not the one the bottom bar labels
        labels = [lb for lb in labels if inside(lb.box, container)]
    return query, Scene(tuple(labels), container, colours)


def name_run(words: Sequence[str], names: Sequence[str], said: Sequence[str]) -> set[str]:
    """The query's name words a label settles: those it says (one OCR slip allowed), and the name words
    next to a word it says exactly in the query's ``words``, up to the first word that is no name word
    ("chicago bulls logo" where the label under the logo reads "Bulls": a team's full name shortened on
    screen; "tree pin at the park" stops at "at")."""
    out = {n for n in names if any(same_word(n, s) for s in said)}
    for k, word in enumerate(words):
        if word not in said:
            continue
        for step in (-1, 1):
            j = k + step
            while 0 <= j < len(words) and words[j] in names and words[j] not in said:
                out.add(words[j])
                j += step
    return out


def avatar_discs(image: np.ndarray, text_boxes: Sequence[Box], lines: Sequence[OcrLine]) -> list[Box]:
    """The discs (or tiles) the short texts sit on: an avatar's letter, a logo's "f", grown from the
    colour around the letter; texts on the page itself (no disc around them) give none."""
    short = {ln.box for ln in lines if len(ln.text.strip()) <= AVATAR_CHARS}
    out = []
    for box in text_boxes:
        if box not in short:
            continue
        disc = field_around(image, box)
        th = box[3] - box[1]
        patch = disc[0] > 0 or disc[2] < image.shape[1]  # not the band across the screen
        if patch and disc[3] - disc[1] >= th and (disc[2] - disc[0]) <= 3 * (disc[3] - disc[1]):
            out.append(disc)
    return out


def screen_labels(lines: Sequence[OcrLine], height: int, limit: int = 12) -> list[str]:
    """Short texts on screen that may be app labels, for a not_found answer to a name nobody shows."""
    return [lb.text for lb in app_labels(lines, height) if len(lb.words) <= 3][:limit]
