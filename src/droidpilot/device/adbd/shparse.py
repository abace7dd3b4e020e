"""The parser of the SimPhone shell: words, quotes, expansions, operators and redirections as mksh reads them.

It turns a command line into a Script (a list of pipelines joined by ``;``, ``&&`` and ``||``); expansion
happens later, when sh.Shell runs it, so ``$?`` sees the previous command's status.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class ShSyntaxError(Exception):
    """The command line does not parse; the message is what mksh prints after 'syntax error: '."""


@dataclass
class Part:
    """A piece of a word: literal text, or a parameter / command substitution expanded at run time."""

    text: str
    quoted: bool = False
    kind: str = "lit"  # lit | var | cmd


@dataclass
class Word:
    """One shell word as parts, joined after expansion."""
    parts: list[Part] = field(default_factory=list)


@dataclass
class Redirect:
    """``fd op target``, e.g. ``2>&1`` or ``> /sdcard/x``."""
    fd: int
    op: str  # > >> < >&
    target: Word


@dataclass
class Command:
    """A simple command: its words and redirections."""
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


# a list item: (connector before it: ";", "&&" or "||", pipeline of commands)
Script = list[tuple[str, list[Command]]]

_OPS = ("&&", "||", ">>", ">&", ";", "&", "|", ">", "<", "(", ")", "\n")
_SPECIAL_VARS = "?$#!0-"


def _scan_subst(s: str, i: int) -> int:
    """Index just past the ``)`` closing a ``$(`` whose body starts at ``i``."""
    depth, quote = 1, ""
    while i < len(s):
        c = s[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ShSyntaxError("'(' unmatched")


def _dollar(s: str, i: int, quoted: bool) -> tuple[Part, int]:
    """The expansion starting at ``s[i] == '$'`` and the index after it."""
    nxt = s[i + 1] if i + 1 < len(s) else ""
    if nxt == "(":
        end = _scan_subst(s, i + 2)
        return Part(s[i + 2:end - 1], quoted, "cmd"), end
    if nxt == "{":
        end = s.find("}", i + 2)
        if end < 0:
            raise ShSyntaxError("'${' unmatched")
        return Part(s[i + 2:end], quoted, "var"), end + 1
    if nxt and nxt in _SPECIAL_VARS:
        return Part(nxt, quoted, "var"), i + 2
    j = i + 1
    while j < len(s) and (s[j].isalnum() or s[j] == "_"):
        j += 1
    if j == i + 1:
        return Part("$", quoted), i + 1
    return Part(s[i + 1:j], quoted, "var"), j


def _add(word: Word, part: Part) -> None:
    """Append ``part``, merging it into the previous literal part of the same quoting."""
    last = word.parts[-1] if word.parts else None
    if last is not None and last.kind == part.kind == "lit" and last.quoted == part.quoted:
        last.text += part.text
    else:
        word.parts.append(part)


def tokenize(s: str) -> list[Word | str]:
    """Words and operator strings, honouring quotes, backslashes and comments."""
    out: list[Word | str] = []
    word: Word | None = None
    i = 0

    def lit(text: str, quoted: bool) -> None:
        nonlocal word
        if word is None:
            word = Word()
        _add(word, Part(text, quoted))

    while i < len(s):
        c = s[i]
        if c in " \t\r":
            if word is not None:
                out.append(word)
                word = None
            i += 1
        elif c == "#" and word is None:
            while i < len(s) and s[i] != "\n":
                i += 1
        elif c == "\\":
            if i + 1 < len(s) and s[i + 1] == "\n":
                i += 2
            else:
                lit(s[i + 1:i + 2], True)
                i += 2
        elif c == "'":
            end = s.find("'", i + 1)
            if end < 0:
                raise ShSyntaxError("unterminated quoted string")
            lit(s[i + 1:end], True)
            i = end + 1
        elif c == '"':
            i += 1
            if word is None:
                word = Word()
            word.parts.append(Part("", True))
            while True:
                if i >= len(s):
                    raise ShSyntaxError("unterminated quoted string")
                c = s[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\" and i + 1 < len(s) and s[i + 1] in '$`"\\\n':
                    if s[i + 1] != "\n":
                        _add(word, Part(s[i + 1], True))
                    i += 2
                elif c == "$":
                    part, i = _dollar(s, i, True)
                    word.parts.append(part)
                elif c == "`":
                    raise ShSyntaxError("'`' unsupported")
                else:
                    _add(word, Part(c, True))
                    i += 1
        elif c == "$":
            part, i = _dollar(s, i, False)
            if word is None:
                word = Word()
            word.parts.append(part)
        elif c == "`":
            raise ShSyntaxError("'`' unsupported")
        else:
            op = next((o for o in _OPS if s.startswith(o, i)), None)
            if op is None:
                lit(c, False)
                i += 1
                continue
            fd_word = word
            if op in (">", ">>", ">&", "<") and fd_word is not None and len(fd_word.parts) == 1 \
                    and not fd_word.parts[0].quoted and fd_word.parts[0].text.isdigit():
                out.append(f"{fd_word.parts[0].text}{op}")
                word = None
            else:
                if word is not None:
                    out.append(word)
                    word = None
                out.append(op)
            i += len(op)
    if word is not None:
        out.append(word)
    return out


def parse(s: str) -> Script:
    """The command list of a line; ShSyntaxError names the unexpected token like mksh does."""
    tokens = tokenize(s)
    script: Script = []
    connector = ";"
    pipeline: list[Command] = []
    cmd = Command()
    i = 0

    def end_command(tok: str) -> None:
        nonlocal cmd
        if not cmd.words and not cmd.redirects:
            raise ShSyntaxError(f"'{tok.strip() or 'newline'}' unexpected")
        pipeline.append(cmd)
        cmd = Command()

    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, Word):
            cmd.words.append(tok)
        elif tok in ("(", ")"):
            raise ShSyntaxError(f"'{tok}' unexpected")
        elif tok.lstrip("0123456789") in (">", ">>", ">&", "<"):
            op = tok.lstrip("0123456789")
            fd = int(tok[:len(tok) - len(op)] or (0 if op == "<" else 1))
            if i + 1 >= len(tokens) or not isinstance(tokens[i + 1], Word):
                raise ShSyntaxError(f"'{tok}' unexpected")
            target = tokens[i + 1]
            assert isinstance(target, Word)
            cmd.redirects.append(Redirect(fd, op, target))
            i += 1
        elif tok == "|":
            end_command(tok)
        else:  # ; & && || newline
            if not cmd.words and not cmd.redirects and not pipeline:
                if tok != "\n":
                    raise ShSyntaxError(f"'{tok}' unexpected")
                i += 1
                continue
            end_command(tok)
            script.append((connector, pipeline))
            pipeline = []
            connector = tok if tok in ("&&", "||") else ";"
        i += 1
    if cmd.words or cmd.redirects:
        pipeline.append(cmd)
    if pipeline:
        script.append((connector, pipeline))
    elif connector in ("&&", "||"):
        raise ShSyntaxError("unexpected end of input")
    return script
