"""The ``ocr_match`` checker: keywords and patterns read off the frame's screenshot by OCR.

Text comes from ``options.ocr_engine`` (an OcrEngine or its name, run behind the persistent cache, lines
kept on the frame so other screen checkers reuse them), else from a MobiFlow-style ``options.ocr(frame)``;
with neither, or without a screenshot, the check is undecided, never "no". Keywords match after the
shared normalisation (full-width, case, dashes, OCR confusions) as substrings of a line or of the whole
screen's text; keywords of 3 characters or more also match fuzzily (a misread character or two), unless
``ignore_case: false`` asks for exact, case-sensitive matching. With ``whole_numbers`` the numbers of a
keyword must be read exactly and stand whole ("Amount $181" is not on "Amount $1810", even fuzzily). A
typed ``value`` must be stated by some OCR line, read on its own (also with OCR confusions folded:
"1O:3O" is 10:30), as a whole token (see ``typed.screen``).
"""

from __future__ import annotations

import re
import threading
import unicodedata
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.errors import DroidpilotError
from droidpilot.perception.cache import CachedOcr, cached
from droidpilot.perception.match import match_text
from droidpilot.perception.normalize import match_key, normalize_text
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.perception.reading import Enough, OcrReading, start_reading
from droidpilot.perception.types import OcrLine
from droidpilot.regexguard import PatternTimeout, guarded
from droidpilot.verify.checkers._exact import EXACT_PARAM, exact_problems, missing_exact
from droidpilot.verify.checkers._keywords import contains_whole
from droidpilot.verify.checkers._patterns import timed_out
from droidpilot.verify.checkers._typed import (
    VALUE_PARAM,
    WHOLE_NUMBERS_PARAM,
    screen_shows,
    value_problems,
    value_specs,
)
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Param, Verdict, register_condition

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions

OCR_LINES_KEY = "_ocr_lines"  # frame.extra: {engine settings key: list[OcrLine]}, once read to the end
OCR_READING_KEY = "_ocr_reading"  # frame.extra: {engine settings key: OcrReading}
_WRAPPED: weakref.WeakKeyDictionary[Any, CachedOcr] = weakref.WeakKeyDictionary()


_BY_NAME: dict[str, Any] = {}


def resolve_engine(engine: Any) -> Any:
    """``options.ocr_engine`` as an engine: an engine object as is, a name ("rapidocr") made once."""
    if isinstance(engine, str):
        if engine not in _BY_NAME:
            _BY_NAME[engine] = make_ocr_engine(engine)
        return _BY_NAME[engine]
    return engine


def _cached_engine(engine: Any) -> Any:
    if isinstance(engine, CachedOcr):
        return engine
    try:
        wrapper = _WRAPPED.get(engine)
        if wrapper is None:
            wrapper = _WRAPPED[engine] = cached(engine)
        return wrapper
    except TypeError:  # an engine that cannot be weakly referenced: wrap it each time
        return cached(engine)


def _has_image(frame: Any) -> bool:
    has = getattr(frame, "has_image", None)
    return bool(has()) if callable(has) else False


def frame_ocr_reading(frame: Frame, options: VerifierOptions | None) -> OcrReading | None:
    """The OCR reading of ``frame``'s screenshot by ``options.ocr_engine`` (disk-cached), kept on the frame
    so every check of this screen continues it; None when there is no engine or no screenshot."""
    engine = resolve_engine(getattr(options, "ocr_engine", None) if options is not None else None)
    if engine is None or not _has_image(frame):
        return None
    readings = frame.extra.setdefault(OCR_READING_KEY, {})
    key = f"{engine.name}:{engine.settings_key()}"
    if key not in readings:
        reading = readings[key] = start_reading(_cached_engine(engine), frame.image_bytes())
        if not reading.done:
            _keep_open(readings, key, reading)

        def finished(lines: list[OcrLine]) -> None:
            frame.extra.setdefault(OCR_LINES_KEY, {})[key] = lines
            with _OPEN_LOCK:
                _OPEN.pop(id(reading), None)

        reading.when_done(finished)
    return readings[key]


