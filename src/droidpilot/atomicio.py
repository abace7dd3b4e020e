"""Atomic file writes: readers see the old file or the new one, never a partial one.

Every durable write of droidpilot (traces, caches, benchmark results) goes through here, so an
interrupted run or two concurrent writers never leave a torn file behind. Files get the mode a plain
``open()`` would give them (0666 less the umask, usually 0644), not the temporary file's private 0600.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
from pathlib import Path
from typing import Any


@functools.cache
def file_mode() -> int:
    """The mode ``open()`` gives a new file: 0o666 without the process umask (read once, from /proc)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # no /proc: read the umask by setting it, and put it straight back
    os.umask(mask)
    return 0o666 & ~mask


def make_temp_beside(target: Path) -> tuple[int, str]:
    """A temporary file (fd, path) in ``target``'s folder, with the mode a new file would have."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:32]}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, file_mode())
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    return fd, tmp


def atomic_write_bytes(path: str | Path, data: bytes, *, fsync: bool = True) -> None:
    """Write ``data`` to a unique temporary file beside ``path``, then rename it over ``path``."""
    target = Path(path)
    fd, tmp = make_temp_beside(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_json(path: str | Path, value: Any, *, indent: int | None = 1, fsync: bool = True) -> None:
    """Serialise ``value`` as UTF-8 JSON (non-ASCII kept) and write it atomically."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    atomic_write_bytes(path, text.encode("utf-8"), fsync=fsync)
