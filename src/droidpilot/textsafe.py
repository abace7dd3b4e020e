"""Untrusted text made safe for a terminal: escape sequences, control and bidi characters removed.

Model replies, instructions, screen text and rule files can carry ``\\x1b]0;TITLE\\x07`` (sets the window
title), ``\\x1b[2J`` (clears the screen) or a bare carriage return that overwrites a line. Everything the
CLI prints from such sources goes through ``printable`` first (Rich markup is escaped separately).
Bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) are removed too: they make a terminal
show text in another order than it is (``evil\u202etxt.exe`` reads as ``evilexe.txt``); so are the line
and paragraph separators U+2028/U+2029, which some terminals break lines on.
"""

from __future__ import annotations

import re

# Whole sequences first (CSI, OSC / DCS / APC / PM / SOS strings, two-character escapes), so their
# parameters do not survive as stray text; then any control character left (C0 but tab and newline,
# DEL, C1).
_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"           # CSI ... final byte
    r"|\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC/DCS/SOS/PM/APC ... BEL or ST
    r"|\x9b[0-?]*[ -/]*[@-~]?"            # 8-bit CSI
    r"|[\x90\x98\x9d-\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # 8-bit string introducers
    r"|\x1b[ -~]?"                        # ESC and one more character (ESC 7, ESC c, ...)
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# What ``json_safe`` writes as \uXXXX: the characters above but tab and newline, which ``json.dumps``
# escapes inside strings itself and uses raw only as layout between values.
_UNSAFE_IN_JSON = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def printable(text: object, *, newlines: bool = True) -> str:
    """``str(text)`` without terminal escape sequences or control characters (tab kept; newlines kept
    unless ``newlines`` is False, when they become spaces)."""
    cleaned = _CONTROL.sub("", _SEQUENCE.sub("", str(text)))
    return cleaned if newlines else cleaned.replace("\n", " ")


def json_safe(document: str) -> str:
    """A JSON text (from ``json.dumps(..., ensure_ascii=False)``) with every control and bidi character
    written as a ``\\uXXXX`` escape: the same data, and nothing a terminal would act on."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", document)
