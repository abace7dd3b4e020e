"""Run small matrix products on one BLAS thread.

numpy's OpenBLAS starts one thread per core for every product. The icon glyph library's products are
small (a few hundred candidates by 2,193 glyphs) and on a busy machine the extra threads wait for each
other: measured on the 2-core CI machine under load, a locate query took twice as long. ``one_thread``
sets OpenBLAS (found among the loaded libraries) to one thread for a block and restores the count after;
without OpenBLAS it does nothing.
"""

from __future__ import annotations

import ctypes
import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_PREFIXES = ("scipy_openblas_", "openblas_")
_SUFFIXES = ("64_", "")
_lock = threading.RLock()  # nested blocks in one thread are fine


@functools.cache
def _openblas() -> tuple[Any, Any] | None:
    """(get_num_threads, set_num_threads) of the loaded OpenBLAS, or None."""
    import numpy  # noqa: F401  (loads numpy's BLAS before looking for it)

    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            paths = sorted({line.split()[-1] for line in fh if "openblas" in line.lower() and "/" in line})
    except OSError:
        return None
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in _PREFIXES:
            for suffix in _SUFFIXES:
                get = getattr(lib, f"{prefix}get_num_threads{suffix}", None)
                put = getattr(lib, f"{prefix}set_num_threads{suffix}", None)
                if get is not None and put is not None:
                    get.restype, put.argtypes = ctypes.c_int, [ctypes.c_int]
                    return get, put
    return None


@contextmanager
def one_thread() -> Iterator[None]:
    """Within the block, numpy's matrix products use one OpenBLAS thread."""
    funcs = _openblas()
    if funcs is None:
        yield
        return
    get, put = funcs
    with _lock:
        before = int(get())
        put(1)
        try:
            yield
        finally:
            put(before)
