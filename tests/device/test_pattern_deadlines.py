"""Patterns a client sends to SimPhone (UiSelector ...Matches, the shell's grep) run with a deadline: one
that backtracks without end is an error the client can read, and the server goes on serving."""

from __future__ import annotations

import pytest

from droidpilot.device.adbd.sh import Shell
from droidpilot.device.adbd.shell import ENV, TOOLS
from droidpilot.device.adbd.vfs import Vfs
from droidpilot.device.u2.selector import SelectorError, select
from droidpilot.device.u2.tree import parse_dump

EVIL = "a" * 40 + "!"
DUMP = ('<hierarchy rotation="0"><node index="0" text="{}" resource-id="" class="android.widget.TextView" '
        'package="com.example" content-desc="" bounds="[0,0][100,50]"/></hierarchy>')


def sel(**fields: object) -> dict[str, object]:
    return {"mask": 1, "childOrSibling": [], "childOrSiblingSelector": [], **fields}


def test_a_selector_pattern_that_backtracks_is_a_selector_error() -> None:
    nodes = parse_dump(DUMP.format(EVIL))
    with pytest.raises(SelectorError, match=r"textMatches: regular expression '\(a\|aa\)\+\$' timed out"):
        select(sel(textMatches="(a|aa)+$"), nodes)
    assert select(sel(textMatches="a+!"), nodes) == nodes  # near miss: a fine pattern still matches
    assert select(sel(textMatches="a+"), nodes) == []  # ... whole text only, as Java's matches()


@pytest.fixture
def sh() -> Shell:
    shell = Shell(TOOLS, Vfs(), ENV)
    shell.run(f"echo {EVIL} > /sdcard/a.txt; echo second >> /sdcard/a.txt")
    return shell


def test_grep_with_a_pattern_that_backtracks_exits_2_saying_why(sh: Shell) -> None:
    result = sh.run("grep -E '(a|aa)+$' /sdcard/a.txt")
    assert result.code == 2 and result.out == b""
    assert b"grep: regular expression '(a|aa)+$' timed out" in result.err and b"rewrite it" in result.err


def test_grep_with_ordinary_patterns_is_unchanged(sh: Shell) -> None:
    assert sh.run("grep -E 'sec|zzz' /sdcard/a.txt").out == b"second\n"
    assert sh.run("grep -c -E 'a+!$' /sdcard/a.txt").out == b"1\n"
    assert sh.run("grep -o -E 'se.' /sdcard/a.txt").out == b"sec\n"
    assert sh.run("grep -q third /sdcard/a.txt").code == 1
    bad = sh.run("grep 'a(' /sdcard/a.txt")
    assert bad.code == 2 and b"bad regex 'a('" in bad.err
