"""Parsed template suites kept per process, keyed on the folder and its files' contents.

Parsing the world suite's YAML takes 0.2-0.9 s, and a test run, the gym and the studio load it again and
again. A folder is parsed once per content: the key hashes every file's name and bytes, so an edited file
(even one rewritten within the file system's timestamp tick, at the same size) is read afresh. Callers get
copies whose lists and mappings are their own, so one caller changing a template cannot change another's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

FOLDERS_KEPT = 8  # distinct folder contents kept; tests write many small suites, the shipped one stays hot

_cache: OrderedDict[tuple[str, str], list[Any]] = OrderedDict()
_lock = threading.Lock()  # the studio serves requests from threads


def contents_key(files: list[Path]) -> str:
    """A digest of the files' names and bytes, in the given order."""
    digest = hashlib.blake2b(digest_size=20)
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def copy_plain(value: Any) -> Any:
    """``value`` with every list and dict (recursively) copied; other values (str, numbers, Path, None,
    tuples of those) are immutable and shared. Much cheaper than ``copy.deepcopy`` for YAML-shaped data."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    return value


def copy_record(item: T) -> T:
    """A copy of a dataclass instance whose list and dict fields are copied with ``copy_plain``."""
    changes = {
        f.name: copy_plain(getattr(item, f.name))
        for f in dataclasses.fields(item)  # type: ignore[arg-type]
        if isinstance(getattr(item, f.name), (dict, list))
    }
    return dataclasses.replace(item, **changes)  # type: ignore[type-var]


def cached_folder(folder: Path, files: list[Path], read: Callable[[], list[T]]) -> list[T]:
    """``read()``'s result for ``folder`` whose ``files`` are as now, from the cache when their contents
    were read before; copies of the records either way. Nothing is kept when ``read`` raises, and a
    folder whose files cannot be read for the key is read uncached (``read`` reports the problem)."""
    try:
        key = (str(folder.resolve()), contents_key(files))
    except OSError:  # unreadable: ``read`` says so in its own words
        return read()
    with _lock:
        kept = _cache.get(key)
        if kept is not None:
            _cache.move_to_end(key)
    if kept is None:
        kept = read()  # outside the lock: a slow parse holds up no other folder
        with _lock:
            _cache[key] = kept
            while len(_cache) > FOLDERS_KEPT:
                _cache.popitem(last=False)
    return [copy_record(item) for item in kept]


def clear() -> None:
    """Forget every cached folder (for tests that measure a cold load)."""
    with _lock:
        _cache.clear()
