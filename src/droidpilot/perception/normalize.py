"""Text normalisation for matching screen text, in one place so every matcher agrees.

What ``normalize_text`` does, in order:

0. UTF-8 text that was read as GBK somewhere on its way (``Taylor鈥檚 Version`` for ``Taylor’s Version``,
   as Mobile-Agent's own saved replies have it) is decoded back, but only when the whole text round-trips,
   gives back general punctuation (quotes, dashes, the ellipsis) and no other non-ASCII character than
   Latin-1, which no pair of common hanzi does (tests/perception/test_normalize.py tries them all).
1. NFKC: full-width letters, digits and punctuation become half-width (``Ｗｉ－Ｆｉ`` -> ``Wi-Fi``),
   the ideographic space becomes a space, ligatures and compatibility forms are split.
2. Zero-width characters and soft hyphens are removed.
3. Dashes and minus signs become ``-``; curly and prime quotes become ``'`` or ``"``; CJK full stop and
   enumeration comma become ``.`` and ``,``; CJK brackets become ASCII ones.
4. Runs of whitespace become one space; leading and trailing space is dropped.
5. Case folding (optional, on by default): ``Straße`` and ``STRASSE`` compare equal.
6. Common OCR confusions (optional, on by default), applied only where they are safe:
   - ``|`` is read for ``l`` or ``I``: it becomes ``l`` inside a word.
   - in a token made of digits plus ``o``/``l``/``i`` (``1O:3O``, ``l00%``), those letters become
     ``0``/``1`` — a number misread, never a word (a token needs at least one real digit);
   - in a word, a ``0``/``1`` between two letters or starting the word before two letters (``Inb0x``,
     ``0pen``) becomes ``o``/``l``; trailing digits stay (``win10``, ``A1``, ``4G`` are untouched);
   - a word that starts with ``l`` followed by a consonant that cannot follow a leading ``l`` in
     English (``lnbox``, ``lmport``) starts with ``i`` instead: the capital ``I`` read as ``l``.
   These folds are applied to both sides of a comparison; matchers still try exact text first.
"""

from __future__ import annotations

import re
import unicodedata

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_TRANSLATE = str.maketrans({
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2e3a\u2e3b\ufe58\ufe63\uff0d", "-"),
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u0060\u00b4", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb", '"'),
    "\u3002": ".", "\u3001": ",", "\uff61": ".", "\uff64": ",",
    "\u3010": "[", "\u3011": "]", "\u300a": "<", "\u300b": ">", "\u3008": "<", "\u3009": ">",
    "\u300c": '"', "\u300d": '"', "\u300e": '"', "\u300f": '"',
})
_SPACE_RE = re.compile(r"\s+")
_TOKEN_RE = re.compile(r"[0-9A-Za-z|]+")
_DIGITISH = str.maketrans({"o": "0", "O": "0", "l": "1", "i": "1", "I": "1", "|": "1"})
_LETTERISH = str.maketrans({"0": "o", "1": "l"})
# A 0 or 1 between two letters, or starting a word before two letters: a misread o or l.
_INNER_DIGIT_RE = re.compile(r"(?<=[^\W\d_])[01](?=[^\W\d_])|^[01](?=[^\W\d_]{2})")
# Consonants that do not follow a word-initial "l" in English: "l" + one of these is a misread "I".
_NOT_AFTER_L = set("bcdfghjkmnpqrstvwxz")


# What UTF-8 read as GBK decodes back to: Latin-1 letters and general punctuation (quotes, dashes, ...).
_MOJIBAKE_RESULT = re.compile(r"[\x00-\xff\u2000-\u206f]*")
_PUNCTUATION = re.compile(r"[\u2000-\u206f]")  # ... at least one of them (pairs of hanzi can give Latin-1)


def repair_gbk_mojibake(text: str) -> str:
    """``text`` with UTF-8 read as GBK undone (``鈥檚`` -> ``’s``); unchanged unless that is certain."""
    if text.isascii():
        return text
    try:
        repaired = text.encode("gbk").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text
    if repaired == text or not _MOJIBAKE_RESULT.fullmatch(repaired) or not _PUNCTUATION.search(repaired):
        return text
    return repaired


def _fold_token(token: str) -> str:
    digits = sum(ch.isdigit() for ch in token)
    letters = sum(ch.isalpha() for ch in token)
    if digits and set(token.lower()) <= set("0123456789oli|"):
        return token.translate(_DIGITISH)  # a number with letters misread in it
    token = token.replace("|", "l")
    if letters >= 2 and digits:
        token = _INNER_DIGIT_RE.sub(lambda m: m.group(0).translate(_LETTERISH), token)
    if len(token) >= 3 and token[0] == "l" and token[1] in _NOT_AFTER_L:
        token = "i" + token[1:]
    return token


def fold_confusions(text: str) -> str:
    """Undo the common OCR confusions listed in the module docstring (expects case-folded text)."""
    return _TOKEN_RE.sub(lambda m: _fold_token(m.group(0)), text)


def normalize_text(text: str, casefold: bool = True, confusions: bool = True) -> str:
    """The canonical form of ``text`` for comparison (see the module docstring for every step)."""
    out = unicodedata.normalize("NFKC", repair_gbk_mojibake(text))
    out = out.translate(_ZERO_WIDTH).translate(_TRANSLATE)
    out = _SPACE_RE.sub(" ", out).strip()
    if casefold:
        out = out.casefold()
    if confusions:
        out = fold_confusions(out)
    return out


def compact(text: str) -> str:
    """``text`` without any whitespace: OCR adds and drops spaces (and never has them in CJK)."""
    return _SPACE_RE.sub("", text)


def match_key(text: str, casefold: bool = True) -> str:
    """Normalised and compacted: the form matchers compare."""
    return compact(normalize_text(text, casefold=casefold))


def is_cjk(ch: str) -> bool:
    """Is ``ch`` a CJK ideograph, kana or hangul (written without spaces between words)?"""
    code = ord(ch)
    return (0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF
            or 0x20000 <= code <= 0x2FA1F)