# Unfinished readings hold their screenshot's pixels. At most MAX_OPEN stay open across all frames; an
# older one is dropped from its frame and started again if a check asks (recognised lines come back from
# the engine's line memory, so a restart costs detection only).
MAX_OPEN = 16
_OPEN: OrderedDict[int, tuple[dict[str, OcrReading], str, OcrReading]] = OrderedDict()
_OPEN_LOCK = threading.Lock()


def _keep_open(readings: dict[str, OcrReading], key: str, reading: OcrReading) -> None:
    with _OPEN_LOCK:
        _OPEN[id(reading)] = (readings, key, reading)
        while len(_OPEN) > MAX_OPEN:
            _, (owner, name, old) = _OPEN.popitem(last=False)
            if owner.get(name) is old and not old.done:
                del owner[name]


def frame_ocr_lines(frame: Frame, options: VerifierOptions | None) -> list[OcrLine] | None:
    """Every OCR line of ``frame``'s screenshot (see ``frame_ocr_reading``); None when there is no engine
    or no screenshot."""
    reading = frame_ocr_reading(frame, options)
    return None if reading is None else reading.finish()


def keyword_columns(key: str) -> int:
    """About how wide (columns at recognition height 48) a line holding ``key`` is at least: a wide
    character (CJK) takes some 28, another some 14 (the narrowest Latin lines on SimPhone's screens have
    14.7 per character, most 18-48). Used only to choose what to read first, never to skip a line."""
    return sum(28 if unicodedata.east_asian_width(ch) in "WF" else 14 for ch in key)


def early_yes(params: dict[str, Any]) -> tuple[Enough, int] | None:
    """For an ``any``/``all`` check, the test that already decides "yes" on part of a screen's lines (every
    ``all`` keyword and one ``any`` keyword inside a line, as ``find_keyword`` looks first) and how wide
    the lines to read first are: wide enough for the longest ``all`` keyword and the shortest ``any`` one
    (narrower lines, read afterwards, hold only shorter words). None when only the whole screen can
    decide (a pattern, or ``exact`` lines, which a line not yet read may hold)."""
    if params.get("pattern") or params.get("exact"):
        return None
    casefold = bool(params.get("ignore_case", True))
    all_keys = [match_key(k, casefold) for k in _as_list(params.get("all"))]
    any_keys = [match_key(k, casefold) for k in _as_list(params.get("any"))]
    specs = value_specs(params)
    if not all_keys + any_keys + specs or not all(all_keys + any_keys):
        return None
    within = contains_whole if params.get("whole_numbers") else (lambda k, t: k in t)

    def enough(lines: list[OcrLine]) -> bool:
        texts = [match_key(drop_cursor(line.text) if params.get("whole_numbers") else line.text, casefold)
                 for line in lines]
        return (all(any(within(k, t) for t in texts) for k in all_keys)
                and (not any_keys or any(within(k, t) for k in any_keys for t in texts))
                and (not specs or screen_shows(specs, typed_lines([ln.text for ln in lines])).ok))

    widest_all = max((keyword_columns(k) for k in all_keys), default=0)
    narrowest_any = min((keyword_columns(k) for k in any_keys), default=0)
    shortest_value = min((keyword_columns(_value_text(s)) for s in specs), default=0)
    return enough, max(widest_all, narrowest_any, shortest_value)


def _value_text(spec: Any) -> str:
    """The shortest way the spec's right value is written (to choose which lines to read first)."""
    if not isinstance(spec, dict):
        return ""
    for key in ("in", "between"):  # several right values, or a range's two ends
        if isinstance(spec.get(key), list):
            return min((str(w) for w in spec[key]), key=len, default="")
    return str(spec.get("equals", ""))


_CURSOR = re.compile(r"\|(?=\s|$)")


def drop_cursor(text: str) -> str:
    """``text`` without a text cursor read as ``|`` at the end of a token ("22.5|" in an edit field),
    which OCR confusion folding would read as a digit ("22.51")."""
    return _CURSOR.sub("", text)


