"""Patterns people write run with a deadline: an evil one times out, legal ones judge as re does."""

from __future__ import annotations

import re

import pytest

from droidpilot import regexguard
from droidpilot.regexguard import GuardedPattern, PatternTimeout, guarded

EVIL_TEXT = "a" * 40 + "!"


@pytest.mark.parametrize("pattern", [r"(a|aa)+$", r"(a|a)+$", r"^(a|aa)+$"])
def test_an_evil_pattern_times_out_and_says_how_to_fix_it(pattern: str) -> None:
    rx = GuardedPattern(pattern, seconds=0.05)
    with pytest.raises(PatternTimeout) as info:
        rx.search(EVIL_TEXT)
    message = str(info.value)
    assert repr(pattern) in message and "timed out after 0.05 s on 41 characters" in message
    assert "rewrite it" in message and "(a+)+" in message
    assert info.value.pattern == pattern and info.value.text_length == 41


def test_after_a_timeout_a_pattern_gets_a_shorter_budget() -> None:
    rx = GuardedPattern(r"(a|aa)+$", seconds=0.3)
    with pytest.raises(PatternTimeout):
        rx.fullmatch(EVIL_TEXT)
    with pytest.raises(PatternTimeout) as again:
        rx.findall_matches(EVIL_TEXT)
    assert again.value.seconds == regexguard.AFTER_TIMEOUT_SECONDS
    assert rx.search("aaa") is not None  # still judges texts it is quick on


def test_the_classic_nested_repeat_is_answered_not_hung() -> None:
    """(a+)+$ against 30 'a's and a 'b' runs for minutes under re; here it is answered: no match."""
    assert guarded(r"(a+)+$").search("a" * 30 + "b") is None
    found = guarded(r"(a+)+$").search("a" * 30 + "ba")
    assert found is not None and found.span() == (31, 32)


def test_a_slow_but_legal_pattern_still_judges() -> None:
    """A long alternation (500 words) is slow to try but not catastrophic: it answers like re."""
    words = [f"word{k}x" for k in range(500)]
    pattern = r"\b(?:" + "|".join(words) + r")\b"
    text = " ".join(["filler"] * 2000 + ["word499x"])
    found = guarded(pattern).search(text)
    assert found is not None and found.group(0) == "word499x"
    assert guarded(pattern).search(text.replace("word499x", "word499y")) is None


CASES = [  # (pattern, flags, texts): each is searched, matched whole and iterated as re does
    (r"click\((.+?)\)", 0, ["Action: click(搜索) then click(OK)", "no click here"]),
    (r"(购物车|cart)", re.IGNORECASE, ["加入购物车", "Add to CART", "card"]),
    (r"Total:\s*\$?(\d+(?:\.\d\d)?)", 0, ["Total: $12.50", "Total:12", "Totals"]),
    (r"^line\d$", re.MULTILINE, ["x\nline1\nline2", "line"]),
    (r"a.b", re.DOTALL, ["a\nb", "ab"]),
    (r"\w+", re.ASCII, ["naïve café", "日本"]),
    (r"\w+", 0, ["naïve café", "日本"]),
    (r"(?i)straße", 0, ["STRASSE", "Straße"]),
    (r"x*", 0, ["axxb", ""]),
    (r"(?P<n>\d+)-(?P=n)", 0, ["12-12", "12-13"]),
    (r"(?<=\$)\d+", 0, ["cost $45", "45"]),
]


@pytest.mark.parametrize(("pattern", "flags", "texts"), CASES)
def test_ordinary_patterns_answer_exactly_as_re(pattern: str, flags: int, texts: list[str]) -> None:
    ours, theirs = guarded(pattern, flags), re.compile(pattern, flags)
    assert ours.groups == theirs.groups
    for text in texts:
        a, b = ours.search(text), theirs.search(text)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))
        a, b = ours.fullmatch(text), theirs.fullmatch(text)
        assert (a and a.span()) == (b and b.span())
        assert [m.span() for m in ours.findall_matches(text)] == [m.span() for m in theirs.finditer(text)]


@pytest.mark.parametrize("pattern", ["a(b", r"\p{L}+", "a(?i)b", "*a"])
def test_what_re_rejects_is_rejected_with_re_s_message(pattern: str) -> None:
    """Near miss: the regex package accepts \\p{L} and a flag mid-pattern; the rules are Python re, so no."""
    with pytest.raises(re.error) as ours:
        guarded(pattern)
    with pytest.raises(re.error) as theirs:
        re.compile(pattern)
    assert str(ours.value) == str(theirs.value)


def test_the_regex_package_loads_only_when_a_pattern_is_compiled() -> None:
    # A cold verify whose rule runs no pattern imports the checkers but never compiles one: it should not
    # pay for the regex package's import.
    import subprocess
    import sys

    probe = ("import sys, droidpilot.verify.engine, droidpilot.verify.checkers.ocr; "
             "before = 'regex' in sys.modules; "
             "from droidpilot.regexguard import GuardedPattern; "
             "found = GuardedPattern('(?i)sent$').search('Mail SENT'); "
             "print(before, 'regex' in sys.modules, found.group(0))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "SENT"]
