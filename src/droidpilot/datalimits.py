"""Size and depth limits for the YAML and JSON people hand droidpilot (rules, traces, suite tasks).

A 1 KB YAML alias bomb expands to billions of values and 5,000 nested brackets overflow Python's stack;
both must be refused with a message before anything walks the data. The YAML check streams parser
events (no recursion, nothing expanded) and sums how large every alias would become; the JSON check
scans brackets outside strings. Each raises DataLimitError naming the line and the limit.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import yaml

from droidpilot import yamlfast
from droidpilot.errors import InputError

MAX_DEPTH = 100  # nested mappings/lists; real rules and traces use under 10
MAX_VALUES = 2_000_000  # values after expanding every YAML alias (a 10k-node rule has ~100k)
MAX_ALIASES = 10_000  # alias uses (``*name``) in one YAML document
MAX_DIGITS = 300  # digits of a number: up to here every number is a finite float (and prints quickly)

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}\n]")
_EventLoader = yamlfast.SafeLoader
# JSON numbers outside strings; scanned only when the text holds a long digit run or a 3-digit exponent.
_JSON_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_SUSPECT_NUMBER = re.compile(r"[0-9]{%s}|[eE][-+]?[0-9]{3}" % (MAX_DIGITS + 1,))  # noqa: UP031
# A plain YAML scalar that reads as a number (decimal, 0x/0o/0b, 1_000, 1.5e3, sexagesimal 1:30).
_YAML_NUMBER = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F_]+|0[oObB]?[0-7_]+"
                          r"|[0-9][0-9_:]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?)")


class DataLimitError(InputError):
    """The document is nested too deeply or expands to too much data; ``line`` is 1-based if known."""

    def __init__(self, message: str, line: int | None = None, *, number: bool = False) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line
        self.bare = message
        self.number = number  # a number too long or too large, rather than a structure too big


def _too_long(digits: int, line: int | None) -> DataLimitError:
    return DataLimitError(f"a number with {digits:,} digits; numbers here have at most {MAX_DIGITS} "
                          "(quote it if it is text)", line, number=True)


def _too_deep(line: int | None) -> DataLimitError:
    return DataLimitError(f"nested more than {MAX_DEPTH} levels deep; flatten the structure "
                          "(droidpilot's files need only a few levels)", line)


def check_yaml(text: str) -> None:
    """Raise DataLimitError when ``text`` nests deeper than MAX_DEPTH or its aliases expand to more than
    MAX_VALUES values (or it uses more than MAX_ALIASES aliases). Syntax errors are left to the loader."""
    sizes: dict[str, int] = {}
    stack: list[list[Any]] = [[None, 0]]  # [anchor, expanded size] per open collection
    aliases = 0
    try:
        for event in yaml.parse(text, Loader=_EventLoader):
            line = event.start_mark.line + 1 if event.start_mark is not None else None
            if isinstance(event, yaml.CollectionStartEvent):
                if len(stack) > MAX_DEPTH:
                    raise _too_deep(line)
                stack.append([event.anchor, 1])
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                anchor, size = stack.pop()
            elif isinstance(event, yaml.ScalarEvent):
                anchor, size = event.anchor, 1
                value = event.value
                if len(value) > MAX_DIGITS and event.implicit[0] and _YAML_NUMBER.fullmatch(value):
                    raise _too_long(sum(c.isalnum() for c in value), line)
            elif isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise DataLimitError(f"more than {MAX_ALIASES} aliases (*name); write the data out", line)
                anchor, size = None, sizes.get(event.anchor or "", 1)
            else:
                continue
            if anchor is not None:
                sizes[anchor] = size
            stack[-1][1] += size
            if stack[-1][1] > MAX_VALUES:
                raise DataLimitError(f"expands to more than {MAX_VALUES:,} values (through YAML aliases "
                                     "such as *name?); remove the aliases or split the file", line)
    except yaml.YAMLError:
        return  # the loader reports syntax errors with its own, better message


def check_json(text: str) -> None:
    """Raise DataLimitError when the JSON ``text`` nests deeper than MAX_DEPTH or holds a number of more
    than MAX_DIGITS digits or beyond a float's range (``1e400``); strings are skipped."""
    bare = _STRING.sub(lambda m: "\n" * m.group().count("\n"), text)
    if _SUSPECT_NUMBER.search(bare):
        _check_json_numbers(bare)
    depth, line = 0, 1
    for match in _BRACKET.finditer(bare):
        char = match.group()
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(line)
        else:
            depth -= 1


def _check_json_numbers(bare: str) -> None:
    """Refuse numbers with more than MAX_DIGITS digits and those that overflow to infinity."""
    for match in _JSON_NUMBER.finditer(bare):
        number = match.group()
        digits = sum(c.isdigit() for c in re.split("[eE]", number)[0])
        if digits > MAX_DIGITS:
            raise _too_long(digits, bare.count("\n", 0, match.start()) + 1)
        if ("e" in number or "E" in number) and not math.isfinite(float(number)):
            raise DataLimitError(f"{number} is beyond the range of numbers (it would read as infinity); "
                                 "write a finite number", bare.count("\n", 0, match.start()) + 1,
                                 number=True)


def check_depth(data: Any) -> None:
    """Raise DataLimitError when already-loaded ``data`` nests deeper than MAX_DEPTH (iteratively)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        if depth >= MAX_DEPTH:
            raise _too_deep(None)
        stack.extend((child, depth + 1) for child in children)


def finite_number(value: Any) -> bool:
    """A number (not true/false) that is finite as a float: NaN, infinities and integers beyond a
    float's range (about 1.8e308, where ``math.isfinite`` raises OverflowError) are not."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def brief_number(value: Any) -> str:
    """``repr(value)``, or for a whole number too long to print in a message, how many digits it has."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * MAX_DIGITS:
        return f"a whole number of about {int(value.bit_length() * 0.30103):,} digits"
    return repr(value)


def _no_constant(name: str) -> Any:
    raise DataLimitError(f"{name} is not a number droidpilot accepts; write a finite number")


class DuplicateKeyError(InputError):
    """A JSON object names the same key twice; ``json.loads`` would keep the later value silently."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(f"key {key!r} is given twice in one object (the later value "
                                        "would silently win); keep one of them")
            seen.add(key)
    return data


def load_json_text(text: str, where: str = "") -> Any:
    """``json.loads`` that refuses deep nesting, NaN/Infinity, overlong numbers and repeated keys;
    the InputError says what and where."""
    try:
        check_json(text)
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except DataLimitError as exc:
        if not where:
            raise
        located = DataLimitError(f"{where}: {exc}", number=exc.number)
        located.line, located.bare = exc.line, exc.bare
        raise located from None
    except DuplicateKeyError as exc:
        if not where:
            raise
        raise DuplicateKeyError(f"{where}: {exc}") from None
