"""Training images: a library glyph painted the ways real screens show it, and things that are no glyph.

A sample is a small BGR picture with the box a candidate finder would put around the icon. Glyphs come in
every style of glyphs.styles (as drawn, thin, bold, outline of a filled glyph, fill of an outlined one),
12-64 px, anti-aliased or hard-edged, on a plain page, on a coloured tile or on a busy background, then
blurred and JPEG-compressed at random; the box is shifted and cropped a little, as found boxes are.
Half the glyphs are first redrawn the ways real apps draw icons and the styles lack (``redraw``: other
stroke widths, outlines of any width, rounded or sharp corners, a slight aspect or perspective change; at
the final size a hairline outline; on the page a two-tone fill). Negatives are text fragments and
background patches.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from droidpilot.perception.icons.glyphs.render import glyph_mask
from droidpilot.perception.icons.glyphs.styles import glyph_styles

Box = tuple[int, int, int, int]
MIN_SIZE, MAX_SIZE = 12, 64  # the glyph's longer side in pixels
TEXT_FONTS = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
              Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))
CONTRAST = 70  # least per-channel difference between a glyph's colour and what it is drawn on


@dataclass(frozen=True)
class Sample:
    """A picture, the candidate box on it, and the background colour when a caller would know it (the
    tile a glyph sits on), as ``describe.foreground_mask`` takes them."""

    image: np.ndarray
    box: Box
    background: tuple[int, int, int] | None


@lru_cache(maxsize=8192)
def styled_masks(name: str) -> tuple[np.ndarray, ...]:
    """Every style of a library glyph as a float 0/1 mask cropped to its ink (cached per glyph)."""
    out = []
    for _, mask in glyph_styles(glyph_mask(name)):
        ys, xs = np.nonzero(mask)
        if len(xs):
            out.append(mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32))
    return tuple(out)


def _colour(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, 256, 3).astype(np.float32)


def _contrasting(rng: np.random.Generator, under: np.ndarray) -> np.ndarray:
    """A colour differing from ``under`` by at least CONTRAST in some channel (most icons are dark on
    light or light on dark, so half the time a gray far from the page)."""
    for _ in range(20):
        c = np.full(3, 255.0 - under.mean(), np.float32) if rng.random() < 0.5 else _colour(rng)
        c = np.clip(c + rng.normal(0, 20, 3), 0, 255)
        if np.abs(c - under).max() >= CONTRAST:
            return c
    return np.where(under > 127, 0.0, 255.0).astype(np.float32)


def _busy(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A background with gradients, blocks and lines (a photo, a map, a video frame)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a, b = _colour(rng), _colour(rng)
    t = (xx * rng.uniform(-1, 1) + yy * rng.uniform(-1, 1)) / max(h, w)
    img = a + (b - a) * np.clip(t - t.min(), 0, 1)[..., None]
    for _ in range(int(rng.integers(0, 4))):
        x1, y1 = int(rng.integers(0, w)), int(rng.integers(0, h))
        x2, y2 = int(rng.integers(0, w)), int(rng.integers(0, h))
        thick = -1 if rng.random() < 0.5 else int(rng.integers(1, 3))
        cv2.rectangle(img, (x1, y1), (x2, y2), _colour(rng).tolist(), thick)
    return np.clip(img + rng.normal(0, rng.uniform(0, 12), img.shape), 0, 255).astype(np.float32)


def _finish(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Blur and JPEG artefacts at random; uint8 BGR out."""
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.35:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 0.9)))
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 92))])
        if ok:
            out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def _jitter(rng: np.random.Generator, box: Box, shape: tuple[int, ...]) -> Box:
    """The box shifted and grown or cropped by up to about a tenth of its side, inside the picture."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    d = rng.uniform(-0.08, 0.12, 4) * side
    h, w = shape[:2]
    nx1, ny1 = max(0, round(x1 - d[0])), max(0, round(y1 - d[1]))
    nx2, ny2 = min(w, round(x2 + d[2])), min(h, round(y2 + d[3]))
    return (nx1, ny1, max(nx1 + 2, nx2), max(ny1 + 2, ny2))


STROKE, OUTLINE, ROUNDED, WARP, DUOTONE, THIN_LINE = "stroke", "outline", "rounded", "warp", "duotone", "thin"
VARIANTS: frozenset[str] = frozenset({STROKE, OUTLINE, ROUNDED, WARP, DUOTONE, THIN_LINE})
REAL_DRAWING = 0.5  # share of glyph samples redrawn the ways real apps draw icons (below)


def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def _stroke(rng: np.random.Generator, m: np.ndarray) -> np.ndarray:
    """Strokes 1-3 px (at the 64-px render) thinner or bolder than any style: other sets' weights."""
    r = int(rng.integers(1, 4))
    if rng.random() < 0.5:
        thin = cv2.erode(m, _disc(r))
        return thin if thin.sum() >= 0.3 * m.sum() else m
    return cv2.dilate(m, _disc(r))


