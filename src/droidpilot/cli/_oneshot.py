"""How a one-shot screen-reading command (``verify``, ``ocr``, ``locate``) sets up its process.

Two defaults suit a long-lived numeric program and cost a short one on a small machine:
- glibc hands large freed blocks back to the kernel (as separate mappings, or by trimming the heap), so
  the buffers allocated and freed once per screenshot (the decoded image, the detection input, its
  copies) are supplied and zeroed by the kernel again on every screen. ``keep_freed_memory`` has glibc
  serve blocks of up to 32 MB from the heap and never trim it: their pages are faulted in once.
- numpy's OpenBLAS starts a worker thread per extra core when numpy is imported, and that thread spins
  for about a tenth of a second before it sleeps: on two cores it takes the core the OCR models load and
  run on. A screen-reading command makes no large matrix products (the icon library's small ones ran on
  one thread already, ``perception/blas.py``), so ``one_blas_thread`` asks OpenBLAS for none.
Both must run before numpy is imported; ``prepare`` does both. Long-running commands leave the defaults.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # the largest value glibc accepts on 64-bit systems
TRIM_THRESHOLD = 1 << 30
# OpenBLAS takes its thread count from the first of these that is set; a user who set any one chose it.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def keep_freed_memory() -> bool:
    """Set glibc's allocator to keep freed blocks for reuse; whether it was set. Other C libraries (musl,
    macOS) are left as they are."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version  # glibc only: musl's mallopt does nothing  # noqa: B018
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def one_blas_thread() -> bool:
    """Ask OpenBLAS, before numpy loads it, to start no worker threads; whether it was asked (a count the
    user set is kept, and so is an OpenBLAS already loaded)."""
    if "numpy" in sys.modules or any(name in os.environ for name in BLAS_THREAD_VARIABLES):
        return False
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    return True


def prepare() -> None:
    """Both settings, for the process of a one-shot command."""
    keep_freed_memory()
    one_blas_thread()
