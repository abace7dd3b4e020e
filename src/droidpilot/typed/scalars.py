"""Reading one typed value out of text: counts, numbers, money, times, dates, durations, phone numbers.

Each reader returns every value of its type that the text states, in canonical form (a number, minutes
since midnight, (month, day, year), seconds, a digit string), so two spellings of one value compare
equal and a different value does not. Tokens of one type are masked before the next reads the text, so
the "7" of "7:30" is never read as a count and the "21" of "Nov 21" never as money.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

MONTHS = {
    m: i + 1
    for i, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
            ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
            ("oct", "october"), ("nov", "november"), ("dec", "december"),
        )
    )
    for m in names
}
NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        (
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
            "nineteen", "twenty",
        )
    )
} | {"no": 0, "none": 0, "零": 0, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
     "七": 7, "八": 8, "九": 9, "十": 10}

_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_AMPM = r"(?:\s*([ap])\.?\s*m\b\.?|\s*(上午|下午|早上|晚上))"
# 13:00, 8:15, 8:15 PM, 1 PM, 1pm, 13h00, 下午1:00
TIME_RE = re.compile(
    rf"(?<![\d:.,])(?:(上午|下午|早上|晚上)\s*)?(\d{{1,2}})(?:[:：h](\d{{2}}))?(?::\d{{2}})?{_AMPM}?(?![\d:])",
    re.IGNORECASE,
)
DATE_RES = (
    re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)"),  # 2026-11-21
    re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?(?!\d)", re.I),  # Nov 21
    re.compile(  # 21 Nov, 21st of November 2026
        rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b\.?(?:,?\s+(\d{{4}}))?", re.I
    ),
    re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])"),  # 11/21, 11/21/2026
    re.compile(r"(?<!\d)(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]"),  # 11月21日
)
PHONE_RE = re.compile(r"(?<![\w])(?:\+?\d[\d\s().\-]{6,}\d)(?![\w])")
# 1,204.10 / 1204.10 / -54.20 / .5 ; a comma group needs three digits after it
NUMBER_RE = re.compile(r"(?<![\w.])([-−]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![\w]|\.\d)")
CURRENCY = r"(?:[$€£¥￥]|usd|eur|gbp|rmb|cny|dollars?|euros?|pounds?|yuan|元|块)"
DURATION_UNITS = {
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "小时": 3600,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "分钟": 60, "分": 60,
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "秒": 1,
}
_UNITS_RE = "|".join(sorted(map(re.escape, DURATION_UNITS), key=len, reverse=True))
_DUR_PART = re.compile(
    r"(\d+(?:\.\d+)?)\s*(" + _UNITS_RE + r")(?![a-z])",
    re.IGNORECASE,
)
_CLOCK_DURATION = re.compile(r"(?<![\d:])(\d{1,3}):(\d{2})(?::(\d{2}))?(?![\d:])")


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by spaces (so later readers skip it, offsets kept)."""
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def _decimal(digits: str, sign: str = "") -> Decimal | None:
    try:
        value = Decimal(digits.replace(",", ""))
    except InvalidOperation:
        return None
    return -value if sign in ("-", "−") else value


_ZH_MARKERS = {"上午": "a", "早上": "a", "下午": "p", "晚上": "p"}


def read_times(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """(minutes since midnight of every time stated, their spans). A bare number is a time only with
    AM/PM ("1 PM"); "8:15" is 08:15, "8:15 PM" 20:15; 24:00, 7:60 and 13 PM are no time."""
    found, spans = [], []
    for m in TIME_RE.finditer(text):
        pre, hour_s, minute_s, ap, zh = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)
        marker = (ap or "").lower() or _ZH_MARKERS.get(pre or zh or "", "")
        if minute_s is None and not marker:
            continue
        hour, minute = int(hour_s), int(minute_s or 0)
        if minute > 59:
            continue
        if marker:
            if not 1 <= hour <= 12:
                if hour == 0 or (hour > 12 and (pre or zh)):  # 下午13:00 is read as 13:00
                    if hour > 23:
                        continue
                else:
                    continue
            if hour <= 12:
                hour = hour % 12 + (12 if marker == "p" else 0)
        if hour > 23:
            continue
        found.append(hour * 60 + minute)
        spans.append(m.span())
    return found, spans


