"""Tighten an icon's box to its ink, as the real-screen icon set's header describes, and check the set.

Run: .venv/bin/python benchmarks/icon_box_ink.py SCREEN X1 Y1 X2 Y2 [--tol N]   (one rough box -> tight)
     .venv/bin/python benchmarks/icon_box_ink.py --check [--split NAME] [--slack PX] [--file SET.yaml]
     (--file audits another set in the same format: a training set benchmarks/data/real_icon_train_a.yaml)

Ink is every pixel of the box unlike its rim (the 1-pixel border, taken as the background): its largest
channel difference from the rim's median colour exceeds ``tol``. Connected components of ink smaller than
``min_area`` pixels are JPEG noise and dropped; the tight box is the bounding box of the rest, device pixels
[x1, y1, x2, y2) with x2/y2 exclusive. A rough box must hold the whole icon and nothing else, with a margin
of page around it; where the background is busy (a photo, a gradient) the rim is not one colour and the box
is written by hand — ``--check`` says so rather than shrinking it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from droidpilot.errors import InputError
from droidpilot.perception.icons.imageio import read_image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_icon_set import DATA, SPLITS, load_labels, screens_root

Box = tuple[int, int, int, int]
GROW = 6  # --check: pixels a box is grown by, at most, to find a plain rim around it
TOLERANCES = (48, 24, 12, 96)  # --check: tight when its ink at one matches (96 leaves out a soft shadow)


def rim_is_plain(image: np.ndarray, box: Box, tol: int = 48) -> bool:
    """Is the box's 1-pixel border all one background (no pixel of it unlike the rest by more than ``tol``)?

    A rim that crosses anything (the icon itself, a neighbour, a photo) makes the tight box untrustworthy."""
    rim = _rim(image, box).astype(np.int16)
    return bool((np.abs(rim - np.median(rim, axis=0)).max(axis=1) <= tol).all())


def _rim(image: np.ndarray, box: Box) -> np.ndarray:
    x1, y1, x2, y2 = box
    crop = image[y1:y2, x1:x2]
    return np.concatenate([crop[0], crop[-1], crop[1:-1, 0], crop[1:-1, -1]]).reshape(-1, image.shape[2])


def ink_box(image: np.ndarray, box: Box, tol: int = 48, min_area: int = 3) -> Box:
    """The bounding box of the ink inside ``box`` (pixels unlike its rim); InputError when there is none."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    if not (x1 >= 0 and y1 >= 0 and x1 + 3 <= x2 <= w and y1 + 3 <= y2 <= h):
        raise InputError(f"box {list(box)} is not inside the {w}x{h} screen with room for a rim (at least "
                         "3x3 pixels); draw it around the icon with a margin of page")
    crop = image[y1:y2, x1:x2].astype(np.int16)
    background = np.median(_rim(image, box), axis=0).astype(np.int16)
    ink = (np.abs(crop - background).max(axis=2) > tol).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    parts = [stats[i] for i in range(1, count) if stats[i][cv2.CC_STAT_AREA] >= min_area]
    if not parts:
        raise InputError(f"box {list(box)} holds no ink unlike its rim (tolerance {tol}); is it on the icon?")
    left = min(int(p[cv2.CC_STAT_LEFT]) for p in parts)
    top = min(int(p[cv2.CC_STAT_TOP]) for p in parts)
    right = max(int(p[cv2.CC_STAT_LEFT] + p[cv2.CC_STAT_WIDTH]) for p in parts)
    bottom = max(int(p[cv2.CC_STAT_TOP] + p[cv2.CC_STAT_HEIGHT]) for p in parts)
    return (x1 + left, y1 + top, x1 + right, y1 + bottom)


def _plain_rim_around(image: np.ndarray, box: Box) -> Box | None:
    """The box grown by the fewest pixels (2 to ``GROW``) whose rim is plain page; None where none is.

    Two pixels are the rim of a tight box; more are tried so that a box cutting its icon is seen as cut
    (the ink runs past it), not taken for a hand-drawn one."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    for grow in range(2, GROW + 1):
        grown = (max(0, x1 - grow), max(0, y1 - grow), min(w, x2 + grow), min(h, y2 + grow))
        if rim_is_plain(image, grown):
            return grown
    return None


def check(split: str, slack: int, root: Path | None = None, path: Path = DATA) -> list[str]:
    """Labels of ``split`` ("all" for every one) whose box is not tight to its ink by more than ``slack``.

    Each label's box is grown to a plain rim of page (``_plain_rim_around``) and tightened again at each of
    ``TOLERANCES``; a box with no plain rim near it is reported as hand-drawn, not judged."""
    written, labels = load_labels(path, (*SPLITS, "train"))
    where = screens_root(written, root)
    out: list[str] = []
    images: dict[str, np.ndarray] = {}
    for label in labels:
        if split != "all" and label.split != split:
            continue
        image = images.setdefault(label.screen, read_image(where / label.screen))
        name = f"[{label.split}] {label.screen} {label.query!r} {list(label.box)}"
        grown = _plain_rim_around(image, label.box)
        if grown is None:
            out.append(f"{name}: busy rim, box kept as drawn by hand")
            continue
        inks: list[Box] = []
        for tol in TOLERANCES:  # a faint icon (a gray switch, a pale avatar) is tightened at a lower one
            try:
                inks.append(ink_box(image, grown, tol))
            except InputError:
                continue
        if not inks:
            out.append(f"{name}: no ink unlike its rim at any tolerance {TOLERANCES}; is it on the icon?")
        elif all(max(abs(a - b) for a, b in zip(ink, label.box, strict=True)) > slack for ink in inks):
            out.append(f"{name}: ink is {list(inks[0])}")
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("screen", nargs="?", help="APP/RUN/STEP.jpg under the set's root")
    ap.add_argument("box", nargs="*", type=int, help="rough box X1 Y1 X2 Y2 around the icon, with a margin")
    ap.add_argument("--tol", type=int, default=48, help="channel difference from the rim that counts as ink")
    ap.add_argument("--check", action="store_true", help="list the set's boxes that are not tight")
    ap.add_argument("--split", choices=[*SPLITS, "train", "all"], default="all")
    ap.add_argument("--file", type=Path, default=DATA, help="the set to --check (default real_icons.yaml)")
    ap.add_argument("--slack", type=int, default=2, help="pixels a box may differ from its ink (--check)")
    ap.add_argument("--root", type=Path, default=None, help="folder holding APP/RUN/STEP.jpg screens")
    args = ap.parse_args(argv)
    try:
        if args.check:
            found = check(args.split, args.slack, args.root, args.file)
            print("\n".join(found) if found else "every box is tight to its ink")
            return 0
        if args.screen is None or len(args.box) != 4:
            ap.error("give SCREEN X1 Y1 X2 Y2, or --check")
        written, _ = load_labels()
        image = read_image(screens_root(written, args.root) / args.screen)
        box = (args.box[0], args.box[1], args.box[2], args.box[3])
        plain = "" if rim_is_plain(image, box) else "  (busy rim: check by eye)"
        print(f"{list(ink_box(image, box, args.tol))}{plain}")
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
