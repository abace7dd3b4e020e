"""Check the real-screen icon training sets (benchmarks/data/real_icon_train_*.yaml) before a classifier
is trained on them: each loads, keeps clear of every screen and every holdout run of real_icons.yaml, has
its boxes inside the screen, and names each icon by a class the classifier knows.

Run: .venv/bin/python benchmarks/real_icon_train_set.py [SET.yaml ...]   (default: every training set)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from droidpilot.errors import InputError
from droidpilot.perception.icons.imageio import read_image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_icon_set import DATA, IconLabel, load_labels, screens_root

TRAIN_FILES = sorted((Path(__file__).resolve().parent / "data").glob("real_icon_train_*.yaml"))
SRC = Path(__file__).resolve().parents[1] / "src" / "droidpilot" / "perception" / "icons"
MANIFEST = SRC / "learned" / "weights" / "icons.json"
BRANDS = SRC / "brands.yaml"
OTHER = "other"  # an icon no library name fits


def library_names(manifest: Path = MANIFEST) -> set[str]:
    """Every glyph name the shipped classifier knows (each alias of each class)."""
    classes = json.loads(manifest.read_text(encoding="utf-8"))["classes"]
    return {name for group in classes for name in group if not name.startswith("__")}


def brand_names(brands: Path = BRANDS) -> set[str]:
    """The brands droidpilot names logos by (the keys of brands.yaml)."""
    return set(yaml.safe_load(brands.read_text(encoding="utf-8")))


def glyph_problem(glyph: str | None, library: set[str], brands: set[str]) -> str | None:
    """Why ``glyph`` is not a class a label may use, or None when it is one."""
    if glyph is None:
        return "has no 'glyph'; write a library glyph name, brand:NAME or other"
    if glyph == OTHER or glyph in library:
        return None
    if glyph.startswith("brand:"):
        if glyph[6:] in brands:
            return None
        return f"brand {glyph[6:]!r} is not in brands.yaml ({', '.join(sorted(brands)[:6])}, ...); use other"
    near = sorted(n for n in library if glyph.lower().replace(" ", "_") == n)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return f"glyph {glyph!r} is not a library glyph of {MANIFEST.name}, brand:NAME or other{hint}"


def holdout_runs(labels: list[IconLabel]) -> set[str]:
    """The runs ("APP/RUN") that hold a holdout screen: no training screen may come from them."""
    return {lb.screen.rsplit("/", 1)[0] for lb in labels if lb.split == "holdout"}


def problems(path: Path, root: Path | None = None) -> list[str]:
    """Everything wrong with the training set at ``path`` (empty when it is fit to train on)."""
    written, labels = load_labels(path, ("train",))
    _, measured = load_labels(DATA)
    taken = {lb.screen for lb in measured}
    held = holdout_runs(measured)
    library, brands = library_names(), brand_names()
    where = screens_root(written, root)
    out: list[str] = []
    sizes: dict[str, tuple[int, int]] = {}
    for lb in labels:
        name = f"{path.name}: {lb.screen} {lb.query!r}"
        if lb.screen in taken:
            out.append(f"{name}: the screen is in real_icons.yaml; train on screens outside its splits")
        if lb.screen.rsplit("/", 1)[0] in held:
            out.append(f"{name}: the screen's run holds a holdout screen; train on other runs")
        if lb.screen not in sizes:
            height, width = read_image(where / lb.screen).shape[:2]
            sizes[lb.screen] = (width, height)
        width, height = sizes[lb.screen]
        if lb.box[2] > width or lb.box[3] > height:
            out.append(f"{name}: box {list(lb.box)} runs past the {width}x{height} screen")
        why = glyph_problem(lb.glyph, library, brands)
        if why:
            out.append(f"{name}: {why}")
    return out


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or TRAIN_FILES
    try:
        found = [p for path in paths for p in problems(path)]
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(found) if found else f"{len(paths)} training set(s) fit to train on")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
