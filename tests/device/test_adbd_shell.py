"""The SimPhone shell parses command lines like Android's sh and its file tools act on the virtual /sdcard."""

from __future__ import annotations

import pytest

from droidpilot.device.adbd.sh import Shell
from droidpilot.device.adbd.shell import ENV, TOOLS
from droidpilot.device.adbd.shparse import parse
from droidpilot.device.adbd.tools_input import decode_input_text
from droidpilot.device.adbd.vfs import Vfs, canonical
from droidpilot.device.realphone.input import input_text_commands, sh_quote


@pytest.fixture
def sh() -> Shell:
    return Shell(TOOLS, Vfs(), ENV)


def out(sh: Shell, line: str) -> str:
    return sh.run(line).out.decode()


def test_quotes_backslashes_and_variables(sh: Shell) -> None:
    assert out(sh, "echo 'a  b' \"c  $EXTERNAL_STORAGE\" d\\ e \\$x") == "a  b c  /sdcard d e $x\n"
    assert out(sh, "echo \"\\$x \\\\ \\a\" '\\n'") == "$x \\ \\a \\n\n"
    assert out(sh, "echo a'b'\"c\"d") == "abcd\n"


def test_lists_status_and_substitution(sh: Shell) -> None:
    res = sh.run("nope; echo $?")
    assert res.out == b"127\n"
    assert res.err == b"/system/bin/sh: nope: not found\n"
    assert out(sh, "false && echo no || echo yes") == "yes\n"
    assert out(sh, "true && echo one; echo two") == "one\ntwo\n"
    assert out(sh, "echo $(echo inner) ${HOME}x") == "inner /x\n"
    assert sh.run("exit 3; echo never").code == 3


def test_unknown_command_is_127_with_androids_message(sh: Shell) -> None:
    res = sh.run("frobnicate --now")
    assert (res.code, res.err) == (127, b"/system/bin/sh: frobnicate: not found\n")


@pytest.mark.parametrize("line", ["input text (", "echo 'open", "; ls", "echo a &&", "echo \"x"])
def test_syntax_errors_are_reported_not_raised(sh: Shell, line: str) -> None:
    res = sh.run(line)
    assert res.code == 1
    assert res.err.startswith(b"/system/bin/sh: syntax error: ")


def test_redirections_pipes_and_grep(sh: Shell) -> None:
    sh.run("echo first > /sdcard/a.txt; echo second >> /sdcard/a.txt")
    assert out(sh, "cat /sdcard/a.txt") == "first\nsecond\n"
    assert out(sh, "cat /sdcard/a.txt | grep -E 'sec|zzz'") == "second\n"
    assert sh.run("cat /sdcard/a.txt | grep -q third").code == 1
    assert out(sh, "nope 2>&1") == "/system/bin/sh: nope: not found\n"
    assert sh.run("nope 2>/dev/null").err == b""
    assert out(sh, "cat < /sdcard/a.txt | wc -l") == "2\n"


def test_file_tools_on_the_virtual_sdcard(sh: Shell) -> None:
    assert sh.run("mkdir -p /sdcard/x/y && touch /sdcard/x/y/f.png /sdcard/x/g.png").code == 0
    assert out(sh, "ls /sdcard/x") == "g.png\ny\n"
    assert out(sh, "echo /sdcard/x/*.png") == "/sdcard/x/g.png\n"
    assert out(sh, "ls /storage/emulated/0/x/y") == "f.png\n"
    res = sh.run("rm /sdcard/missing.png")
    assert res.code == 1 and b"No such file or directory" in res.err
    assert sh.run("rm -f /sdcard/missing.png").code == 0
    assert sh.run("rm /sdcard/x").err == b"rm: /sdcard/x: Is a directory\n"
    assert sh.run("rm -rf /sdcard/x").code == 0 and not sh.fs.exists("/sdcard/x/g.png")  # type: ignore[attr-defined]
    assert b"Read-only file system" in sh.run("echo x > /system/foo").err
    assert out(sh, "cd /sdcard && pwd") == "/sdcard\n"


