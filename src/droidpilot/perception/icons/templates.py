"""Find icon template images on a screenshot: multi-scale normalised cross-correlation with NMS.

Scales run from 0.5x to 2.0x the template's file size. Each scale is first matched on a reduced copy of
the screen (cheap), and the promising peaks are then re-scored at full resolution in a small window, so
a 1080x2400 screenshot costs a fraction of a full-resolution sweep. Templates are decoded once per file
(cached by path, size and modification time); transparent pixels of PNG templates are masked out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.icons.candidates import iou
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.types import Box

DEFAULT_THRESHOLD = 0.8
DEFAULT_SCALES: tuple[float, ...] = tuple(float(s) for s in np.geomspace(0.5, 2.0, 15))
MIN_SIDE = 8  # a template scaled below this many pixels carries too little to match
COARSE_MIN_SIDE = 10  # the reduced copy is chosen so the scaled template keeps at least this size
REFINE_LIMIT = 8  # coarse peaks re-scored at full resolution per template
COARSE_SLACK = 0.22  # a coarse peak this far below the threshold may still pass at full resolution


@dataclass(frozen=True)
class Template:
    """A decoded template: grayscale pixels and an optional mask of its opaque pixels."""

    path: Path
    gray: np.ndarray
    mask: np.ndarray | None


@dataclass(frozen=True)
class TemplateMatch:
    """Where a template was found: box in screenshot pixels, the scale used and the correlation."""

    box: Box
    scale: float
    score: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: box, scale and score (rounded)."""
        return {"box": list(self.box), "scale": round(self.scale, 3), "score": round(self.score, 4)}


@lru_cache(maxsize=256)
def _load(path: str, size: int, mtime_ns: int) -> Template:
    del size, mtime_ns  # part of the cache key only
    img = read_image(path, keep_alpha=True)
    mask = None
    if img.ndim == 3 and img.shape[2] == 4:
        alpha = img[:, :, 3]
        if int(alpha.min()) < 250:
            mask = np.where(alpha >= 128, 255, 0).astype(np.uint8)
        img = img[:, :, :3]
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pixels = gray[mask > 0] if mask is not None else gray
    if pixels.size == 0 or float(pixels.std()) < 2.0:
        raise InputError(f"icon template {path} is a flat colour; correlation cannot find it (crop the "
                         "icon with some of its detail, not just a filled area)")
    return Template(Path(path), gray, mask)


