"""Choose among a few text candidates by what the model's own words name beside the target.

GPT-4V writes "click text (Install)" where two Install buttons show, and in the same step's thought says
'the "Install" button associated with the Instagram app listing'. The names the model writes (quoted
phrases and capitalised names, not the target itself) are looked up on screen; a name supports the
candidate in its row (or column) when it is clearly nearer that candidate than any other. When names
support several candidates, the one the model wrote nearest the target (in words) wins, and only by a
clear margin; otherwise nothing is chosen and the model is asked, as before.

Icons likewise: "the 'Find' icon at the bottom center" names the label under one of two magnifiers, and
the one that label sits beside is taken (``pick_icon_by_context``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from droidpilot.perception.types import Candidate, OcrLine, box_center

_QUOTED = re.compile(r"[\"\u201c\u201d]([^\"\u201c\u201d]{2,80})[\"\u201c\u201d]")
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")  # hyphens split words: "Live-Live", "Live\u2013Live"
# Capitalised words that begin sentences or are the grammar of a step, not names of things on screen.
_COMMON = frozenset(re.findall(r"\w+",
    "a an and as at by for from i if in into is it its next now of on or since so that the then there "
    "these this those to with my me we you after before first last current screenshot screen step "
    "tap click action instruction observation thought"))
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
NEAR_ROW = 0.5  # a name supports a candidate when it is this much nearer it than the next candidate
MAX_WORDS = 12  # a name written further than this many words from the target says nothing about it
MARGIN = 2  # the winning name must be written this many words nearer the target than the runner-up's


@dataclass(frozen=True)
class ContextChoice:
    """The candidate picked (0-based) and the name that picked it, for the step's record."""

    index: int
    name: str
    words_apart: int


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def names_in(context: str, target: str) -> list[str]:
    """Quoted phrases and runs of capitalised words of ``context``, minus the target and common words."""
    found = [m.group(1).strip(" .,;:!?") for m in _QUOTED.finditer(context)]
    goal = _words(target)
    run: list[str] = []
    for word in [*_WORD.findall(_QUOTED.sub(" | ", context)), "|"]:
        if word[:1].isupper() and word.lower() not in _COMMON and word.lower() not in goal:
            run.append(word)  # a run ends at the target's own words: "Install Instagram" names Instagram
            continue
        if run:
            found.append(" ".join(run))
        run = []
    out: list[str] = []
    for name in found:
        words = _words(name)
        if not words or len("".join(words)) < 3 or all(w in _COMMON for w in words):
            continue
        if _contains(goal, words) or _contains(words, goal):  # the target itself, or part of it
            continue
        if name.lower() not in (n.lower() for n in out):
            out.append(name)
    return out


def _contains(words: list[str], part: list[str]) -> bool:
    n = len(part)
    return n > 0 and any(words[i:i + n] == part for i in range(len(words) - n + 1))


def _mentions(words: list[str], part: list[str], stem: bool) -> list[int]:
    """Start indexes of ``part`` in ``words``; with ``stem`` a word of four letters or more also matches
    its longer forms ("cancel" in "canceled")."""
    n = len(part)

    def same(w: str, p: str) -> bool:
        return w == p or (stem and len(p) >= 4 and w.startswith(p))

    return [i for i in range(len(words) - n + 1) if all(same(words[i + k], part[k]) for k in range(n))]


def words_apart(context: str, target: str, name: str) -> int | None:
    """How few words lie between a mention of ``target`` and one of ``name`` in one sentence (or line) of
    ``context``: a page title the observation states on a line of its own names no candidate."""
    goal, other = _words(target), _words(name)
    best: int | None = None
    for sentence in _SENTENCE.split(context):
        words = _words(sentence)
        for t in _mentions(words, goal, stem=True):
            for s in _mentions(words, other, stem=False):
                gap = s - (t + len(goal)) if s >= t else t - (s + len(other))
                if gap >= 0 and (best is None or gap < best):
                    best = gap
    return best


def _supported(line: OcrLine, candidates: list[Candidate]) -> int | None:
    """The candidate ``line`` sits beside: candidates in a column are told apart by rows, in a row by
    columns; the nearest must be clearly nearer than the next."""
    xs = [c.point[0] for c in candidates]
    ys = [c.point[1] for c in candidates]
    axis = 1 if max(ys) - min(ys) >= max(xs) - min(xs) else 0
    here = box_center(line.box)[axis]
    gaps = sorted((abs(c.point[axis] - here), i) for i, c in enumerate(candidates))
    if len(gaps) > 1 and gaps[0][0] < NEAR_ROW * gaps[1][0]:
        return gaps[0][1]
    return None