def typed_lines(texts: list[str]) -> list[str]:
    """OCR lines as typed values are read from: each as read, and again without a text cursor and with
    OCR confusions folded ("1O:3O" -> "10:30") where that changes it."""
    out = list(texts)
    for text in texts:
        folded = normalize_text(drop_cursor(text), casefold=False, confusions=True)
        if folded != text:
            out.append(folded)
    return out


EXACT_WRAP = 4  # an ``exact`` text may wrap over this many OCR lines (a note's body, a message)
_END_CURSOR = re.compile(r"(?<=\S)[|\[\]!Il]$")


def _ocr_forms(text: str) -> list[str]:
    """Other readings of an OCR line (or a wanted text) for ``exact``: without a text cursor (read as
    "|", "]", "I" or "l" at the end of an edit field's text: "Dec 10]", "Museum meetingl"), with confusions
    folded ("O" for "0")."""
    bare = _END_CURSOR.sub("", drop_cursor(text))
    return [bare, normalize_text(bare, casefold=True, confusions=True)]


_NUMBERS = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers_whole(keyword: str, text: str) -> bool:
    """Does every number of ``keyword`` stand whole in ``text`` (both normalised)? For a fuzzy hit under
    ``whole_numbers``: the words may be misread a little, the numbers must not."""
    hay = normalize_text(drop_cursor(text))
    return all(contains_whole(n, hay) for n in _NUMBERS.findall(normalize_text(keyword)))


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def find_keyword(keyword: str, texts: list[str], casefold: bool = True,
                 whole_numbers: bool = False) -> dict[str, Any] | None:
    """Where ``keyword`` shows on the screen: the line (or "<screen>" when it spans lines), how, a score.
    With ``whole_numbers`` a number at either end of the keyword must stand whole, and a fuzzy hit must
    read every number of the keyword exactly."""
    key = match_key(keyword, casefold)
    if not key:
        return None
    within = contains_whole if whole_numbers else (lambda k, t: k in t)
    keyed = [match_key(drop_cursor(t) if whole_numbers else t, casefold) for t in texts]
    for text, hay in zip(texts, keyed, strict=True):
        if within(key, hay):
            return {"text": text, "how": "contains", "score": 1.0}
    whole = "".join(keyed)
    if within(key, whole):
        return {"text": "<screen>", "how": "across lines", "score": 1.0}
    if len(key) < 3 or not casefold:  # case-sensitive matching is exact: fuzzy would forgive the case
        return None
    best: dict[str, Any] | None = None
    for text in texts:
        m = match_text(keyword, text, casefold=casefold)
        if whole_numbers and m is not None and not _numbers_whole(keyword, text):
            continue
        if m is not None and m.kind == "fuzzy" and (best is None or m.score > best["score"]):
            best = {"text": text, "how": "fuzzy", "score": round(m.score, 3)}
    return best


