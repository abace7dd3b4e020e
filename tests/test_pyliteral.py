"""plain_escapes: a literal with a stray backslash reads as Python reads it, without the warning."""

from __future__ import annotations

import ast

import pytest

from droidpilot.pyliteral import plain_escapes


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(("literal", "value"), [
    (r"'C:\Files'", "C:\\Files"),
    (r"'a\{b\}'", "a\\{b\\}"),
    (r"b'\N'", b"\\N"),  # \N is an escape in a str but not in bytes
    # written differently, read the same: real escapes keep their meaning, raw strings stay raw
    (r"'it\'s\t\\F'", "it's\t\\F"),
    (r"'\N{BULLET}\x41\u00e9'", "\u2022A\u00e9"),
    (r"r'C:\Files'", "C:\\Files"),
    (r"Rb'\q'", b"\\q"),
    (r"""{"k": 'x\y', 'j': "\z"}""", {"k": "x\\y", "j": "\\z"}),
])
def test_values_are_what_python_reads_and_nothing_warns(literal: str, value: object) -> None:
    assert ast.literal_eval(plain_escapes(literal)) == value


@pytest.mark.parametrize("text", ["no quotes at all \\F", "'unclosed \\F", "'ends in a backslash\\"])
def test_text_outside_or_at_the_end_of_a_string_is_left_alone(text: str) -> None:
    out = plain_escapes(text)
    assert out.replace("\\\\", "\\") == text.replace("\\\\", "\\")
    assert out.count("\\") >= text.count("\\")
