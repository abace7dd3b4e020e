"""Real training crops: the labelled icons of benchmarks/data/real_icon_train_*.yaml, checked as read.

Each file has the real-screen icon set's format (``root`` relative to the checkout, ``screens`` with
``path``, ``split: train`` and ``icons``) plus ``glyph`` per icon: a class name of the classifier's
library, ``brand:NAME`` (an app logo or launcher tile) or ``other`` (an icon no library name fits).
A bad entry stops the load with the file, the line, what is wrong and how to fix it; an unknown glyph
name says which names are close.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from droidpilot.errors import InputError

REPO = Path(__file__).resolve().parents[5]  # src/droidpilot/perception/icons/learned -> the checkout
DEFAULT_GLOB = "benchmarks/data/real_icon_train_*.yaml"
BRAND, OTHER = "brand:", "other"
SPLIT = "train"


@dataclass(frozen=True)
class RealLabel:
    """One labelled icon on a real training screen: its box (device pixels, x2/y2 exclusive) and glyph."""

    screen: str  # "APP/RUN/STEP.jpg" under the file's root
    box: tuple[int, int, int, int]
    glyph: str  # a library glyph name, "brand:NAME" or "other"
    query: str
    where: str  # "FILE:LINE", for messages

    @property
    def run(self) -> str:
        """The run the screen belongs to ("TikTok/3"): crops of one run share a look, so splits keep
        a run together."""
        return self.screen.rsplit("/", 1)[0]

    @property
    def is_glyph(self) -> bool:
        """Does the label name a library glyph (not a brand, not ``other``)?"""
        return not self.glyph.startswith(BRAND) and self.glyph != OTHER


@dataclass(frozen=True)
class LabelFile:
    """A label file as read: where its screens are and its labels in file order."""

    path: Path
    root: Path
    labels: tuple[RealLabel, ...]

    def digest(self) -> str:
        """The file's sha256 (the first 16 hex digits), recorded in the weights' manifest."""
        return hashlib.sha256(self.path.read_bytes()).hexdigest()[:16]


class LineLoader(yaml.SafeLoader):
    """A safe loader that remembers each mapping's line (key ``__line__``), so errors can name it."""


def _with_line(loader: LineLoader, node: yaml.MappingNode) -> dict[str, object]:
    out = loader.construct_mapping(node, deep=True)
    out["__line__"] = node.start_mark.line + 1
    return out


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _with_line)


def read_box(value: object, where: str) -> tuple[int, int, int, int]:
    """A labelled box [x1, y1, x2, y2] (device pixels) checked; InputError naming ``where`` otherwise."""
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise InputError(f"{where}: box must be four whole numbers [x1, y1, x2, y2] in device pixels, "
                         f"got {value!r}")
    x1, y1, x2, y2 = value
    if not (0 <= x1 < x2 and 0 <= y1 < y2):
        raise InputError(f"{where}: box {value} is empty or negative; write [left, top, right, bottom] "
                         "with right > left and bottom > top")
    return (x1, y1, x2, y2)


def _glyph(value: object, known: frozenset[str], where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: each icon needs 'glyph': a library glyph name, 'brand:NAME' or 'other', "
                         f"got {value!r}")
    name = value.strip()
    if name == OTHER or (name.startswith(BRAND) and len(name) > len(BRAND)):
        return name
    if name not in known:
        close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
        hint = f" (close: {', '.join(close)})" if close else ""
        raise InputError(f"{where}: glyph {name!r} is not a class of the classifier's glyph library{hint}; "
                         "use a name from learned/weights/icons.json's classes, 'brand:NAME' or 'other'")
    return name


def _read_yaml(path: Path) -> dict[str, object]:
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=LineLoader)  # a SafeLoader subclass
    except OSError as exc:
        raise InputError(f"cannot read the label file {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({exc}); compare with the entries above it") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("screens"), list):
        raise InputError(f"{path}: expected a mapping with 'root' and a list 'screens'")
    return doc


def load_label_file(path: Path, known: Iterable[str]) -> LabelFile:
    """Read one training label file; InputError naming the file, the line and the fix on a bad entry.
    ``known`` is every glyph name the classifier has a class for."""
    names = frozenset(known)
    doc = _read_yaml(path)
    root = doc.get("root")
    if not isinstance(root, str) or not root:
        raise InputError(f"{path}: 'root' (the folder the screen paths are under, relative to the "
                         "checkout, e.g. ../shared/reference/mobile-eval-real) is missing")
    labels: list[RealLabel] = []
    seen: dict[str, object] = {}
    for screen in doc["screens"]:  # type: ignore[union-attr]
        line = screen.get("__line__", "?") if isinstance(screen, dict) else "?"
        where = f"{path}:{line}"
        if not isinstance(screen, dict) or not isinstance(screen.get("path"), str):
            raise InputError(f"{where}: each screen needs 'path' (APP/RUN/STEP.jpg), 'split: train' "
                             "and 'icons'")
        if screen.get("split") != SPLIT:
            raise InputError(f"{where}: split {screen.get('split')!r} of {screen['path']}; a training label "
                             f"file holds only 'split: {SPLIT}' screens")
        if screen["path"] in seen:
            raise InputError(f"{where}: screen {screen['path']} is listed again (first at line "
                             f"{seen[screen['path']]}); put its icons under the first entry")
        seen[screen["path"]] = line
        icons = screen.get("icons")
        if not isinstance(icons, list) or not icons:
            raise InputError(f"{where}: screen {screen['path']} has no 'icons' list")
        for icon in icons:
            at = f"{path}:{icon.get('__line__', line) if isinstance(icon, dict) else line}"
            if not isinstance(icon, dict):
                raise InputError(f"{at}: each icon is a mapping {{query, box, glyph}}, got {icon!r}")
            query = icon.get("query")
            if not isinstance(query, str) or not query.strip():
                raise InputError(f"{at}: each icon needs a non-empty 'query', a 'box' and a 'glyph'")
            labels.append(RealLabel(screen["path"], read_box(icon.get("box"), at), _glyph(icon.get("glyph"),
                                    names, at), query, at))
    return LabelFile(path, REPO / root, tuple(labels))  # root is written relative to the checkout


def label_files(paths: Sequence[Path] | None = None) -> list[Path]:
    """The given label files, or the checkout's benchmarks/data/real_icon_train_*.yaml in name order."""
    return sorted(REPO.glob(DEFAULT_GLOB)) if paths is None else list(paths)


def shown_path(path: Path) -> str:
    """The path as recorded in a manifest: relative to the checkout when inside it."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)
