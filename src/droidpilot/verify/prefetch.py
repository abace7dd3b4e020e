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
    """Whether verifying ``trace`` against ``rule`` will most likely run OCR (see the module docstring).

    Never raises: a file it cannot read (missing, a looping link, a NUL byte in its name) is a "no",
    and the loaders then report it."""
    try:
        with open(rule, "rb") as fh:
            text = fh.read(RULE_READ_LIMIT)
        if not _OCR_WORD.search(text) or not os.path.isdir(trace):
            return False
        suffixes = _file_suffixes(trace)
    except (OSError, ValueError):
        return False
    return any(s in suffixes for s in _SCREENSHOT) and not any(s in suffixes for s in _UI_DUMP)


def _file_suffixes(folder: Path) -> set[str]:
    """The lower-case suffixes of the regular files in ``folder``; entries that cannot be examined (a
    looping link, say) are skipped."""
    suffixes: set[str] = set()
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                if entry.is_file():
                    suffixes.add(os.path.splitext(entry.name)[1].lower())
            except OSError:
                continue
    return suffixes


def prefetch_ocr(rule: Path, trace: Path, engine: str) -> bool:
    """Start loading ``engine``'s models in the background when ``needs_ocr``; whether it was started."""
    if not needs_ocr(rule, trace):
        return False
    from droidpilot.perception import preload

    return preload.start(engine)
