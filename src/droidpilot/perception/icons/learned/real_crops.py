"""Real training crops as the classifier sees them: each labelled icon cut from its screen with the box
jitter real candidates have, small photometric changes, and the readings ranking takes of a candidate.

Per label, ``copies`` variants: the first is the labelled box as drawn; the rest shift it, loosen or
tighten it and rescale the screen around it (icons are found at many sizes), then change brightness,
contrast and colour a little, blur and JPEG-compress at random. Each variant is described as ranking
describes a candidate (describe.describe_region, readings.readings_of) and contributes the descriptor of
its whole-icon reading and, when a tile is found, of the glyph on the tile. Candidate regions the finder
itself proposes over the label (IoU >= MATCH_IOU) add their own readings. Deterministic for a seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.icons.candidates import find_regions
from droidpilot.perception.icons.describe import describe_region
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.icons.learned.classes import NONE
from droidpilot.perception.icons.learned.features import FEATURE_SIZE
from droidpilot.perception.icons.learned.real_labels import OTHER, LabelFile, RealLabel
from droidpilot.perception.icons.readings import readings_of

Box = tuple[int, int, int, int]
MATCH_IOU = 0.5  # a proposed candidate this much like a label's box is a real view of that icon
WINDOW = 1.0  # the window cut around a box, in box sides on each side (room for the ring and the jitter)
TILE_READINGS = ("glyph", "tile+glyph")


@dataclass(frozen=True)
class CropSet:
    """Features of real crops with their class, their run ("TikTok/3") and the label they came from."""

    x: np.ndarray  # float32 N x FEATURE_SIZE
    y: np.ndarray  # int64 N
    runs: tuple[str, ...]
    labels: tuple[int, ...]  # index into the label list the set was built from

    def where(self, keep: Callable[[str], bool]) -> CropSet:
        """The crops whose run passes ``keep``."""
        idx = [i for i, r in enumerate(self.runs) if keep(r)]
        return CropSet(self.x[idx], self.y[idx], tuple(self.runs[i] for i in idx),
                       tuple(self.labels[i] for i in idx))


def class_of(label: RealLabel, index: Mapping[str, int], other_as_none: bool) -> int | None:
    """The class a label trains, or None when it trains none (a brand: the library has no brand classes;
    ``other`` unless it is taken as NONE, "no library glyph")."""
    if label.glyph == OTHER:
        return index[NONE] if other_as_none else None
    if not label.is_glyph:
        return None
    return index.get(label.glyph)


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes."""
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


def jitter_box(rng: np.random.Generator, box: Box) -> Box:
    """The box shifted by up to a sixth of its side and each edge moved out (mostly) or in, as found
    boxes are loose around an icon's tile or clip a thin stroke."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    shift = rng.uniform(-0.16, 0.16, 2) * side
    grow = rng.uniform(-0.08, 0.25, 4) * side
    nx1, ny1 = round(x1 + shift[0] - grow[0]), round(y1 + shift[1] - grow[1])
    nx2, ny2 = round(x2 + shift[0] + grow[2]), round(y2 + shift[1] + grow[3])
    return (nx1, ny1, max(nx1 + 3, nx2), max(ny1 + 3, ny2))


def _photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Brightness, contrast and colour changed a little; blur and JPEG at random (uint8 BGR)."""
    out = img.astype(np.float32) * rng.uniform(0.85, 1.15) + rng.uniform(-18, 18) + rng.normal(0, 6, 3)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 0.8)))
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 92))])
        if ok:
            out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def _window(image: np.ndarray, box: Box, scale: float) -> tuple[np.ndarray, Box]:
    """A window of the screen around ``box`` (resized by ``scale``) and the box inside it."""
    h, w = image.shape[:2]
    side = max(box[2] - box[0], box[3] - box[1])
    m = round(WINDOW * side) + 4
    wx1, wy1 = max(0, box[0] - m), max(0, box[1] - m)
    wx2, wy2 = min(w, box[2] + m), min(h, box[3] + m)
    crop = image[wy1:wy2, wx1:wx2]
    inner = (max(0, box[0] - wx1), max(0, box[1] - wy1), min(wx2, box[2]) - wx1, min(wy2, box[3]) - wy1)
    if scale == 1.0:
        return crop, inner
    ch, cw = crop.shape[:2]
    nw, nh = max(4, round(cw * scale)), max(4, round(ch * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    out = cv2.resize(crop, (nw, nh), interpolation=interp)
    sx, sy = nw / cw, nh / ch
    b = (round(inner[0] * sx), round(inner[1] * sy), round(inner[2] * sx), round(inner[3] * sy))
    return out, (b[0], b[1], min(nw, max(b[0] + 3, b[2])), min(nh, max(b[1] + 3, b[3])))


def readings_features(image: np.ndarray, box: Box, background: tuple[int, int, int] | None = None
                      ) -> list[np.ndarray]:
    """Descriptors of a candidate's whole-icon reading and of its tile's glyph, as ranking reads them."""
    try:
        desc = describe_region(image, box, background)
    except (ValueError, cv2.error):
        return []
    out: list[np.ndarray] = []
    for rd in readings_of(desc, background):
        if rd.descriptor is None or (rd.label != "icon" and rd.label not in TILE_READINGS):
            continue
        if not any(np.array_equal(rd.descriptor, o) for o in out):
            out.append(rd.descriptor.astype(np.float32))
    return out


def _clip(box: Box, shape: tuple[int, ...]) -> Box | None:
    h, w = shape[:2]
    b = (max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3]))
    return b if b[2] - b[0] >= 3 and b[3] - b[1] >= 3 else None


