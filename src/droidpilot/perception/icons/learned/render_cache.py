"""The training renders' features kept on disk, so retraining on new real labels does not render and
describe ~108,000 augmented glyphs again (20 minutes of CPU on a loaded machine).

An entry is keyed by SHA-256 over the set's arguments (classes, per class, seed, negatives), the
descriptor's version, the glyph library's fonts (glyphs.stored.entry_key) and the source of every module
that makes a render or its features, so any change to one of them builds afresh. Rows are kept as
float16 and always rounded so, built or loaded, so a run that built its renders and one that loaded them
train the same weights. ``$DROIDPILOT_CACHE_DIR/icon-renders``; ``DROIDPILOT_RENDER_CACHE=0`` turns it off;
small sets are built every time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from droidpilot.atomicio import make_temp_beside
from droidpilot.cachedir import default_cache_dir
from droidpilot.perception.icons.glyphs.catalogue import library_key
from droidpilot.perception.icons.glyphs.stored import entry_key
from droidpilot.perception.icons.learned.data import build_set
from droidpilot.perception.icons.learned.features import feature_version

STORE_ENV = "DROIDPILOT_RENDER_CACHE"
KEEP = 2  # entries kept (each is a few hundred MB); older ones are removed
SMALL = 20_000  # sets of fewer rows (a test's tiny run) are quick to build: not stored, never evict one
_SOURCES = (("droidpilot.perception.icons.learned", ("augment.py", "data.py", "features.py", "classes.py")),
            ("droidpilot.perception.icons", ("describe.py", "tiles.py", "colours.py", "shapes.py")))
_log = logging.getLogger(__name__)


def set_key(classes: Sequence[tuple[str, ...]], per_class: int, seed: int, negatives: int) -> str:
    """The content key of one render set: its arguments and everything that shapes its rows."""
    h = hashlib.sha256(json.dumps([list(c) for c in classes]).encode())
    h.update(f"{per_class}\0{seed}\0{negatives}\0{feature_version()}\0".encode())
    h.update(entry_key("renders", library_key()).encode())
    for package, names in _SOURCES:
        here = resources.files(package)
        for name in names:
            h.update(here.joinpath(name).read_bytes())
    return h.hexdigest()


def renders(classes: Sequence[tuple[str, ...]], per_class: int, seed: int, negatives: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """build_set's (features rounded to float16 precision, classes), from the store when it has them."""
    if os.environ.get(STORE_ENV, "").strip() == "0" or len(classes) * per_class + negatives < SMALL:
        x, y = build_set(classes, per_class, seed, negatives)
        return x.astype(np.float16).astype(np.float32), y
    path = default_cache_dir() / "icon-renders" / f"{set_key(classes, per_class, seed, negatives)[:32]}.npz"
    try:
        with np.load(path, allow_pickle=False) as data:
            return data["x"].astype(np.float32), data["y"].astype(np.int64)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError) as e:  # a damaged entry: build and replace it
        _log.warning("icon render cache %s is unreadable (%s); building it again", path, e)
    x, y = build_set(classes, per_class, seed, negatives)
    x16 = x.astype(np.float16)
    _store(path, x16, y)
    return x16.astype(np.float32), y


def _store(path: Path, x: np.ndarray, y: np.ndarray) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = make_temp_beside(path)
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, x=x, y=y)
        os.replace(tmp, path)
        entries = sorted(path.parent.glob("*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[KEEP:]:
            with contextlib.suppress(OSError):
                old.unlink()
    except OSError as e:  # a read-only cache folder costs time, not weights
        _log.warning("icon render cache %s cannot be written (%s)", path, e)
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(tmp)
