"""An icon named by its app ("youtube icon", "blue calculator"): the label OCR reads under or beside a
tile names the app, so a query naming that app picks the tile whose label it is.

A label names the app when every word of it is among the query's words ("Calculator" for "blue
calculator", "Alibaba.com" for "orange alibaba icon": a web suffix does not count), when it is a label the
named brand's tile shows ("Google Play" for "play store"), or when a store listing's title starts with
the name and a separator follows ("Chamet - Live Video Chat" for "chamet"). A label printed on two lines
("Amazon" over "Music") is read as one. The tile is the candidate just above the label (a launcher, a
bottom bar) or, when much taller than the text, just left of it (a store's list row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from droidpilot.perception.icons.brands import Brand, words_of
from droidpilot.perception.types import Box, OcrLine

# Words a label or a name carries that say nothing of which app it is ("Alibaba.com", "YouTube app").
GENERIC = frozenset({"com", "cn", "net", "org", "app", "apps", "the", "icon", "logo", "tile", "application"})
STATUS_BAR = 0.04  # lines in the top share of the screen are the clock and status icons, not labels
TITLE_SEPARATORS = "-–—:|("  # a store listing's title: the app's name, then one of these
MERGE_CENTRE = 0.06  # two lines whose centres differ by less than this share of their width are one label
FUZZY_WORD = 0.8  # similarity at which two words of five letters or more are the same (one OCR slip)
# a tile left of a label is 1.8 to 4.5 times the text's height (a list row's icon beside its title and
# one or two lines under it; taller, the box holds more than the tile)
BESIDE_HEIGHT, BESIDE_MAX = 1.8, 4.5
ON_TILE = 3.5  # a tile with the app's name written on it is at most this many text heights tall
ROW_DOUBT = 0.6  # a tile beside a label is less sure than one above it (a launcher's wallpaper is beside)


@dataclass(frozen=True)
class AppLabel:
    """A text that may be an app's label: its words (generic ones dropped) and its box."""

    text: str
    box: Box
    words: tuple[str, ...]


