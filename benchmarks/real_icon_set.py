"""Load the real-screen icon set (benchmarks/data/real_icons.yaml): screens, queries and true boxes.

Every entry is checked as it is read; a bad one stops the load with the file, the line, what is wrong and
how to fix it (never a traceback, never a silently skipped query). Screens are found under the set's
``root`` (relative to the repository's parent folder, as ../shared is) or under an explicit root.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from droidpilot.errors import InputError
from droidpilot.perception.icons.learned.real_labels import LineLoader, read_box

DATA = Path(__file__).resolve().parent / "data" / "real_icons.yaml"
SPLITS = ("tune", "report", "holdout")
MEASURED_ONLY = ("holdout",)  # splits whose misses are never listed: no one tunes on them


@dataclass(frozen=True)
class IconLabel:
    """One query on one screen: the words a person would say and the icon's true box (device pixels)."""

    screen: str  # path under the root, "APP/RUN/STEP.jpg"
    split: str  # one of SPLITS
    query: str
    box: tuple[int, int, int, int]  # x1, y1, x2, y2 (x2, y2 exclusive)
    glyph: str | None = None  # the icon's class (training sets: library name, "brand:NAME" or "other")

    @property
    def app(self) -> str:
        """The app folder the screen belongs to ("Google Maps")."""
        return self.screen.split("/", 1)[0]

    def contains(self, point: tuple[int, int]) -> bool:
        """Is the point inside the true box?"""
        x1, y1, x2, y2 = self.box
        return x1 <= point[0] < x2 and y1 <= point[1] < y2


def load_labels(path: Path = DATA, splits: tuple[str, ...] = SPLITS) -> tuple[str, list[IconLabel]]:
    """(root folder as written in the file, labels in file order); InputError naming file and line.

    ``splits`` are the split names the file may use (the training sets use ("train",))."""
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=LineLoader)  # a SafeLoader subclass
    except OSError as exc:
        raise InputError(f"cannot read the icon set {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({exc}); compare with the entries above it") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("screens"), list):
        raise InputError(f"{path}: expected a mapping with 'root' and a list 'screens'")
    root = doc.get("root")
    if not isinstance(root, str) or not root:
        raise InputError(f"{path}: 'root' (the folder the screen paths are under) is missing")
    labels: list[IconLabel] = []
    seen: dict[str, object] = {}  # screen path -> line of its entry
    for screen in doc["screens"]:
        line = screen.get("__line__", "?") if isinstance(screen, dict) else "?"
        where = f"{path}:{line}"
        if not isinstance(screen, dict) or not isinstance(screen.get("path"), str):
            raise InputError(f"{where}: each screen needs 'path' (APP/RUN/STEP.jpg), 'split' and 'icons'")
        split = screen.get("split")
        if split not in splits:
            near = [s for s in splits if isinstance(split, str) and s == split.strip().lower()]
            hint = f" (did you mean {near[0]!r}? splits are lower case)" if near else ""
            raise InputError(f"{where}: split {split!r} of {screen['path']}; use one of "
                             f"{', '.join(splits)}{hint}")
        if screen["path"] in seen:
            raise InputError(f"{where}: screen {screen['path']} is listed again (first at line "
                             f"{seen[screen['path']]}); a screen belongs to one split, so put its icons "
                             "under the first entry")
        seen[screen["path"]] = line
        icons = screen.get("icons")
        if not isinstance(icons, list) or not icons:
            raise InputError(f"{where}: screen {screen['path']} has no 'icons' list")
        for icon in icons:
            at = f"{path}:{icon.get('__line__', line) if isinstance(icon, dict) else line}"
            query = icon.get("query") if isinstance(icon, dict) else None
            if not isinstance(query, str) or not query.strip():
                raise InputError(f"{at}: each icon needs a non-empty 'query' and a 'box'")
            box = read_box(icon.get("box"), at)  # type: ignore[union-attr]
            glyph = icon.get("glyph")  # type: ignore[union-attr]
            if glyph is not None and (not isinstance(glyph, str) or not glyph.strip()):
                raise InputError(f"{at}: 'glyph' must be a class name (a library glyph, brand:NAME or "
                                 f"other), got {glyph!r}")
            labels.append(IconLabel(screen["path"], screen["split"], query, box, glyph))
    return root, labels


def screens_root(written: str, explicit: Path | None = None) -> Path:
    """The folder holding the screens: ``explicit`` or the file's root taken from the repository's parent."""
    root = explicit if explicit is not None else Path(__file__).resolve().parents[1] / written
    if not root.is_dir():
        raise InputError(f"screens folder {root} is absent; pass --root with the folder holding "
                         "mobile-eval-real's APP/RUN/STEP.jpg screens")
    return root