def variant_features(rng: np.random.Generator, image: np.ndarray, box: Box, first: bool) -> list[np.ndarray]:
    """One variant of a labelled icon: the box as drawn (``first``) or jittered, rescaled and recoloured."""
    if first:
        return readings_features(image, box)
    jittered = _clip(jitter_box(rng, box), image.shape)
    if jittered is None:
        return []
    scale = float(np.exp(rng.uniform(np.log(0.6), np.log(1.5)))) if rng.random() < 0.6 else 1.0
    window, inner = _window(image, jittered, scale)
    return readings_features(_photometric(rng, window), inner)


@lru_cache(maxsize=4)
def _screen(path: str) -> np.ndarray:
    return read_image(Path(path))


def screen_image(root: Path, screen: str, where: str) -> np.ndarray:
    """The screen as BGR; InputError naming the label entry when it is missing."""
    path = root / screen
    if not path.is_file():
        raise InputError(f"{where}: screen {path} is absent; the label file's 'root' must name the folder "
                         "holding mobile-eval-real's APP/RUN/STEP.jpg screens")
    return _screen(str(path))


def build_crops(files: Sequence[LabelFile], index: Mapping[str, int], copies: int, seed: int,
                other_as_none: bool = False, candidates: bool = True) -> CropSet:
    """Features of every trainable label in ``files`` (``copies`` variants each, plus the finder's own
    matching candidates when ``candidates``); each label draws from its own generator (seed, file, n)."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    runs: list[str] = []
    origin: list[int] = []
    n = 0
    for f_i, lf in enumerate(files):
        by_screen: dict[str, list[tuple[int, RealLabel]]] = {}
        for lab in lf.labels:
            by_screen.setdefault(lab.screen, []).append((n, lab))
            n += 1
        for screen, group in by_screen.items():
            image = screen_image(lf.root, screen, group[0][1].where)
            regions = find_regions(image) if candidates else []
            for k, lab in group:
                c = class_of(lab, index, other_as_none)
                if c is None:
                    continue
                box = _clip(lab.box, image.shape)
                if box is None:
                    raise InputError(f"{lab.where}: box {list(lab.box)} lies outside the "
                                     f"{image.shape[1]}x{image.shape[0]} screen {screen}")
                rng = np.random.default_rng([seed, f_i, k])
                feats: list[np.ndarray] = []
                for v in range(copies):
                    feats += variant_features(rng, image, box, v == 0)
                for r in regions:
                    if iou(r.box, box) >= MATCH_IOU:
                        feats += readings_features(image, r.box, r.background)
                xs += feats
                ys += [c] * len(feats)
                runs += [lab.run] * len(feats)
                origin += [k] * len(feats)
    x = np.stack(xs).astype(np.float32) if xs else np.zeros((0, FEATURE_SIZE), np.float32)
    return CropSet(x, np.asarray(ys, np.int64), tuple(runs), tuple(origin))
