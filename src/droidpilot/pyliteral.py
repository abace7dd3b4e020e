"""Python literals read from untrusted text (a model's reply, a selector typed in the studio) without
the invalid-escape warning Python gives for a backslash that starts no escape."""

from __future__ import annotations

# What follows a backslash in a Python string literal to make an escape; any other character after a
# backslash is kept as written, and Python warns about it (DeprecationWarning, SyntaxWarning from 3.12).
_STR_ESCAPES = frozenset("\n\r\\'\"abfnrtv01234567xNuU")
_BYTES_ESCAPES = _STR_ESCAPES - {"N", "u", "U"}


def _prefix(before: str) -> str:
    """The string prefix (r, b, rb...) at the end of ``before``, the text up to an opening quote, lowered."""
    letters = ""
    for ch in reversed(before):
        if not ch.isalpha():
            break
        letters = ch.lower() + letters
    return letters


def plain_escapes(literal: str) -> str:
    """``literal`` with each backslash that starts no escape doubled: the value Python reads is the same
    (such a backslash stays as written) but compiling it warns nothing. A model's text such as 'C:\\Files'
    otherwise made every parse print a warning, or fail where warnings are errors. Raw strings are kept."""
    out: list[str] = []
    quote, escapes, i = "", _STR_ESCAPES, 0
    while i < len(literal):
        ch = literal[i]
        if quote:
            if ch == "\\" and i + 1 < len(literal):
                nxt = literal[i + 1]
                out.append(ch if escapes is None or nxt in escapes else "\\\\")
                out.append(nxt)
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            prefix = _prefix("".join(out[-2:]))
            escapes = None if "r" in prefix else _BYTES_ESCAPES if "b" in prefix else _STR_ESCAPES
        out.append(ch)
        i += 1
    return "".join(out)