def pick_by_context(candidates: list[Candidate], lines: list[OcrLine], target: str,
                    context: str) -> ContextChoice | None:
    """The candidate the model's ``context`` (its thought and observation) singles out, or None."""
    if len(candidates) < 2 or not context.strip():
        return None
    goal = _words(target)
    best: dict[int, tuple[int, str]] = {}
    for name in names_in(context, target):
        apart = words_apart(context, target, name)
        if apart is None or apart > MAX_WORDS:
            continue
        want = _words(name)
        for line in lines:
            words = _words(line.text)
            if not _contains(words, want) or _contains(words, goal):  # a candidate's own line says nothing
                continue
            index = _supported(line, candidates)
            if index is not None and (index not in best or apart < best[index][0]):
                best[index] = (apart, name)
    if not best:
        return None
    ranked = sorted((apart, index, name) for index, (apart, name) in best.items())
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < MARGIN:
        return None
    apart, index, name = ranked[0]
    return ContextChoice(index, name, apart)


# A name the model gives an icon: "the 'Find' icon", 'the "Notes" app icon', "the Google Play Store app".
_ICON_NAME = re.compile(r"[\"'\u2018\u201c]([^\"'\u2018\u2019\u201c\u201d]{2,40})[\"'\u2019\u201d]\s+"
                        r"(?:app\s+)?(?:icon|tab|button|app)\b"
                        r"|\b((?:[A-Z][\w&-]*\s+){0,3}[A-Z][\w&-]*)\s+(?:app\s+)?(?:icon|tab|button|app)\b")
# An app the model names as what it opens: 'the "Notes" app icon', "open the Google Play Store app".
_APP_NAME = re.compile(r"[\"'\u2018\u201c]([^\"'\u2018\u2019\u201c\u201d]{2,40})[\"'\u2019\u201d]\s+app\b"
                       r"|\b((?:[A-Z][\w&-]*\s+){0,3}[A-Z][\w&-]*)\s+app\b")
LABEL_REACH = 2.0  # an icon's label is at most this many label heights from it (a tab's, an app's name)


def icon_names(context: str, pattern: re.Pattern[str] = _ICON_NAME) -> list[str]:
    """Names the model's words give the icon it means ("the 'Find' icon" -> Find), common words aside."""
    out: list[str] = []
    for m in pattern.finditer(context):
        words = [w for w in _words(m.group(1) or m.group(2)) if w not in _COMMON]
        name = " ".join(words)
        if len(name) >= 3 and name not in out:
            out.append(name)
    return out


def _labels(name: str, lines: list[OcrLine]) -> list[OcrLine]:
    """Lines reading the name (or part of it: "Play Store" for "Google Play Store"), whole words."""
    want = name.split()
    return [ln for ln in lines if (words := _words(ln.text))
            and (_contains(want, words) or _contains(words, want)) and len("".join(words)) >= 3]


def _gap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    dx = max(0, a[0] - b[2], b[0] - a[2])
    dy = max(0, a[1] - b[3], b[1] - a[3])
    return float(dx * dx + dy * dy) ** 0.5


def pick_icon_by_context(candidates: list[Candidate], lines: list[OcrLine], context: str
                         ) -> ContextChoice | None:
    """The ambiguous icon whose label the model's words name ("the 'Find' icon at the bottom" and a FIND
    label under one magnifier): the label must lie within LABEL_REACH of that candidate and clearly
    nearer it than any other; names pointing at different candidates choose nothing."""
    if len(candidates) < 2 or not context.strip():
        return None
    chosen: dict[int, str] = {}
    for name in icon_names(context):
        for line in _labels(name, lines):
            gaps = sorted((_gap(tuple(c.box), line.box), i) for i, c in enumerate(candidates))  # type: ignore[arg-type]
            height = max(1, line.box[3] - line.box[1])
            if gaps[0][0] <= LABEL_REACH * height and gaps[0][0] < NEAR_ROW * gaps[1][0]:
                chosen.setdefault(gaps[0][1], name)
    if len(chosen) != 1:
        return None
    index, name = next(iter(chosen.items()))
    return ContextChoice(index, name, 0)


def app_names(context: str) -> list[str]:
    """Apps the model's words say it opens ('tap the "Notes" app icon' -> notes), common words aside."""
    return icon_names(context, _APP_NAME)
