"""Where droidpilot keeps what it can rebuild (OCR lines, model answers, optimised models): one folder.

``$DROIDPILOT_CACHE_DIR`` if set, else the platform's user cache directory for droidpilot (e.g.
``~/.cache/droidpilot``). Only stdlib and platformdirs are imported, so a cold command can ask early.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs  # here, not in the function: threads that open models call it (see onnx_sessions)

CACHE_ENV = "DROIDPILOT_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$DROIDPILOT_CACHE_DIR`` if set, else the platform's user cache directory for droidpilot."""
    env = os.environ.get(CACHE_ENV, "").strip()
    return Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("droidpilot"))
