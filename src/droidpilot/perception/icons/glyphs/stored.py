"""The glyph library's descriptor matrices kept on disk, so a new process does not render and describe
every family's glyphs again (about 15 s of CPU with five families).

An entry is keyed by SHA-256 over the bytes of every font and stylesheet in use, the mapping and synonym
data, and the source of the modules that make descriptors, so any change to one of them builds afresh.
Entries are ``.npz`` files under ``$DROIDPILOT_CACHE_DIR/glyphs`` with float16 rows (half the size;
matrices are always rounded so, built or loaded, so a built and a loaded library answer alike), written
to a temporary file and moved into place; the KEEP newest entries of each kind are kept.
``DROIDPILOT_GLYPH_CACHE=0`` turns the store off.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from droidpilot.atomicio import make_temp_beside
from droidpilot.cachedir import default_cache_dir

STORE_ENV = "DROIDPILOT_GLYPH_CACHE"
FORMAT = 1
KEEP = 8  # entries kept per kind (other checkouts, other fonts); older ones are removed
_SOURCES = ("descriptor.py", "strokes.py", "styles.py", "drawn.py", "render.py", "families.py", "match.py",
            "family_names.yaml", "synonyms.json")
_log = logging.getLogger(__name__)

Arrays = dict[str, np.ndarray]


def entry_key(kind: str, files: Sequence[str]) -> str:
    """The content key of one library: its kind, the files it is built from and the code that builds it."""
    h = hashlib.sha256(f"{kind}\0{FORMAT}".encode())
    for f in files:
        h.update(f.encode("utf-8") + b"\0")
        with contextlib.suppress(OSError):
            h.update(hashlib.sha256(Path(f).read_bytes()).digest())
    here = resources.files("droidpilot.perception.icons.glyphs")
    for name in _SOURCES:
        h.update(here.joinpath(name).read_bytes())
    return h.hexdigest()


def rounded(matrix: np.ndarray) -> np.ndarray:
    """The matrix as the store keeps it (float16 precision), back in float32."""
    return matrix.astype(np.float16).astype(np.float32)


def _folder() -> Path:
    return default_cache_dir() / "glyphs"


def load_or_build(kind: str, files: Sequence[str], build: Callable[[], Arrays]) -> Arrays:
    """The stored arrays for (kind, files), or ``build()``'s (``matrix`` rounded), stored for next time."""
    if os.environ.get(STORE_ENV, "").strip() == "0":
        return _rounded(build())
    path = _folder() / f"{kind}-{entry_key(kind, files)[:32]}.npz"
    try:
        with np.load(path, allow_pickle=False) as data:
            out = {k: data[k] for k in data.files}
        out["matrix"] = out["matrix"].astype(np.float32)
        return out
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError) as e:  # a damaged entry: build and replace it
        _log.warning("glyph library cache %s is unreadable (%s); building it again", path, e)
    arrays = _rounded(build())
    _store(path, arrays)
    return arrays


def _rounded(arrays: Arrays) -> Arrays:
    return {**arrays, "matrix": rounded(arrays["matrix"])}


def _store(path: Path, arrays: Arrays) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = make_temp_beside(path)
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **{**arrays, "matrix": arrays["matrix"].astype(np.float16)})
        os.replace(tmp, path)
        _prune(path.parent, path.name.split("-")[0])
    except OSError as e:  # a read-only cache folder costs time, not answers
        _log.warning("glyph library cache %s cannot be written (%s)", path, e)
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(tmp)


def _prune(folder: Path, kind: str) -> None:
    """Remove all but the KEEP newest entries of a kind (each is tens of MB)."""
    entries = sorted(folder.glob(f"{kind}-*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEEP:]:
        with contextlib.suppress(OSError):
            old.unlink()