def _outline(rng: np.random.Generator, m: np.ndarray) -> np.ndarray:
    """The glyph's edges as a stroke of random width (morphological gradient): an outlined set's drawing
    of a filled glyph, or an outlined glyph's double line."""
    ring = cv2.morphologyEx(m, cv2.MORPH_GRADIENT, _disc(int(rng.integers(1, 4))))
    return ring if ring.sum() > 0 else m


def _rounded(rng: np.random.Generator, m: np.ndarray) -> np.ndarray:
    """Corners rounded (closing then opening with a disc) or sharpened (a square kernel): the same icon
    in a rounded and a sharp set."""
    r = int(rng.integers(2, 5))
    if rng.random() < 0.7:
        out = cv2.morphologyEx(cv2.morphologyEx(m, cv2.MORPH_CLOSE, _disc(r)), cv2.MORPH_OPEN, _disc(r - 1))
    else:
        square = np.ones((3, 3), np.uint8)
        out = cv2.morphologyEx(cv2.morphologyEx(m, cv2.MORPH_DILATE, square), cv2.MORPH_ERODE, square)
    return out if out.sum() >= 0.3 * m.sum() else m


def _warp(rng: np.random.Generator, m: np.ndarray) -> np.ndarray:
    """A slight aspect change and perspective tilt (a set drawn on another grid, a launcher's 3-D art)."""
    h, w = m.shape
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    aspect = float(np.exp(rng.uniform(-0.18, 0.18)))
    jitter = rng.uniform(-0.06, 0.06, (4, 2)) * np.float32([w, h])
    dst = (src * np.float32([aspect, 1.0]) + jitter).astype(np.float32)
    dst -= dst.min(axis=0)
    size = (int(np.ceil(dst[:, 0].max())) + 1, int(np.ceil(dst[:, 1].max())) + 1)
    out = cv2.warpPerspective(m, cv2.getPerspectiveTransform(src, dst), size, flags=cv2.INTER_NEAREST)
    return out if out.sum() > 0 else m


_REDRAW = ((STROKE, _stroke), (OUTLINE, _outline), (ROUNDED, _rounded), (WARP, _warp))