def test_storage_aliases_name_one_directory() -> None:
    assert canonical("/sdcard/a/../b.png") == "/storage/emulated/0/b.png"
    assert canonical("/mnt/sdcard") == canonical("/storage/self/primary") == "/storage/emulated/0"
    assert canonical("x.png", "/data/local/tmp") == "/data/local/tmp/x.png"


def test_parse_keeps_operators_inside_quotes() -> None:
    script = parse("input text 'a;b|c&&d' && echo ok")
    assert [conn for conn, _ in script] == [";", "&&"]
    assert len(script[0][1][0].words) == 3


SPECIALS = [" ", "'", '"', "\\", "$", "`", ";", "&", "|", "<", ">", "(", ")", "*", "?", "[", "]", "{", "}",
            "~", "#", "!", "%", "%s", "%%s", "s%", "-", "\t", "a b  c"]


@pytest.mark.parametrize("text", SPECIALS)
def test_input_text_escaping_round_trips_through_sh(sh: Shell, text: str) -> None:
    """What AdbDevice sends for `text` reaches `input text` so that Android's %s rule gives `text` back."""
    typed = []
    for line in input_text_commands(text):
        script = parse(line)
        argv = [a for w in script[0][1][0].words for a in sh.expand(w)]
        assert argv[:2] == ["input", "text"]
        typed.append(decode_input_text(argv[2]))
    assert "".join(typed) == text


def test_sh_quote_leaves_simple_words_alone() -> None:
    assert sh_quote("com.example/.Main") == "com.example/.Main"
    assert sh_quote("it's") == "'it'\\''s'"


def test_a_full_sdcard_refuses_writes() -> None:
    sh = Shell(TOOLS, Vfs(capacity=10), ENV)
    assert sh.run("echo 12345 > /sdcard/a").code == 0
    res = sh.run("echo 123456 > /sdcard/b")
    assert res.code == 1 and b"No space left on device" in res.err
    assert sh.run("echo 1234567890 > /sdcard/a").code == 1
    assert sh.run("echo 123456789 > /sdcard/a").code == 0  # replacing a file counts only its new size


def test_line_discipline_echoes_edits_and_runs_lines() -> None:
    from droidpilot.device.adbd.interactive import LineDiscipline

    ran: list[str] = []
    ld = LineDiscipline(lambda line: (ran.append(line), b"out\n")[1], lambda: b"$ ")
    shown = ld.feed("ab\x7fc\x1b[Ad\u4f60\x7fe\r\n".encode())
    assert ran == ["acde"]
    assert shown == b"ab\b \bcd\xe4\xbd\xa0\b \be\r\nout\r\n$ "
    assert ld.feed(b"junk\x03") == b"junk^C\r\n$ " and ran == ["acde"]
    ld.feed(b"x\x04")
    assert not ld.done  # Ctrl-D ends the session only at an empty line
    ld.feed(b"\x7f\x04")
    assert ld.done


def test_variables_and_test_expressions(sh: Shell) -> None:
    assert out(sh, "X=a'b c'; echo $X; export Y=2; echo ${Y}z") == "ab c\n2z\n"
    sh.run("echo hi > /sdcard/f.txt")
    assert out(sh, "[ -f /sdcard/f.txt ] && echo file; [ -d /sdcard ] && echo dir") == "file\ndir\n"
    assert out(sh, "test -e /sdcard/none || echo missing; [ ! -s /sdcard/f.txt ] || echo nonempty") == \
        "missing\nnonempty\n"
    assert out(sh, "[ 3 -gt 2 ] && [ abc != abd ] && [ -z '' ] && echo yes") == "yes\n"
    assert out(sh, "A=1 echo $A.") == ".\n"  # a prefix assignment is for the command, not the line
