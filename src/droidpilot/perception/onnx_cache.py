"""Optimised copies of the OCR models on disk, so a cold process skips onnxruntime's graph optimisation.

onnxruntime rewrites a model's graph (fused operators, a memory layout for this CPU's vector width) every
time it opens a session: about 0.08 s of CPU for the two OCR models, in every cold ``ocr`` or ``verify``.
The rewritten graph is saved once, under ``<cache>/onnx``, and later sessions open it with optimisation
off: the same graph, so the same outputs (``tests/perception/test_onnx_cache.py``), for less work.

An entry is named by a hash of all the rewrite depends on: the model's bytes (SHA-256), onnxruntime's
version and build, the CPU's architecture and instruction-set flags (the layout rewrite is specific to
them) and this file's format. The model's SHA-256 is remembered beside the entries under the file's
identity (path, size, times, inode), so a cold process does not hash 30 MB to find its entry. Entries are
written to a temporary file and renamed into place: concurrent writers and readers never see a partial
file, and the last writer of a key wins with the same bytes. An entry onnxruntime cannot open is deleted
and rebuilt. Only stdlib is imported here (onnxruntime comes in as an argument).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import platform
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from droidpilot.atomicio import atomic_write_bytes, make_temp_beside

FORMAT = 1
SUBDIR = "onnx"
KEEP_PER_MODEL = 3  # entries kept per model file name (other onnxruntime versions, CPUs); oldest go first
STALE_TEMP_SECONDS = 3600  # a writer's temporary file this old was left by a process that died
_HEX64 = re.compile(r"[0-9a-f]{64}")


def cpu_identity() -> str:
    """The machine architecture and, on Linux, the CPU's feature flags (AVX2, AVX-512, ...)."""
    flags = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.startswith(("flags", "Features")):  # x86, arm
                flags = " ".join(sorted(line.split(":", 1)[1].split()))
                break
    return f"{platform.machine()};{flags}"


def runtime_identity(ort: Any) -> str:
    """onnxruntime's version and build, as the module ``ort`` reports them."""
    build = getattr(ort, "get_build_info", None)
    return f"{ort.__version__};{build() if callable(build) else ''}"


class ModelCache:
    """Optimised models under ``directory``, one per (model bytes, onnxruntime, CPU); see the module doc."""

    def __init__(self, directory: Path, runtime: str, cpu: str | None = None) -> None:
        self.directory = Path(directory)
        self.environment = f"{runtime}\0{cpu if cpu is not None else cpu_identity()}\0format={FORMAT}"

    def model_digest(self, model: Path) -> str:
        """The SHA-256 of ``model``'s bytes, remembered under the file's identity; OSError if unreadable."""
        info = os.stat(model)
        identity = f"{Path(model).resolve()}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\0" \
                   f"{info.st_ino}\0{info.st_dev}"
        memo = self.directory / f"{Path(model).stem}.{_sha(identity)[:32]}.sha256"
        with contextlib.suppress(OSError, UnicodeDecodeError):
            known = memo.read_text(encoding="ascii").strip()
            if _HEX64.fullmatch(known):
                return known
        sha = hashlib.sha256()  # (hashlib.file_digest is Python 3.11+)
        with open(model, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                sha.update(block)
        digest = sha.hexdigest()
        with contextlib.suppress(OSError):
            self._write(memo, digest.encode("ascii"))
        return digest

    def entry(self, model: Path) -> Path:
        """Where the optimised copy of ``model`` is (or will be) kept; OSError if ``model`` is unreadable."""
        key = _sha(f"{self.model_digest(model)}\0{self.environment}")[:40]
        return self.directory / f"{Path(model).stem}.{key}.onnx"

    def open(self, model: Path, build: Callable[[str, str | None], Any], load: Callable[[str], Any]) -> Any:
        """A session for ``model``: ``load(entry)`` of its cached copy when it opens, else
        ``build(model, save_to)``, which must open ``model`` with optimisation on and save the optimised
        graph to ``save_to`` (None: the cache cannot be written; open without saving). An entry that does
        not open is deleted and rebuilt; a ``model`` that does not open raises ``build``'s error."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            target = self.entry(model)
        except OSError:
            return build(str(model), None)
        if target.is_file():
            try:
                session = load(str(target))
            except Exception:  # a damaged or foreign file: rebuilt below
                with contextlib.suppress(OSError):
                    target.unlink()
            else:
                with contextlib.suppress(OSError):
                    os.utime(target)  # recently used: pruned last
                return session
        try:
            fd, tmp = make_temp_beside(target)
            os.close(fd)
        except OSError:
            return build(str(model), None)
        try:
            session = build(str(model), tmp)
        except Exception:  # a saving problem opens the model without the cache; a broken model raises
            with contextlib.suppress(OSError):  # its own error from this second try
                os.unlink(tmp)
            return build(str(model), None)
        try:
            if os.path.getsize(tmp) > 0:  # onnxruntime wrote the optimised graph
                os.replace(tmp, target)
                self.prune(Path(model).stem)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)  # left only when nothing was moved into place
        return session

    def prune(self, stem: str) -> None:
        """Keep the ``KEEP_PER_MODEL`` most recently used entries (and hash memos) of model ``stem``;
        remove temporary files writers that died left behind."""
        now = time.time()
        for pattern in (f"{stem}.*.onnx", f"{stem}.*.sha256"):
            found = []
            for path in self.directory.glob(pattern):
                with contextlib.suppress(OSError):
                    found.append((path.stat().st_mtime, path))
            for _, path in sorted(found, reverse=True)[KEEP_PER_MODEL:]:
                with contextlib.suppress(OSError):
                    path.unlink()
        for path in self.directory.glob(f".{stem}.*.tmp"):
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > STALE_TEMP_SECONDS:
                    path.unlink()

    def _write(self, path: Path, data: bytes) -> None:
        atomic_write_bytes(path, data, fsync=False)  # a lost memo is only recomputed


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
