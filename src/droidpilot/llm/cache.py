"""A persistent cache of model answers, keyed by content, so no question is asked twice.

The key is a hash of everything that decides the answer (model, the exact prompt text, the hashes of
the images sent and how they were prepared). Entries live in memory and as small JSON files under the
cache directory (``DROIDPILOT_CACHE_DIR``, default the user's cache directory), written atomically
(temporary file + rename) so concurrent runs never read a half-written entry.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from droidpilot.atomicio import atomic_write_json
from droidpilot.cachedir import CACHE_ENV, default_cache_dir

log = logging.getLogger(__name__)

CACHE_ENV_VAR = CACHE_ENV
ANSWERS_SUBDIR = "llm-answers"


def answer_key(model: str, prompt_text: str, image_hashes: Sequence[str], settings: str = "") -> str:
    """The content key of one question: SHA-256 over model, prompt text, image hashes and settings."""
    blob = json.dumps({"model": model, "prompt": prompt_text, "images": list(image_hashes),
                       "settings": settings}, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class AnswerCache:
    """Answers (JSON objects) by key, in memory and, unless ``disk`` is False, on disk.

    A disk that cannot be written (read-only, full) degrades to memory only with one warning; a
    corrupt entry is treated as a miss.
    """

    def __init__(self, directory: Path | str | None = None, disk: bool = True) -> None:
        root = Path(directory).expanduser() if directory is not None else default_cache_dir()
        self.directory = root / ANSWERS_SUBDIR
        self.disk = disk
        self._memory: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._warned = False

    def __repr__(self) -> str:
        return f"AnswerCache({str(self.directory)!r}, disk={self.disk}, in_memory={len(self._memory)})"

    def path_for(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored answer for ``key``, or None."""
        with self._lock:
            hit = self._memory.get(key)
        if hit is not None or not self.disk:
            return dict(hit) if hit is not None else None
        try:
            value = json.loads(self.path_for(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(value, dict):
            return None
        with self._lock:
            self._memory[key] = value
        return dict(value)

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` under ``key`` in memory and atomically on disk."""
        with self._lock:
            self._memory[key] = dict(value)
        if not self.disk:
            return
        target = self.path_for(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_json(target, value, indent=None, fsync=False)
        except OSError as exc:
            if not self._warned:
                log.warning("LLM answer cache %s is not writable (%s); caching in memory only",
                            self.directory, exc.strerror or exc)
                self._warned = True

    def __len__(self) -> int:
        with self._lock:
            return len(self._memory)
