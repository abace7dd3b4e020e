"""Guess, before the verifier loads, whether a verification will read screenshots, and if so start loading
the OCR engine at once (``perception.preload``), so its models load while the verifier's modules import.

The guess looks only at bytes on disk: the rule names an OCR check (``ocr`` / ``ocr_match``, as a word)
and the trace is a folder with screenshots and no UI dumps, so an escalation cannot stop at ``xml``. A
wrong "yes" costs a background load on an idle core; a wrong "no" costs nothing (the engine loads on first
use, as without the guess). Only stdlib is imported here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

RULE_READ_LIMIT = 1 << 20  # bytes of a rule file looked at (rules are a few KB)
# "ocr" or "ocr_match" as a word of its own (not in "socrates", "ocré" or "ocrx"); UTF-8 letters count.
_OCR_WORD = re.compile(rb"(?i)(?<![a-z0-9_\x80-\xff])ocr(?:_match)?(?![a-z0-9_\x80-\xff])")
_SCREENSHOT = (".jpg", ".jpeg", ".png", ".webp")
_UI_DUMP = (".xml",)


def needs_ocr(rule: Path, trace: Path) -> bool:
    """Whether verifying ``trace`` against ``rule`` will most likely run OCR (see the module docstring)."""
    try:
        with open(rule, "rb") as fh:
            text = fh.read(RULE_READ_LIMIT)
        entries = list(os.scandir(trace)) if os.path.isdir(trace) else []
    except OSError:
        return False  # the loader reports the unreadable file
    if not _OCR_WORD.search(text):
        return False
    suffixes = {os.path.splitext(e.name)[1].lower() for e in entries if e.is_file()}
    return any(s in suffixes for s in _SCREENSHOT) and not any(s in suffixes for s in _UI_DUMP)


def prefetch_ocr(rule: Path, trace: Path, engine: str) -> bool:
    """Start loading ``engine``'s models in the background when ``needs_ocr``; whether it was started."""
    if not needs_ocr(rule, trace):
        return False
    from droidpilot.perception import preload

    return preload.start(engine)
