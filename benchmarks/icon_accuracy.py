"""Measure icon perception on rendered screens: colour naming, shape classes, locate_icon, templates.

Run: .venv/bin/python benchmarks/icon_accuracy.py [--seed N] [--screens N]
Prints one figure per line. Everything is drawn here (droidpilot.perception.icons.drawing), so the truth
is known; MobiFlow's templates are used for template matching when ../shared is present.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from droidpilot.perception.icons.colours import COLOUR_NAMES
from droidpilot.perception.icons.describe import describe_region
from droidpilot.perception.icons.drawing import SHAPES, as_rgb, blank_screen, draw_icon
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.icons.rank import locate_icon
from droidpilot.perception.icons.templates import DEFAULT_SCALES, ScreenPyramid, search_template

TEMPLATES = Path(__file__).resolve().parents[2] / "shared" / "reference" / "mobiflow" / "icons"


def expected(shape: str) -> str:
    return "plus" if shape == "cross" else shape


ROTATABLE = {"triangle": [0, 90, 180, -15], "arrow": [0, 90, 180, 270, 20], "plus": [0, 15],
             "star": [0, 36, 15], "line": [0, 30, 90, 150], "rectangle": [0, 90, 12],
             "magnifier": [0], "heart": [0, 10]}


def _jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


def shape_and_colour(rng: random.Random, n: int, hard: bool) -> None:
    shapes_ok = colours_ok = 0
    confusion: dict[tuple[str, str], int] = {}
    for _ in range(n):
        theme = rng.choice(["light", "dark"])
        img = np.full((300, 300, 3), 250 if theme == "light" else 18, np.uint8)
        shape = rng.choice(SHAPES)
        colour = rng.choice([c for c in COLOUR_NAMES if c != ("white" if theme == "light" else "black")])
        rotation = rng.choice(ROTATABLE.get(shape, [0, 5])) if hard else rng.choice([0, 0, 7, -12])
        size = rng.randint(20, 160) if hard else rng.randint(24, 160)
        outline = 0
        if hard and shape not in ("line", "magnifier") and rng.random() < 0.3:
            outline = max(2, round(size * rng.uniform(0.06, 0.12)))  # outlined icon style
        drawn = draw_icon(img, shape, (150, 150), size, colour, rotation, outline)
        if hard:
            img = _jpeg(cv2.GaussianBlur(img, (3, 3), 0.6), rng.choice([60, 75, 90]))
        d = describe_region(img, drawn.box)
        shapes_ok += d.shape == expected(shape)
        colours_ok += d.colour == colour
        if d.shape != expected(shape):
            key = (expected(shape), d.shape)
            confusion[key] = confusion.get(key, 0) + 1
    what = ("20-160 px, rotations up to 270 deg, 30% outlined, blur + JPEG q60-90" if hard
            else "24-160 px, rotations 0/7/-12 deg, clean")
    tag = "_hard" if hard else ""
    print(f"shape_accuracy{tag} {shapes_ok / n:.3f} ({n} rendered icons, {what})")
    print(f"colour_accuracy{tag} {colours_ok / n:.3f} ({n} rendered icons, 12 colours, light and dark)")
    worst = sorted(confusion.items(), key=lambda kv: -kv[1])[:6]
    print(f"shape_confusions{tag} " + (", ".join(f"{a}->{b}:{c}" for (a, b), c in worst) or "none"))


def locate(rng: random.Random, screens: int) -> None:
    found = right = 0
    total = 0
    missed: list[str] = []
    seconds = 0.0
    for _ in range(screens):
        theme = rng.choice(["light", "dark"])
        img = blank_screen(1080, 2400, theme)
        cells = [(c, r) for c in range(4) for r in range(7)]
        rng.shuffle(cells)
        placed = []
        for (c, r), shape in zip(cells[:8], rng.sample(list(SHAPES), 8), strict=False):
            # "plus" and "cross" are one class: give them different colours so each query has one answer
            taken = {p.colour for p in placed if expected(p.shape) == expected(shape)}
            colour = rng.choice([c for c in ("red", "blue", "green", "orange", "purple", "gray")
                                 if c not in taken])
            centre = (135 + c * 270 + rng.randint(-40, 40), 170 + r * 330 + rng.randint(-40, 40))
            placed.append(draw_icon(img, shape, centre, rng.randint(56, 110), colour))
            cv2.putText(img, "Label", (centre[0] - 50, centre[1] + 110), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                        (40, 40, 40) if theme == "light" else (220, 220, 220), 2, cv2.LINE_AA)
        for icon in placed:
            total += 1
            t0 = time.perf_counter()
            res = locate_icon(as_rgb(img), f"{icon.colour} {expected(icon.shape)}")
            seconds += time.perf_counter() - t0
            hit = False
            if res.status == "found":
                found += 1
                x, y = res.candidates[0].point
                b = icon.box
                hit = b[0] <= x <= b[2] and b[1] <= y <= b[3]
            right += hit
            if not hit:
                got = res.candidates[0].description if res.candidates else ""
                missed.append(f"{icon.colour} {expected(icon.shape)}->{res.status} {got}".strip())
    print(f"locate_found_and_right {right / total:.3f} ({total} queries on {screens} 1080x2400 screens)")
    print(f"locate_found {found / total:.3f}" + (f" missed: {', '.join(missed)}" if missed else ""))
    print(f"locate_seconds_per_query {seconds / total:.3f}")


def templates(rng: random.Random) -> None:
    if not TEMPLATES.is_dir():
        print(f"template_recall skipped ({TEMPLATES} absent)")
        return
    paths = sorted(p for p in TEMPLATES.rglob("*") if p.suffix.lower() in (".png", ".jpg"))
    hits = n = 0
    seconds = 0.0
    for path in paths:
        tmpl = read_image(path)
        for scale in (0.5, 0.75, 1.0, 1.4, 2.0):
            screen = np.full((2400, 1080, 3), 245, np.uint8)
            for other in rng.sample(paths, 6):
                if other.stem == path.stem:
                    continue
                o = read_image(other)
                x, y = rng.randint(0, 1080 - o.shape[1]), rng.randint(0, 1200)
                screen[y:y + o.shape[0], x:x + o.shape[1]] = o
            scaled = cv2.resize(tmpl, None, fx=scale, fy=scale)
            x, y = 400, 1600
            screen[y:y + scaled.shape[0], x:x + scaled.shape[1]] = scaled
            t0 = time.perf_counter()
            matches, _ = search_template(ScreenPyramid(cv2.cvtColor(screen, cv2.COLOR_BGR2GRAY)), path)
            seconds += time.perf_counter() - t0
            n += 1
            hits += any(abs(m.box[0] - x) <= 6 and abs(m.box[1] - y) <= 6 for m in matches)
    print(f"template_recall {hits / n:.3f} ({n} placements of {len(paths)} MobiFlow templates, 0.5x-2.0x)")
    print(f"template_seconds_per_search {seconds / n:.3f} (1080x2400, coarse-to-fine)")
    # For comparison: the plain sweep, every scale at full resolution, on the last screen.
    gray = cv2.cvtColor(screen, cv2.COLOR_BGR2GRAY)
    t0 = time.perf_counter()
    for path in paths[:5]:
        tg = cv2.cvtColor(read_image(path), cv2.COLOR_BGR2GRAY)
        for scale in DEFAULT_SCALES:
            cv2.matchTemplate(gray, cv2.resize(tg, None, fx=scale, fy=scale), cv2.TM_CCOEFF_NORMED)
    print(f"template_seconds_full_resolution_sweep {(time.perf_counter() - t0) / 5:.3f} (same 15 scales)")


# Real icons from MobiFlow's templates that fall in the vocabulary, described as a person would.
REAL_ICONS = [
    ("bilibili/icon_001_搜索.jpg", "gray magnifier"), ("bilibili/icon_002_收藏.jpg", "gray star"),
    ("bilibili/icon_003_发布.jpg", "pink rounded square"), ("bilibili/icon_003_清除.jpg", "gray circle"),
    ("bilibili/icon_004_返回.jpg", "gray arrow"), ("weixin/icon_001_添加.jpg", "black circle"),
    ("xiecheng/icon_000_添加.jpg", "white plus"), ("weixin/icon_002_发送.jpg", "green rectangle"),
    ("weixin/icon_001_回车.jpg", "gray rounded square"), ("xiecheng/icon_004_个人中心.jpg", "gray circle"),
]


def real_icons() -> None:
    """MobiFlow's real icon crops, four at a time on a screen, asked for by colour and shape."""
    if not TEMPLATES.is_dir():
        print(f"real_icon_hits skipped ({TEMPLATES} absent)")
        return
    hits = 0
    missed = []
    for start in range(0, len(REAL_ICONS), 4):
        group = REAL_ICONS[start:start + 4]
        screen = np.full((2400, 1080, 3), 250, np.uint8)
        boxes = []
        for k, (name, _) in enumerate(group):
            tile = read_image(TEMPLATES / name)
            x, y = 80 + (k % 2) * 540, 500 + (k // 2) * 900
            screen[y:y + tile.shape[0], x:x + tile.shape[1]] = tile
            boxes.append((x, y, x + tile.shape[1], y + tile.shape[0]))
        for (name, words), b in zip(group, boxes, strict=True):
            res = locate_icon(as_rgb(screen), words)
            ok = res.status == "found" and b[0] <= res.candidates[0].point[0] <= b[2] \
                and b[1] <= res.candidates[0].point[1] <= b[3]
            hits += ok
            if not ok:
                missed.append(f"{name}:{words}->{res.status}")
    print(f"real_icon_hits {hits}/{len(REAL_ICONS)} (MobiFlow icon crops, described by hand, 4 per screen)"
          + (f" missed: {', '.join(missed)}" if missed else ""))


SIM_ICONS = {"Search": "magnifier", "搜索": "magnifier", "更多功能按钮": "plus"}


def simphone(apps: list[str]) -> None:
    """Icons SimPhone labels in its UI XML (search, add), asked for by shape and rough position."""
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.icons.rank import where_on_screen
    from droidpilot.verify.frame import parse_ui_xml

    hits = n = 0
    missed = []
    for theme in ("light", "dark"):
        for app in apps:
            device = SimDevice(size="1080x2400", theme=theme)
            if app != "home":
                device.open_app(app)
            png = device.screenshot_png()
            for el in parse_ui_xml(device.ui_xml()):
                shape = SIM_ICONS.get(el.content_desc)
                if shape is None or el.bounds is None:
                    continue
                b = el.bounds
                where = where_on_screen(((b[0] + b[2]) // 2, (b[1] + b[3]) // 2), (1080, 2400))
                res = locate_icon(png, shape, where)
                n += 1
                ok = res.status == "found" and b[0] <= res.candidates[0].point[0] <= b[2] \
                    and b[1] <= res.candidates[0].point[1] <= b[3]
                hits += ok
                if not ok:
                    missed.append(f"{app}/{theme}:{el.content_desc}->{res.status}")
    print(f"simphone_icon_hits {hits}/{n} (labelled search/add icons on SimPhone screens, both themes, "
          "no OCR)"
          + (f" missed: {', '.join(missed)}" if missed else ""))


def glyph_screens(split: str, count: int) -> None:
    """Open-vocabulary queries on held-out Material-glyph screens (or SimPhone's, drawn both ways): hit
    rate, recall@1/4/8, s/query."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from droidpilot.perception.icons.rank import rank_icons
    from icon_screens import screens
    from icon_simphone import simphone_screens

    rank_icons(screens("tune", 1)[0].image, "gray gear")  # warm: the glyph library is built once
    if split != "simphone":
        _measure(split, screens(split, count), "Material-glyph screens")
        return
    unknown: set[str] = set()
    what = "SimPhone app screens, both themes, icon buttons asked by what they show + position"
    drawn = simphone_screens(unknown, drawn=True)
    font = simphone_screens(unknown)
    if unknown:
        print("simphone_descs_without_words " + ", ".join(sorted(unknown)))
    _measure("simphone_drawn", drawn, what + ", SimPhone's own drawn glyphs")
    _measure("simphone", font, what + ", glyphs from the Material icon font")


def _measure(split: str, chosen: list, what: str) -> None:
    from droidpilot.perception.icons.rank import rank_icons

    hits = n = 0
    at = {1: 0, 4: 0, 8: 0}
    seconds = cpu = 0.0
    statuses: dict[str, int] = {}
    missed: list[str] = []
    for screen in chosen:
        for t in screen.targets:
            n += 1
            t0, c0 = time.perf_counter(), time.process_time()
            res = locate_icon(screen.image, t.query, ocr_lines=screen.lines)
            seconds += time.perf_counter() - t0
            cpu += time.process_time() - c0
            statuses[res.status] = statuses.get(res.status, 0) + 1
            b = t.box
            inside = [b[0] <= c.point[0] <= b[2] and b[1] <= c.point[1] <= b[3] for c in res.candidates]
            ok = res.status == "found" and inside[0]
            hits += ok
            ranked = rank_icons(screen.image, t.query, ocr_lines=screen.lines)
            pos = next((i for i, s in enumerate(ranked)
                        if b[0] <= (s.region.box[0] + s.region.box[2]) // 2 <= b[2]
                        and b[1] <= (s.region.box[1] + s.region.box[3]) // 2 <= b[3]), None)
            for k in at:
                at[k] += pos is not None and pos < k
            if not ok and len(missed) < 20:
                got = res.candidates[0].description if res.candidates else ""
                missed.append(f"{t.query!r}->{res.status} {got} (rank {pos})")
    print(f"glyph_hit_rate_{split} {hits / n:.3f} ({n} queries on {len(chosen)} {what}, "
          "1080x2400 and 720x1600, found and inside the target)")
    print(f"glyph_recall_{split} " + " ".join(f"@{k}={v / n:.3f}" for k, v in at.items()))
    print(f"glyph_outcomes_{split} " + ", ".join(f"{k}:{v}" for k, v in sorted(statuses.items())))
    print(f"glyph_seconds_per_query_{split} {seconds / n:.3f} (locate_icon, warm; CPU {cpu / n:.3f} s, "
          "less sensitive to a busy machine)")
    if missed:
        print(f"glyph_missed_{split} " + "; ".join(missed))


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--screens", type=int, default=10)
    ap.add_argument("--shapes", type=int, default=600)
    ap.add_argument("--no-templates", action="store_true")
    ap.add_argument("--glyph-screens", type=int, default=24, help="held-out Material-glyph screens")
    ap.add_argument("--split", choices=["tune", "report", "simphone"], default="report",
                    help="glyph screens to measure on: tune while developing, report for quoted figures, "
                         "simphone for SimPhone's own app screens (benchmarks/icon_simphone.py)")
    ap.add_argument("--only-glyphs", action="store_true", help="run the glyph-screen measure only")
    args = ap.parse_args(argv)
    cv2.setNumThreads(2)
    rng = random.Random(args.seed)
    if args.glyph_screens:
        glyph_screens(args.split, args.glyph_screens)
    if args.only_glyphs:
        return
    shape_and_colour(rng, args.shapes, hard=False)
    shape_and_colour(rng, args.shapes, hard=True)
    if args.screens:
        locate(rng, args.screens)
    if args.screens:
        real_icons()
        simphone(["home", "chat", "settings", "mail", "browser", "store", "shop", "tube", "video", "music"])
    if not args.no_templates:
        templates(rng)


if __name__ == "__main__":
    main(sys.argv[1:])
