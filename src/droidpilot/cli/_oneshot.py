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

``start_models`` then starts loading the OCR models of an ``ocr`` or ``locate`` command in a background
thread (``perception/preload.py``) before the command line's own modules (Typer, numpy, Pillow, OpenCV)
import: onnxruntime builds sessions without the GIL, on the core the imports leave idle. ``verify``
starts its own once it knows the rule reads screenshots (``verify/prefetch.py``).
"""

from __future__ import annotations

import ctypes
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
        # The process's own symbols, the C library's among them: ctypes.util.find_library would import
        # subprocess and run `ldconfig -p` in every cold command.
        libc = ctypes.CDLL(None)
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


# The commands that read one screenshot with an OCR engine chosen by --engine (default rapidocr).
READS_SCREEN = frozenset({"ocr", "locate"})
DEFAULT_ENGINE = "rapidocr"


def engine_asked(args: list[str]) -> str | None:
    """The OCR engine the command line ``args`` (without the program name) will use, if it is a
    screen-reading command that will read a screen: not for help, and not for anything else."""
    if not args or args[0] not in READS_SCREEN or any(a in ("--help", "-h") for a in args[1:]):
        return None
    engine = DEFAULT_ENGINE
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--":
            break
        if arg == "--engine":
            engine = next(rest, DEFAULT_ENGINE)
        elif arg.startswith("--engine="):
            engine = arg.partition("=")[2]
    return engine


def start_models(args: list[str]) -> bool:
    """Start loading the models of the engine ``args`` ask for (see the module docstring); whether it was
    started. A wrong guess costs a load in the background; the command reports bad input as always."""
    engine = engine_asked(args)
    if engine is None:
        return False
    from droidpilot.perception import preload

    return preload.start(engine)


def prepare() -> None:
    """Both settings, for the process of a one-shot command."""
    keep_freed_memory()
    one_blas_thread()
