"""A persistent, content-addressed OCR cache, so no screenshot is recognised twice across processes and runs.

Key: SHA-256 of the image bytes, the engine's name and its ``settings_key``. Entries are small JSON files
under ``$DROIDPILOT_CACHE_DIR/ocr`` (default: the user's cache directory, e.g. ``~/.cache/droidpilot``),
written to a temporary file and moved into place with ``os.replace``, so concurrent writers never leave
a half-written entry (two writers of one key write the same content; the last rename wins). The size is
bounded: when it grows over ``max_bytes`` the least recently used entries (oldest mtime; a hit touches
its entry) are removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from droidpilot.atomicio import make_temp_beside
from droidpilot.cachedir import default_cache_dir
from droidpilot.errors import InputError
from droidpilot.perception.ocr import ImageInput, OcrEngine, image_key_bytes
from droidpilot.perception.reading import FinishedReading, OcrReading, start_reading
from droidpilot.perception.types import OcrLine

MAX_MB_ENV = "DROIDPILOT_OCR_CACHE_MAX_MB"
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
FORMAT = 1
# Unfinished readings a CachedOcr hands out again for the same image bytes (each holds a screenshot's pixels).
OPEN_READINGS = 16
_log = logging.getLogger(__name__)


def _max_bytes_from_env() -> int:
    raw = os.environ.get(MAX_MB_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_BYTES
    try:
        value = float(raw)
    except ValueError:
        raise InputError(f"{MAX_MB_ENV}={raw!r} is not a number of megabytes") from None
    if value <= 0:
        raise InputError(f"{MAX_MB_ENV} must be positive, got {raw!r}")
    return int(value * 1024 * 1024)


class OcrCache:
    """OCR lines stored by content hash; safe to share between processes."""

    def __init__(self, directory: Path | str | None = None, max_bytes: int | None = None,
                 evict_every: int = 64) -> None:
        root = Path(directory) if directory is not None else default_cache_dir()
        self.directory = root / "ocr"
        self.max_bytes = max_bytes if max_bytes is not None else _max_bytes_from_env()
        self.evict_every = max(1, evict_every)
        self._puts = 0
        self._lock = threading.Lock()

    @staticmethod
    def key(image_bytes: bytes, engine_name: str, settings_key: str) -> str:
        """The entry's name: a hash over the image bytes, the engine and its settings."""
        h = hashlib.sha256()
        h.update(hashlib.sha256(image_bytes).digest())
        h.update(b"\0" + engine_name.encode() + b"\0" + settings_key.encode())
        return h.hexdigest()

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> list[OcrLine] | None:
        """The cached lines, or None on a miss (an unreadable or corrupt entry counts as a miss)."""
        path = self.path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:
                return None
            lines = [OcrLine(str(d["text"]), tuple(int(v) for v in d["box"]), float(d["score"]))  # type: ignore[arg-type]
                     for d in data["lines"]]
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: evicted last
        return lines

    def put(self, key: str, lines: list[OcrLine], meta: dict[str, Any] | None = None) -> None:
        """Store ``lines`` atomically (temporary file + rename); then evict if the cache is too big."""
        path = self.path(key)
        payload = {"format": FORMAT, **(meta or {}), "lines": [line.to_dict() for line in lines]}
        # Scores keep full precision in the cache; to_dict rounds them for display.
        for out, line in zip(payload["lines"], lines, strict=True):
            out["score"] = float(line.score)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = make_temp_beside(path)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        with self._lock:
            self._puts += 1
            due = self._puts == 1 or self._puts % self.evict_every == 0
        if due:
            self.evict()

    def entries(self) -> list[tuple[float, int, Path]]:
        """(mtime, size, path) of every entry."""
        out = []
        if not self.directory.is_dir():
            return out
        for path in self.directory.glob("*/*.json"):
            try:
                st = path.stat()
            except FileNotFoundError:  # removed by another process meanwhile
                continue
            out.append((st.st_mtime, st.st_size, path))
        return out

    def size(self) -> int:
        """Total bytes of all entries."""
        return sum(size for _, size, _ in self.entries())

    def evict(self) -> int:
        """Remove least recently used entries until the cache is under 90% of its bound; how many went."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return 0
        target = int(self.max_bytes * 0.9)
        removed = 0
        for _, size, path in sorted(entries, key=lambda e: e[0]):
            if total <= target:
                break
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed += 1
            total -= size
        return removed

    def clear(self) -> None:
        """Remove every entry."""
        for _, _, path in self.entries():
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


class CachedOcr:
    """An OcrEngine that answers from the cache and runs ``engine`` only on a miss.

    ``share_unfinished=False`` gives a screen shown again while its first reading is unfinished a reading of
    its own (as before the sharing existed), so a benchmark can check the sharing changes no verdict."""

    def __init__(self, engine: OcrEngine, cache: OcrCache | None = None, *,
                 share_unfinished: bool = True) -> None:
        self.engine = engine
        self.cache = cache if cache is not None else OcrCache()
        self.share_unfinished = share_unfinished
        self.name = engine.name
        self.hits = 0
        self.misses = 0
        self.shared = 0  # readings handed out again for an image already being read (see start_reading)
        # (thread, key) -> unfinished reading. Only the thread that started a reading is handed it again: a
        # reading is continued by one caller at a time (the studio verifies in request threads).
        self._open: OrderedDict[tuple[int, str], OcrReading] = OrderedDict()
        self._open_lock = threading.Lock()

    def settings_key(self) -> str:
        return self.engine.settings_key()

    def cache_key(self, image: ImageInput) -> str:
        return OcrCache.key(image_key_bytes(image), self.engine.name, self.engine.settings_key())

    def recognize(self, image: ImageInput) -> list[OcrLine]:
        """Cached lines of ``image``; recognised (and stored) only the first time it is seen."""
        return self.start_reading(image).finish()

    def start_reading(self, image: ImageInput) -> OcrReading:
        """A reading of ``image``: finished at once from the cache, else the engine's reading, stored in the
        cache when (and only if) it is read to the end, so a partial reading is never taken for a whole.

        A trace often shows one screen twice, byte for byte (a tap that changed nothing, a wait): while the
        first reading of those bytes is unfinished (a check found its words and stopped), the same reading
        is handed out again, so the screen is not detected a second time and what either asker recognises
        serves both. Bytes that differ at all (one changed line) get a reading of their own."""
        key = self.cache_key(image)
        mine = (threading.get_ident(), key)
        with self._open_lock:
            reading = self._open.get(mine)
            if reading is not None and not reading.done:
                self._open.move_to_end(mine)
                self.shared += 1
                return reading
        lines = self.cache.get(key)
        if lines is not None:
            self.hits += 1
            return FinishedReading(lines)
        self.misses += 1
        reading = start_reading(self.engine, image)
        if not reading.done and self.share_unfinished:
            with self._open_lock:
                self._open[mine] = reading
                while len(self._open) > OPEN_READINGS:
                    self._open.popitem(last=False)
        reading.when_done(lambda lines: self._store(mine, lines))
        return reading

    def _store(self, opened: tuple[int, str], lines: list[OcrLine]) -> None:
        _, key = opened
        with self._open_lock:
            self._open.pop(opened, None)  # finished: later askers read it from the cache
        try:
            self.cache.put(key, lines, {"engine": self.engine.name, "settings": self.engine.settings_key()})
        except OSError as exc:  # a read-only or full cache directory must not lose the answer
            _log.warning("cannot write the OCR cache in %s: %s", self.cache.directory, exc)


def cached(engine: OcrEngine, cache: OcrCache | None = None) -> CachedOcr:
    """``engine`` behind the persistent cache (unchanged if it already is a CachedOcr)."""
    return engine if isinstance(engine, CachedOcr) else CachedOcr(engine, cache)
