"""Atomic file writes: readers see the old file or the new one, never a partial one.

Every durable write of droidpilot (traces, caches, benchmark results) goes through here, so an
interrupted run or two concurrent writers never leave a torn file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def atomic_write_bytes(path: str | Path, data: bytes, *, fsync: bool = True) -> None:
    """Write ``data`` to a unique temporary file beside ``path``, then rename it over ``path``."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:32]}.", suffix=".tmp", dir=target.parent)
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