@register_condition("ocr_match")
class OcrMatch(ConditionChecker):
    """Text on the screenshot by OCR: ``any`` (one keyword suffices), ``all`` (every one), ``pattern``
    (a regular expression), ``value`` (a typed value some line states), ``exact`` (texts each an entire
    line); every one given must hold. ``ignore_case`` defaults to true; ``whole_numbers`` keeps "181" from
    matching "1810"."""

    reads = "screen"
    cost = 60
    params_spec: ClassVar[dict[str, Param]] = {
        "any": Param("str_or_list", help="one of these keywords must be on screen"),
        "all": Param("str_or_list", help="every one of these keywords must be on screen"),
        "pattern": Param("str", help="a Python regular expression searched in the screen's text"),
        "ignore_case": Param("bool", help="compare case-insensitively (default true)"),
        "whole_numbers": WHOLE_NUMBERS_PARAM,
        "value": VALUE_PARAM,
        "exact": EXACT_PARAM,
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        problems = value_problems(params) + exact_problems(params, "ocr_match")
        if (not _as_list(params.get("any")) and not _as_list(params.get("all")) and not params.get("pattern")
                and "value" not in params and "exact" not in params):
            problems.append("ocr_match needs 'any', 'all', 'pattern', 'exact' or a typed 'value'")
        for name in ("any", "all"):
            if any(not w.strip() for w in _as_list(params.get(name))):
                problems.append(f"ocr_match: '{name}' contains an empty keyword, which matches every screen")
        pattern = params.get("pattern")
        if isinstance(pattern, str) and pattern:
            try:
                guarded(pattern)
            except re.error as exc:
                problems.append(f"ocr_match: invalid regular expression {pattern!r}: {exc}")
        return problems

    def _screen_text(self, frame: Frame, options: VerifierOptions | None, params: dict[str, Any]
                     ) -> tuple[list[str] | None, str, dict[str, Any]]:
        """(the screen's lines, where they came from, how much was read); lines None with the reason when
        there are none. An engine's lines are read only until the check is decided (see ``early_yes``)."""
        if not _has_image(frame):
            return None, "the frame has no screenshot", {}
        engine = resolve_engine(options.ocr_engine) if options is not None else None
        if engine is not None:
            reading = frame_ocr_reading(frame, options)
            if reading is None:
                return [], engine.name, {}
            early = early_yes(params)
            lines = reading.read_until(*early) if early else reading.finish()
            read = {} if reading.done else {"lines_read": reading.read, "lines_found": reading.total}
            return [ln.text for ln in lines], engine.name, read
        if options is not None and callable(options.ocr):
            text = options.ocr(frame)
            if text is None:
                return None, "options.ocr could not read the screen", {}
            return str(text).splitlines(), "options.ocr", {}
        return None, "no OCR engine configured (use --ocr rapidocr or tesseract)", {}

    def check(self, frame: Frame, params: dict[str, Any],
              options: VerifierOptions | None = None) -> CheckResult:
        problems = self.validate(params)
        if problems:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason="; ".join(problems))
        try:
            texts, source, read = self._screen_text(frame, options, params)
        except DroidpilotError as exc:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason=str(exc))
        if texts is None:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason=source)
        casefold = bool(params.get("ignore_case", True))
        any_of, all_of = _as_list(params.get("any")), _as_list(params.get("all"))
        matched: dict[str, Any] = {}
        whole_numbers = bool(params.get("whole_numbers"))
        for kw in dict.fromkeys(all_of + any_of):
            hit = find_keyword(kw, texts, casefold, whole_numbers)
            if hit is not None:
                matched[kw] = hit
        unmatched = [kw for kw in dict.fromkeys(all_of + any_of) if kw not in matched]
        details: dict[str, Any] = {"source": source, "lines": len(texts), **read, "matched": matched,
                                   "unmatched": unmatched}
        failures = []
        missing_all = [kw for kw in all_of if kw not in matched]
        if missing_all:
            failures.append(f"missing {missing_all} (all required)")
        if any_of and not any(kw in matched for kw in any_of):
            failures.append(f"none of {any_of} on screen")
        pattern = params.get("pattern")
        if pattern:
            flags = re.IGNORECASE if casefold else 0
            raw = "\n".join(texts)
            norm = "\n".join(normalize_text(t, casefold=False, confusions=False) for t in texts)
            try:
                rx = guarded(pattern, flags)
                found = rx.search(raw) or rx.search(norm)
            except PatternTimeout as exc:
                return timed_out(self.name, self.reads, exc)
            details["pattern"] = {"pattern": pattern, "match": found.group(0) if found else None}
            if not found:
                failures.append(f"pattern {pattern!r} not found")
        specs = value_specs(params)
        typed = screen_shows(specs, typed_lines(texts)) if specs else None
        if typed is not None:
            details["value"] = typed.details
            if not typed.ok:
                failures.append(typed.reason)
        exact = _as_list(params.get("exact"))
        if exact:
            missing = missing_exact(exact, texts, _ocr_forms, span=EXACT_WRAP)
            details["exact_missing"] = missing
            if missing:
                failures.append(f"no line reads exactly {missing}")
        if failures:
            return CheckResult(Verdict.NO, self.name, self.reads, reason="; ".join(failures), details=details)
        said = ([f"{kw!r}" for kw in matched] + ([f"pattern {pattern!r}"] if pattern else [])
                + ([typed.reason] if typed is not None else []) + [f"whole line {t!r}" for t in exact])
        return CheckResult(Verdict.YES, self.name, self.reads, reason="on screen: " + ", ".join(said),
                           details=details)