def redraw(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A styled glyph mask redrawn by one or two of the enabled ways (VARIANTS), cropped to its ink."""
    ways = [f for key, f in _REDRAW if key in VARIANTS]
    if not ways:
        return mask
    m = np.pad((mask > 0.5).astype(np.uint8), 6)
    for k in rng.permutation(len(ways))[:int(rng.integers(1, 3))]:
        m = ways[int(k)](rng, m)
    ys, xs = np.nonzero(m)
    return m[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) if len(xs) else mask


def thin_line(alpha: np.ndarray) -> np.ndarray:
    """The glyph at its final size as a 1-px line along its edges (vendor sets' hairline icons)."""
    solid = (alpha >= 0.5).astype(np.uint8)
    line = cv2.morphologyEx(solid, cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8)).astype(np.float32)
    return line if line.sum() >= 4 else alpha


def duotone_fill(alpha: np.ndarray) -> np.ndarray:
    """The silhouette of a glyph (holes filled): painted in a tint under the strokes of a two-tone icon."""
    solid = (alpha >= 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(solid)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out.astype(np.float32)


def glyph_sample(rng: np.random.Generator, name: str) -> Sample:
    """One augmented picture of the named library glyph."""
    styles = styled_masks(name)
    mask = styles[int(rng.integers(0, len(styles)))]
    drawing = rng.random() < REAL_DRAWING
    if drawing:
        mask = redraw(rng, mask)
    size = float(np.exp(rng.uniform(np.log(MIN_SIZE), np.log(MAX_SIZE))))
    h, w = mask.shape
    scale = size / max(h, w)
    gw, gh = max(2, round(w * scale)), max(2, round(h * scale))
    alpha = cv2.resize(mask, (gw, gh), interpolation=cv2.INTER_AREA)
    if drawing and THIN_LINE in VARIANTS and rng.random() < 0.2:
        alpha = thin_line(alpha)
    if rng.random() < 0.25:  # bitmaps and hinted fonts without anti-aliasing
        alpha = (alpha >= 0.5).astype(np.float32)
    margin = round(rng.uniform(0.35, 0.9) * size) + 3
    ch, cw = gh + 2 * margin, gw + 2 * margin
    kind = rng.random()
    page = _colour(rng) if rng.random() < 0.5 else np.full(3, rng.choice([255.0, 250.0, 33.0, 18.0]))
    img = np.broadcast_to(page, (ch, cw, 3)).astype(np.float32).copy()
    background = None
    under = page
    if kind < 0.3:  # a coloured tile (a disc or a rounded square) the glyph sits on
        under = _colour(rng)
        pad = round(rng.uniform(0.2, 0.6) * size)
        if rng.random() < 0.5:
            r = round(max(gw, gh) / 2 + pad)
            cv2.circle(img, (cw // 2, ch // 2), r, under.tolist(), -1, cv2.LINE_AA)
        else:
            corner = (min(cw - 1, margin + gw + pad), min(ch - 1, margin + gh + pad))
            cv2.rectangle(img, (max(0, margin - pad), max(0, margin - pad)), corner, under.tolist(), -1)
        background = (int(under[0]), int(under[1]), int(under[2])) if rng.random() < 0.5 else None
    elif kind < 0.5:
        img = _busy(rng, ch, cw)
        under = img[margin:margin + gh, margin:margin + gw].reshape(-1, 3).mean(axis=0)
    fg = _contrasting(rng, under)
    region = img[margin:margin + gh, margin:margin + gw]
    if drawing and DUOTONE in VARIANTS and rng.random() < 0.15:
        fill = duotone_fill(alpha)
        tint = under + (fg - under) * rng.uniform(0.25, 0.5)
        region[:] = region * (1 - fill[..., None]) + tint * fill[..., None]
    region[:] = region * (1 - alpha[..., None]) + fg * alpha[..., None]
    out = _finish(rng, img)
    return Sample(out, _jitter(rng, (margin, margin, margin + gw, margin + gh), out.shape), background)


@lru_cache(maxsize=16)
def _text_font(path: str, size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size) if Path(path).is_file() else ImageFont.load_default()


def text_sample(rng: np.random.Generator) -> Sample:
    """A fragment of text (1-4 letters or digits) as OCR misses or splits it: no glyph."""
    chars = string.ascii_letters + string.digits + "%:.,/+-"
    text = "".join(rng.choice(list(chars), int(rng.integers(1, 5))))
    size = int(rng.integers(10, 40))
    font = _text_font(str(TEXT_FONTS[int(rng.integers(0, len(TEXT_FONTS)))]), size)
    page = _colour(rng) if rng.random() < 0.4 else np.full(3, rng.choice([255.0, 245.0, 30.0]))
    fg = _contrasting(rng, page)
    canvas = Image.new("RGB", (size * 5 + 8, size * 2 + 8), tuple(int(v) for v in page))
    draw = ImageDraw.Draw(canvas)
    draw.text((4, 4), text, font=font, fill=tuple(int(v) for v in fg))
    img = np.asarray(canvas).astype(np.float32)
    ink = np.abs(img - page).max(axis=2) > 40
    ys, xs = np.nonzero(ink)
    out = _finish(rng, img)
    if len(xs) == 0:
        return Sample(out, (0, 0, out.shape[1], out.shape[0]), None)
    box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
    return Sample(out, _jitter(rng, box, out.shape), None)


def patch_sample(rng: np.random.Generator) -> Sample:
    """A patch of busy background with no icon on it (a photo's corner, a divider, a gradient)."""
    side = int(rng.integers(16, 72))
    img = _busy(rng, side + 8, side + 8)
    return Sample(_finish(rng, img), (4, 4, side + 4, side + 4), None)