def _content(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(w for w in words if w not in GENERIC)


def same_word(a: str, b: str) -> bool:
    """Equal, or one OCR slip apart in a word of five letters or more ("autgmobile" ~ "automobile")."""
    if a == b:
        return True
    return min(len(a), len(b)) >= 5 and SequenceMatcher(None, a, b).ratio() >= FUZZY_WORD


def _stacked(top: OcrLine, below: OcrLine) -> bool:
    """Is ``below`` the second line of the same centred label as ``top`` ("Phone" over "Manager")?"""
    th, bh = top.box[3] - top.box[1], below.box[3] - below.box[1]
    gap = below.box[1] - top.box[3]
    if not (-0.2 * th <= gap <= 0.6 * th) or not (0.7 <= bh / max(1, th) <= 1.4):
        return False
    width = max(top.box[2] - top.box[0], below.box[2] - below.box[0])
    centre_gap = abs((top.box[0] + top.box[2]) - (below.box[0] + below.box[2])) / 2
    return centre_gap <= max(4.0, MERGE_CENTRE * width) and len(top.text.split()) <= 2 \
        and len(below.text.split()) <= 2


def app_labels(lines: Sequence[OcrLine], height: int) -> list[AppLabel]:
    """Texts on screen that may be app labels, two-line labels joined (their lines then not alone)."""
    usable = [ln for ln in lines if ln.box[3] > STATUS_BAR * height and _content(words_of(ln.text))]
    joined: set[int] = set()
    out: list[AppLabel] = []
    for i, top in enumerate(usable):
        for j, below in enumerate(usable):
            if i != j and j not in joined and i not in joined and _stacked(top, below):
                box = (min(top.box[0], below.box[0]), top.box[1], max(top.box[2], below.box[2]), below.box[3])
                text = f"{top.text} {below.text}"
                out.append(AppLabel(text, box, _content(words_of(text))))
                joined |= {i, j}
                break
    out += [AppLabel(ln.text, ln.box, _content(words_of(ln.text))) for k, ln in enumerate(usable)
            if k not in joined]
    return out


def _all_among(label: Sequence[str], names: Sequence[str]) -> bool:
    return bool(label) and all(any(same_word(w, n) for n in names) for w in label)


def _title_prefix(label: AppLabel, names: Sequence[str]) -> int:
    """Words of the query's name that open a store listing's title followed by a separator, else 0."""
    text = label.text.strip().lower()
    for n in range(len(names), 0, -1):
        for start in range(len(names) - n + 1):
            run = " ".join(names[start:start + n])
            if not _content(words_of(run)):
                continue
            rest = text[len(run):].lstrip() if text.startswith(run) else ""
            if rest and rest[0] in TITLE_SEPARATORS:
                return n
    return 0


def _match(label: AppLabel, names: Sequence[str], brands: Sequence[Brand]) -> float:
    """How many of the query's words the label names (0: it does not name the app)."""
    if sum(len(w) for w in label.words) < 2:
        return 0.0
    for brand in brands:
        for shown in (*brand.labels, *brand.names):
            shown = _content(shown)
            if len(shown) == len(label.words) and all(same_word(a, b) for a, b in zip(shown, label.words,
                                                                                        strict=True)):
                return float(len(label.words)) + 0.5  # the brand's own label, whatever else was said
    if _all_among(label.words, names):
        return float(len(label.words))
    prefix = _title_prefix(label, names)
    return prefix - 0.5 if prefix else 0.0


def labels_naming(lines: Sequence[OcrLine], names: Sequence[str], brands: Sequence[Brand], height: int
                  ) -> list[AppLabel]:
    """The labels on screen that name the app the query names, best-naming only (empty if none)."""
    if not names and not brands:
        return []
    scored = [(_match(lb, names, brands), lb) for lb in app_labels(lines, height)]
    best = max((s for s, _ in scored), default=0.0)
    return [lb for s, lb in scored if s > 0 and s == best]


def labelled(box: Box, label: Box) -> float:
    """How surely ``box`` is the icon ``label`` names, 0 when it is not: the tile it is written on (a
    logo spelling the name), just above the label and across it (a launcher, a bottom bar), just left of
    it and much taller than the text (a store's list row), or left of it on its line (a chip, a menu
    row). Nearer is surer: 1 / (1 + gap in text heights), and a
    tall tile beside the label less sure than one above it."""
    bw, bh = box[2] - box[0], box[3] - box[1]
    lh = max(1, label[3] - label[1])
    if _written_on(box, label):
        return 1.0
    gap_below = label[1] - box[3]
    overlap = min(box[2], label[2]) - max(box[0], label[0])
    above = box[1] < label[1] - 0.5 * lh  # starts above the label: not a speck of its own letters
    if above and -0.3 * lh <= gap_below <= max(0.6 * bh, 1.6 * lh) \
            and overlap >= 0.5 * min(bw, label[2] - label[0]):
        return 1.0 / (1.0 + max(0, gap_below) / lh)
    gap_beside = label[0] - box[2]
    if gap_beside < -2:
        return 0.0
    centre_y = (label[1] + label[3]) / 2
    row = gap_beside <= max(0.5 * bw, 2 * lh) and box[1] <= centre_y <= box[3] \
        and BESIDE_HEIGHT * lh <= bh <= BESIDE_MAX * lh
    chip = gap_beside <= lh and label[1] <= (box[1] + box[3]) / 2 <= label[3] and 0.5 * lh <= bh <= 1.8 * lh
    near = 1.0 / (1.0 + max(0, gap_beside) / lh)
    return near if chip else ROW_DOUBT * near if row else 0.0


def _written_on(box: Box, label: Box) -> bool:
    """Is the label written across the middle of the candidate, a squarish tile at most ON_TILE text
    heights tall (a logo spelling the app's name, "Tigo" on its purple tile), not a row or card holding
    a title, nor a launcher's tile boxed with the label under it?"""
    bw, bh = box[2] - box[0], box[3] - box[1]
    within = box[0] <= label[0] and box[1] <= label[1] and label[2] <= box[2] and label[3] <= box[3]
    centred = abs((label[0] + label[2]) - (box[0] + box[2])) <= 0.5 * bw \
        and abs((label[1] + label[3]) - (box[1] + box[3])) <= 0.5 * bh  # centres a quarter-side apart
    return within and centred and bh <= ON_TILE * max(1, label[3] - label[1]) and 0.75 * bh <= bw <= 1.33 * bh


def name_words(words: Sequence[str], skip: set[str]) -> tuple[str, ...]:
    """The words of a query that may name an app: all but ``skip`` (colours, places, filler)."""
    return tuple(w for w in words if w not in skip)