def load_template(path: str | Path) -> Template:
    """Decode a template file once (cached per path, size and modification time)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise InputError(f"cannot read icon template {p}: {exc.strerror or exc}") from None
    return _load(str(p), st.st_size, st.st_mtime_ns)


class ScreenPyramid:
    """A grayscale screenshot and its half / quarter copies, built once and shared by all templates."""

    def __init__(self, gray: np.ndarray) -> None:
        self.levels: dict[int, np.ndarray] = {1: gray}
        h, w = gray.shape[:2]
        for factor in (2, 4, 8):
            if min(h, w) // factor >= 32:
                self.levels[factor] = cv2.resize(gray, (w // factor, h // factor),
                                                 interpolation=cv2.INTER_AREA)

    @property
    def full(self) -> np.ndarray:
        """The full-resolution grayscale screenshot."""
        return self.levels[1]

    def level_for(self, template_side: float) -> int:
        """The coarsest reduction that keeps a template of this size at COARSE_MIN_SIDE pixels."""
        best = 1
        for factor in sorted(self.levels):
            if template_side / factor >= COARSE_MIN_SIDE:
                best = factor
        return best


def _resize(img: np.ndarray, scale: float) -> np.ndarray:
    h, w = img.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.resize(img, size, interpolation=interp)


def _correlate(screen: np.ndarray, tmpl: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    if mask is None:  # OpenCV answers 0 for flat windows itself
        return cv2.matchTemplate(screen, tmpl, cv2.TM_CCOEFF_NORMED)
    res = cv2.matchTemplate(screen, tmpl, cv2.TM_CCOEFF_NORMED, mask=mask)
    return np.nan_to_num(res, copy=False, nan=0.0, posinf=0.0, neginf=0.0)


def _inside_share(a: Box, b: Box) -> float:
    """Share of the smaller box covered by the other (a small match inside a big one is the same icon)."""
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return ix * iy / max(1, small)


def _peaks(res: np.ndarray, floor: float, radius: tuple[int, int], limit: int
           ) -> list[tuple[float, int, int]]:
    """Up to ``limit`` local maxima >= floor, each suppressing a window of ``radius`` around it."""
    out = []
    res = res.copy()
    rx, ry = radius
    for _ in range(limit):
        _, best, _, (x, y) = cv2.minMaxLoc(res)
        if best < floor:
            break
        out.append((float(best), x, y))
        res[max(0, y - ry):y + ry + 1, max(0, x - rx):x + rx + 1] = -1.0
    return out


def _refine(pyr: ScreenPyramid, t: Template, scales: list[float], window: Box
            ) -> tuple[float, Box, float] | None:
    """Re-score a place found on a reduced copy at full resolution, at each of ``scales``."""
    full = pyr.full
    best: tuple[float, Box, float] | None = None
    for s in scales:
        tmpl = _resize(t.gray, s)
        mask = _resize(t.mask, s) if t.mask is not None else None
        th, tw = tmpl.shape[:2]
        x1, y1 = max(0, window[0]), max(0, window[1])
        x2 = min(full.shape[1], max(window[2], x1 + tw))
        y2 = min(full.shape[0], max(window[3], y1 + th))
        if th < MIN_SIDE or tw < MIN_SIDE or x2 - x1 < tw or y2 - y1 < th:
            continue
        res = _correlate(full[y1:y2, x1:x2], tmpl, mask)
        _, score, _, (px, py) = cv2.minMaxLoc(res)
        if best is None or score > best[0]:
            best = (float(score), (x1 + px, y1 + py, x1 + px + tw, y1 + py + th), s)
    return best


def search_template(screen: np.ndarray | ScreenPyramid, template: Template | str | Path,
                    threshold: float = DEFAULT_THRESHOLD, scales: tuple[float, ...] = DEFAULT_SCALES,
                    max_matches: int = 10) -> tuple[list[TemplateMatch], TemplateMatch | None]:
    """(matches >= threshold best first with overlaps removed, the best placement seen at any score).

    ``screen`` is a grayscale (or BGR) screenshot or a ScreenPyramid built once for many templates.
    The best placement explains a miss ("best 0.62 at ...") without a second search.
    """
    if not isinstance(screen, ScreenPyramid):
        gray = cv2.cvtColor(screen, cv2.COLOR_BGR2GRAY) if screen.ndim == 3 else screen
        screen = ScreenPyramid(gray)
    t = template if isinstance(template, Template) else load_template(template)
    th0, tw0 = t.gray.shape[:2]
    report_floor = min(threshold, 0.5)
    found: list[tuple[float, Box, float]] = []
    coarse: list[tuple[float, Box, float, int, int, int]] = []  # score, full-res box, scale, x, y, factor
    for scale in scales:
        tw, th = tw0 * scale, th0 * scale
        if min(tw, th) < MIN_SIDE or th > screen.full.shape[0] or tw > screen.full.shape[1]:
            continue
        factor = screen.level_for(min(tw, th))
        level = screen.levels[factor]
        tmpl = _resize(t.gray, scale / factor)
        mask = _resize(t.mask, scale / factor) if t.mask is not None else None
        if tmpl.shape[0] > level.shape[0] or tmpl.shape[1] > level.shape[1]:
            continue
        res = _correlate(level, tmpl, mask)
        floor = report_floor - (COARSE_SLACK if factor > 1 else 0.0)
        radius = (max(1, tmpl.shape[1] // 2), max(1, tmpl.shape[0] // 2))
        for score, x, y in _peaks(res, floor, radius, limit=3):
            h, w = tmpl.shape[:2]
            box = (x * factor, y * factor, (x + w) * factor, (y + h) * factor)
            if factor == 1:
                found.append((score, box, scale))
            else:
                coarse.append((score, box, scale, x, y, factor))
    # Refine only the strongest places. Neighbouring scales find the same place, so each place is re-scored
    # at full resolution over the grid scales seen there (and one step either side), then half a step
    # around the winner.
    coarse.sort(key=lambda c: c[0], reverse=True)
    places: list[tuple[Box, list[float], int]] = []
    for _, box, scale, _, _, factor in coarse:
        home = next((p for p in places if iou(box, p[0]) > 0.4), None)
        if home is None:
            if len(places) < REFINE_LIMIT:
                places.append((box, [scale], factor))
        elif scale not in home[1]:
            home[1].append(scale)
    for box, place_scales, factor in places:
        lo, hi = min(place_scales) / 1.12, max(place_scales) * 1.12
        margin = 3 * factor + 2
        window = (box[0] - margin, box[1] - margin, round(box[0] + tw0 * hi * 1.05 + margin),
                  round(box[1] + th0 * hi * 1.05 + margin))
        first = _refine(screen, t, [s for s in scales if lo <= s <= hi], window)
        if first is None:
            continue
        second = _refine(screen, t, [first[2] / 1.035, first[2] * 1.035], window)
        found.append(first if second is None or second[0] <= first[0] else second)
    found.sort(key=lambda f: f[0], reverse=True)
    best = TemplateMatch(found[0][1], found[0][2], found[0][0]) if found else None
    kept: list[TemplateMatch] = []
    for score, box, scale in found:
        if score < threshold or len(kept) >= max_matches:
            break
        if all(iou(box, k.box) <= 0.3 and _inside_share(box, k.box) <= 0.5 for k in kept):
            kept.append(TemplateMatch(box, scale, score))
    return kept, best


def match_template(screen: np.ndarray | ScreenPyramid, template: Template | str | Path,
                   threshold: float = DEFAULT_THRESHOLD, scales: tuple[float, ...] = DEFAULT_SCALES,
                   max_matches: int = 10) -> list[TemplateMatch]:
    """Every place the template appears with correlation >= threshold, best first, overlaps removed."""
    return search_template(screen, template, threshold, scales, max_matches)[0]
