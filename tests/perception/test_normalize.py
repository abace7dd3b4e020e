"""Normalisation and matching: what compares equal, what must not, and the fuzzy thresholds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from droidpilot.perception.match import fuzzy_threshold, match_text, similarity
from droidpilot.perception.normalize import (
    compact,
    fold_confusions,
    match_key,
    normalize_text,
    repair_gbk_mojibake,
)


@pytest.mark.parametrize(("raw", "expected"), [
    ("Ｗｉ－Ｆｉ", "wi-fi"),  # full-width letters and dash
    ("ＡＢＣ１２３", "abc123"),
    ("设置\u3000网络", "设置 网络"),  # ideographic space
    ("Straße", "strasse"),  # case folding, not just lower()
    ("Sign\u2013in \u2014 now", "sign-in - now"),
    ("\u201cQuoted\u201d \u2018text\u2019", "\"quoted\" 'text'"),
    ("  many \t\n spaces  ", "many spaces"),
    ("zero\u200bwidth", "zerowidth"),
    ("确定。取消、返回【首页】", "确定.取消,返回[首页]"),
])
def test_normalize_unifies_width_case_dashes_quotes_and_space(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), [
    ("1O:3O", "10:30"),  # letters misread inside a number
    ("l00%", "100%"),
    ("Inb0x", "inbox"),  # a digit misread inside a word
    ("0pen", "open"),
    ("lnbox", "inbox"),  # capital I read as l
    ("lmport", "import"),
    ("Ca|endar", "calendar"),
])
def test_common_ocr_confusions_are_undone(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize("safe", ["win10", "a1", "4g", "3.14", "2024", "apple", "lily", "llama", "hello",
                                  "mp3", "v2", "log in", "ok", "100"])
def test_confusion_folding_leaves_ordinary_words_and_numbers_alone(safe: str) -> None:
    assert fold_confusions(safe) == safe


def test_case_is_kept_when_asked() -> None:
    assert normalize_text("Settings", casefold=False) == "Settings"
    assert match_key("Wi Fi") == "wifi"
    assert compact(" a b\tc ") == "abc"


@given(st.text(max_size=40))
def test_normalisation_is_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once


def test_exact_match_beats_containment_and_fuzzy() -> None:
    assert match_text("Display", "DISPLAY").kind == "exact"
    contained = match_text("Display", "Display, interaction, audio")
    assert contained.kind == "contains" and contained.score < 1.0
    assert contained.span[0] == 0.0 and contained.span[1] < 0.5


def test_containment_respects_word_boundaries_but_not_in_cjk() -> None:
    assert match_text("app", "Happy hour") is None
    assert match_text("Apps", "Recent apps, default apps").kind == "contains"
    assert match_text("网络", "网络和互联网").kind == "contains"


def test_fuzzy_match_tolerates_a_misread_in_a_long_word_only() -> None:
    assert match_text("Notifications", "Notificatlons").kind == "fuzzy"
    assert match_text("Settings", "Setings").kind == "fuzzy"
    assert match_text("Map", "Mop") is None  # three letters: exact only
    assert match_text("OK", "0K") is None  # two characters: exact only, and too short to fold safely


def test_a_line_missing_whole_words_is_not_a_fuzzy_match() -> None:
    # Misread characters are forgiven; missing or extra words are not (the verifier must not credit
    # "Comments" for "Add comment", nor a place page for "Navigating to ...").
    assert match_text("Add comment", "Comments") is None
    assert match_text("Navigating to Shell Gas Station", "Shell Gas Station") is None
    assert match_text("Airplane mode", "Airplane rnode").kind == "fuzzy"


def test_a_short_line_never_matches_inside_a_long_query() -> None:
    for line in ("A", "a", "Add", "account"):
        assert match_text("Add account to continue", line) is None
    assert similarity("Add account", "") == 0.0


def test_fuzzy_threshold_rises_as_the_query_gets_shorter() -> None:
    assert fuzzy_threshold(1) is None and fuzzy_threshold(2) is None
    values = [fuzzy_threshold(n) for n in (3, 5, 10, 30)]
    assert values == sorted(values, reverse=True)


# -- UTF-8 read as GBK (Mobile-Agent's saved replies: "Taylor鈥檚 Version") ---------------------------

def test_utf8_read_as_gbk_is_decoded_back() -> None:
    assert normalize_text("Best of 2023 (Taylor鈥檚 Version)") == "best of 2023 (taylor's version)"
    assert repair_gbk_mojibake("Taylor鈥檚") == "Taylor\u2019s"
    assert repair_gbk_mojibake("Don鈥檛 stop") == "Don\u2019t stop"
    # A character whose bytes were lost on the way cannot be decoded back: the text is left as it is.
    assert repair_gbk_mojibake("stop 鈥\ufffd now") == "stop 鈥\ufffd now"


@pytest.mark.parametrize("text", ["设置", "蓝牙和设备", "打开设置 Settings", "微信支付", "Wi-Fi 设置",
                                  "Taylor’s", "naïve café", "全"])
def test_real_text_is_never_taken_for_mojibake(text: str) -> None:
    assert repair_gbk_mojibake(text) == text


def test_chinese_text_is_left_alone() -> None:
    """Every GB2312 hanzi followed by a sample of them (all pairs were checked once: none changes)."""
    hanzi = [bytes([a, b]).decode("gbk") for a in range(0xB0, 0xF8) for b in range(0xA1, 0xFF)
             if not (a == 0xD7 and b > 0xF9)]
    assert len(hanzi) == 6763
    assert all(repair_gbk_mojibake(a + b) == a + b for a in hanzi for b in hanzi[::97])


# -- labels cut short with an ellipsis ----------------------------------------------------------------

@pytest.mark.parametrize(("query", "line"), [
    ("Best of 2023 (Taylor's Version)", "Best of 2023 (Tay..."),
    ("Best of 2023 (Taylor’s Version)", "Best of 2023 (Tay…"),
    ("best of 2023 (taylor's version)", "Best of 2023 (Tay ..."),
    ("Small minimum order ...", "Small minimum order brand quality customized"),  # the query cut short
])
def test_a_label_cut_short_matches_the_whole_text_it_begins(query: str, line: str) -> None:
    m = match_text(query, line)
    assert m is not None and m.kind == "fuzzy" and 0.85 <= m.score < 0.95


@pytest.mark.parametrize(("query", "line"), [
    ("Best of 2023 (Taylor's Version)", "Best..."),  # too little shown to tell
    ("Best of 2023 (Taylor's Version)", "Top of 2023 (Tay..."),  # begins differently
    ("Settings", "Set..."),
    ("Best of 2023 (Taylor's Version)", "Best of 2023 (Taylor's Version) and more..."),  # not a prefix cut
    ("Best of 2023 (Tay...", "Best of 2023 (Tay..."),  # both cut: compared as they are (exact)
])
def test_near_misses_of_a_cut_short_label_do_not_match_as_cut(query: str, line: str) -> None:
    m = match_text(query, line)
    assert m is None or m.kind != "fuzzy" or m.score != 0.9
