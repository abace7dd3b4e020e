"""Text localization, Mobile-Agent's "click text (T)" and "open App (A)": from words to a tap point.

Exact matches (after the shared normalisation) win; when there are none, lines that contain the text as
whole words or match it fuzzily are taken, keeping those close to the best. Boxes covering a large part
of the screen (a page-sized text block) are ignored. Outcomes: ``not_found`` with the closest texts on
screen, ``found`` (tap the centre of the text), ``ambiguous`` (2 to 4 candidates, each with a crop of the
region around it with its box drawn, so a model can choose) and ``too_many`` (more than 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from droidpilot.errors import InputError
from droidpilot.perception.crops import crop_with_box
from droidpilot.perception.launcher import icon_above
from droidpilot.perception.match import TextMatch, match_text, similarity
from droidpilot.perception.ocr import ImageInput, OcrEngine, load_image
from droidpilot.perception.types import Box, Candidate, LocateResult, OcrLine, box_center

MAX_CANDIDATES = 4  # more than this many matches is "too_many"
LARGE_BOX_FRACTION = 0.25  # lines whose box covers more of the screen than this are ignored
FUZZY_MARGIN = 0.1  # fuzzy matches scoring this much below the best one are dropped
CLOSEST = 5  # texts offered on not_found


@dataclass(frozen=True)
class _Hit:
    line: OcrLine
    match: TextMatch


def _usable(lines: list[OcrLine], screen_size: tuple[int, int], large_fraction: float) -> list[OcrLine]:
    area = max(1, screen_size[0] * screen_size[1])
    return [ln for ln in lines
            if (ln.box[2] - ln.box[0]) * (ln.box[3] - ln.box[1]) <= large_fraction * area and ln.text.strip()]


def _merged(lines: list[OcrLine]) -> list[OcrLine]:
    """Pairs of lines that may be one label split by OCR: side by side on a row, or stacked and centred
    (a launcher label wrapped onto two lines) or left-aligned (a list title wrapped onto two lines)."""
    out = []
    for a in lines:
        ah = a.box[3] - a.box[1]
        for b in lines:
            if a is b:
                continue
            bh = b.box[3] - b.box[1]
            h = min(ah, bh)
            same_row = abs((a.box[1] + a.box[3]) - (b.box[1] + b.box[3])) / 2 <= h / 2
            side_by_side = same_row and 0 <= b.box[0] - a.box[2] <= 1.5 * h
            centred = abs((a.box[0] + a.box[2]) - (b.box[0] + b.box[2])) / 2 <= h
            left_aligned = abs(a.box[0] - b.box[0]) <= h  # a list row's title wrapped onto two lines
            # OCR boxes of adjacent lines may overlap by a few pixels
            stacked = -0.3 * h <= b.box[1] - a.box[3] <= 0.8 * h and (centred or left_aligned)
            if not (side_by_side or stacked):
                continue
            joined = f"{a.text} {b.text}"
            box = (min(a.box[0], b.box[0]), min(a.box[1], b.box[1]), max(a.box[2], b.box[2]),
                   max(a.box[3], b.box[3]))
            out.append(OcrLine(joined, box, min(a.score, b.score)))
    return out


def _wrapped(line: OcrLine, lines: list[OcrLine]) -> bool:
    """Is ``line`` the end of a label wrapped onto two: another line of the same height directly above it,
    centred on it (a tile's "All-Access / Playlists")? A line with one below it is a title over its subtitle
    (a result's "Campus Stay Hotel / Hotel · 1.3 km"), which stands for itself."""
    h = line.box[3] - line.box[1]
    centre = line.box[0] + line.box[2]
    for other in lines:
        oh = other.box[3] - other.box[1]
        if other is line or not 0.75 <= oh / max(1, h) <= 1.33:
            continue
        gap = line.box[1] - other.box[3]  # other above line
        # centred on each other (a tile's label), not merely left-aligned as a result's address over its title
        if -0.3 * h <= gap <= 0.8 * h and abs(other.box[0] + other.box[2] - centre) / 2 <= 0.25 * h:
            return True
    return False


def _hits(lines: list[OcrLine], query: str, casefold: bool) -> list[_Hit]:
    hits = []
    for line in lines:
        m = match_text(query, line.text, casefold=casefold)
        if m is not None:
            hits.append(_Hit(line, m))
    return hits


def _select(lines: list[OcrLine], query: str, casefold: bool) -> list[_Hit]:
    """Exact single lines (those standing alone before those that are half of a wrapped label), else exact
    rejoined pairs, else the best fuzzy or containing single lines, else the best fuzzy or containing
    rejoined pairs."""
    hits = _hits(lines, query, casefold)
    exact = [h for h in hits if h.match.kind == "exact"]
    if len(exact) > 1:
        alone = [h for h in exact if not _wrapped(h.line, lines)]
        exact = alone or exact
    if exact:
        return exact
    joined = _hits(_merged(lines), query, casefold)
    exact = [h for h in joined if h.match.kind == "exact"]
    if exact:
        return exact
    # A rejoined pair only when no single line holds the query: "Wi-Fi" inside the subtitle under
    # "Network & internet" is that subtitle's, not the pair's.
    hits = hits or joined
    if not hits:
        return []
    best = max(h.match.score for h in hits)
    return [h for h in hits if h.match.score >= best - FUZZY_MARGIN]


def _overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(1, smaller)


def _distinct(hits: list[_Hit]) -> list[_Hit]:
    """Best first, dropping a hit that mostly overlaps a better one (a line and the pair it is part of)."""
    kept: list[_Hit] = []
    for hit in sorted(hits, key=lambda h: (-h.match.score, h.line.box[1], h.line.box[0])):
        if all(_overlap(hit.line.box, k.line.box) <= 0.5 for k in kept):
            kept.append(hit)
    return kept


def _target_box(hit: _Hit) -> Box:
    """The part of the line that holds the query (the whole line unless it holds more)."""
    x1, y1, x2, y2 = hit.line.box
    start, end = hit.match.span
    if (start, end) == (0.0, 1.0):
        return hit.line.box
    w = x2 - x1
    return (x1 + int(start * w), y1, max(x1 + int(start * w) + 1, x1 + round(end * w)), y2)


def closest_texts(lines: list[OcrLine], query: str, limit: int = CLOSEST) -> list[str]:
    """The screen texts most similar to ``query``, most similar first (distinct, non-zero similarity)."""
    scored = sorted(((similarity(query, ln.text), i, ln.text) for i, ln in enumerate(lines)),
                    key=lambda t: (-t[0], t[1]))
    out: list[str] = []
    for score, _, text in scored:
        if score <= 0 or text in out:
            continue
        out.append(text)
        if len(out) == limit:
            break
    return out


def _outcome(candidates: list[Candidate], image: Image.Image | None, lines: list[OcrLine],
             query: str, max_candidates: int) -> LocateResult:
    if not candidates:
        return LocateResult("not_found", [], closest_texts(lines, query))
    if len(candidates) == 1:
        return LocateResult("found", candidates)
    if len(candidates) > max_candidates:
        return LocateResult("too_many", candidates)
    if image is not None:
        for cand in candidates:
            cand.crop = crop_with_box(image, cand.box)
    return LocateResult("ambiguous", candidates)


def locate_text(lines: list[OcrLine], query: str, screen_size: tuple[int, int],
                image: Image.Image | None = None, *, ignore_case: bool = True,
                large_fraction: float = LARGE_BOX_FRACTION, max_candidates: int = MAX_CANDIDATES
                ) -> LocateResult:
    """Where is ``query`` among the OCR ``lines`` of a screen of ``screen_size`` (width, height)?

    ``image`` (the screenshot) is needed only for the crops of an ambiguous outcome.
    """
    if not query or not query.strip():
        raise InputError("the text to locate is empty; give the words shown on the screen")
    usable = _usable(lines, screen_size, large_fraction)
    hits = _distinct(_select(usable, query, casefold=ignore_case))
    candidates = []
    for hit in hits:
        box = _target_box(hit)
        candidates.append(Candidate(box=box, point=box_center(box), score=hit.match.score,
                                    text=hit.line.text))
    return _outcome(candidates, image, usable, query, max_candidates)


def locate_text_in_image(image: ImageInput, query: str, engine: OcrEngine, **kwargs: object) -> LocateResult:
    """Convenience: OCR ``image`` with ``engine`` (wrap it in ``CachedOcr`` to reuse work) and locate."""
    img = load_image(image)
    lines = engine.recognize(image)  # the original input, so a cache keys it by its file bytes
    return locate_text(lines, query, img.size, img, **kwargs)  # type: ignore[arg-type]


def locate_app(lines: list[OcrLine], app_name: str, image: ImageInput, *,
               max_candidates: int = MAX_CANDIDATES) -> LocateResult:
    """Mobile-Agent's "open App": find the app's label on a launcher screen and tap the icon above it.

    The icon is found from the screen itself (the non-background blob above the label, within the label's
    column, whose width comes from the spacing of the labels on its row), or, failing that, from the
    layout of the label rows; when neither is possible the label itself is the target (launchers open an
    app from its label too) and the candidate's description says so.
    """
    img = load_image(image)
    labels = locate_text(lines, app_name, img.size, None, max_candidates=max_candidates)
    if labels.status in ("not_found", "too_many"):
        return labels
    candidates = []
    for label in labels.candidates:
        icon, how = icon_above(img, label.box, lines)
        if icon is None:
            cand = Candidate(box=label.box, point=label.point, score=label.score * 0.8, text=label.text,
                             description="app label (no icon found above it)")
        else:
            cand = Candidate(box=icon, point=box_center(icon), score=label.score, text=label.text,
                             description=f"app icon above its label ({how})")
        candidates.append(cand)
    return _outcome(candidates, img, lines, app_name, max_candidates)