def read_dates(text: str) -> tuple[list[tuple[int, int, int | None]], list[tuple[int, int]]]:
    """((month, day, year or None) of every date stated, their spans); "11/21" is month/day, "21/11"
    (first part above 12) day/month."""
    found: list[tuple[int, int, int | None]] = []
    spans: list[tuple[int, int]] = []
    work = text
    for i, pattern in enumerate(DATE_RES):
        for m in pattern.finditer(work):
            g = m.groups()
            year: int | None
            if i == 0:
                year, month, day = int(g[0]), int(g[1]), int(g[2])
            elif i == 1:
                month, day, year = MONTHS[g[0].lower()], int(g[1]), int(g[2]) if g[2] else None
            elif i == 2:
                day, month, year = int(g[0]), MONTHS[g[1].lower()], int(g[2]) if g[2] else None
            elif i == 3:
                a, b = int(g[0]), int(g[1])
                month, day = (b, a) if a > 12 >= b else (a, b)
                year = None if not g[2] else int(g[2]) + (2000 if len(g[2]) == 2 else 0)
            else:
                year, month, day = (int(g[0]) if g[0] else None), int(g[1]), int(g[2])
            if 1 <= month <= 12 and 1 <= day <= 31:
                found.append((month, day, year))
                spans.append(m.span())
        work = _mask(work, spans)
    return found, spans


def read_phones(text: str) -> tuple[list[str], list[tuple[int, int]]]:
    """(digits of every phone number stated, their spans): 7 to 15 digits, punctuation ignored; a
    leading country code 1 of an 11-digit number is dropped (+1 555 392 7824 is 5553927824)."""
    found, spans = [], []
    for m in PHONE_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if not 7 <= len(digits) <= 15:
            continue
        if len(digits) == 11 and digits.startswith("1"):
            digits = digits[1:]
        found.append(digits)
        spans.append(m.span())
    return found, spans


def read_durations(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """(seconds of every duration stated, their spans): "1 h 30 min", "90 minutes", "3:25" (m:ss),
    "1:02:03" (h:mm:ss). Adjacent unit parts add up to one duration."""
    found: list[int] = []
    spans: list[tuple[int, int]] = []
    parts = list(_DUR_PART.finditer(text))
    i = 0
    while i < len(parts):
        total = Decimal(parts[i].group(1)) * DURATION_UNITS[parts[i].group(2).lower()]
        start, end = parts[i].span()
        while i + 1 < len(parts) and re.fullmatch(r"[\s,]*(?:and\s*)?", text[end : parts[i + 1].start()]):
            i += 1
            total += Decimal(parts[i].group(1)) * DURATION_UNITS[parts[i].group(2).lower()]
            end = parts[i].end()
        found.append(int(total))
        spans.append((start, end))
        i += 1
    rest = _mask(text, spans)
    for m in _CLOCK_DURATION.finditer(rest):
        a, b, c = int(m.group(1)), int(m.group(2)), m.group(3)
        if b > 59 or (c is not None and int(c) > 59):
            continue
        found.append(a * 3600 + b * 60 + int(c) if c is not None else a * 60 + b)
        spans.append(m.span())
    return found, spans


def read_numbers(text: str, *, money: bool = False) -> list[Decimal]:
    """Every number stated, times / dates / phone numbers masked out first. With ``money``, amounts
    marked with a currency are all that count when there are any, and a sign is ignored (a payment shown
    as -$54.20 is $54.20 paid)."""
    _, t_spans = read_times(text)
    _, d_spans = read_dates(text)
    _, p_spans = read_phones(text)
    rest = _mask(text, t_spans + d_spans + p_spans)
    values: list[Decimal] = []
    marked: list[Decimal] = []
    for m in NUMBER_RE.finditer(rest):
        value = _decimal(m.group(2), m.group(1))
        if value is None:
            continue
        values.append(value)
        before, after = rest[max(0, m.start() - 5) : m.start()], rest[m.end() : m.end() + 9]
        if re.search(CURRENCY + r"\s*[-−]?\s*$", before, re.I) or re.match(r"\s*" + CURRENCY, after, re.I):
            marked.append(value)
    if not money:
        for word in re.findall(r"[a-z]+|[零一两二三四五六七八九十]", rest.lower()):
            if word in NUMBER_WORDS and word not in ("no", "none"):
                values.append(Decimal(NUMBER_WORDS[word]))
        return values
    return [abs(v) for v in (marked or values)]


def read_counts(text: str) -> list[int]:
    """Every whole number stated (digits or a number word up to twenty; "no alarms" is 0); a decimal
    such as 6.5 is not a count and is returned as -1 so it still counts as a (wrong) candidate."""
    out = []
    for value in read_numbers(text):
        out.append(int(value) if value == value.to_integral_value() and value >= 0 else -1)
    if not out and re.search(r"\b(no|none|zero)\b|没有", text.lower()):
        out.append(0)
    return out


__all__ = [
    "MONTHS",
    "read_counts",
    "read_dates",
    "read_durations",
    "read_numbers",
    "read_phones",
    "read_times",
]
