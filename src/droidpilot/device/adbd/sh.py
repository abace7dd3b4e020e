"""A small POSIX-sh interpreter with the quoting rules of Android's /system/bin/sh (mksh).

``adb shell`` joins its arguments with spaces and the device's shell parses the line again, so quoting,
``;``, ``&&``, ``||``, ``|``, redirections and ``$?`` must behave as on a phone for agents' commands to
mean the same thing here. Commands themselves are looked up in a table the caller provides.
"""

from __future__ import annotations

import fnmatch
import logging
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

from droidpilot.device.adbd.shparse import Command, Part, ShSyntaxError, Word, parse

SH = "/system/bin/sh"
MAX_SUBST_DEPTH = 64  # nested $( ) a line may use; deeper ones are refused, not recursed into
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
log = logging.getLogger(__name__)


@dataclass
class Result:
    """What one command produced."""

    out: bytes = b""
    err: bytes = b""
    code: int = 0
    merged: bytes = b""  # out and err interleaved per command, as a terminal would show them


class ExitShell(Exception):
    """The ``exit`` builtin ran."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class SubstTooDeep(Exception):
    """``$( )`` nested deeper than MAX_SUBST_DEPTH: the whole line fails with a message."""


Tool = Callable[["Shell", list[str], bytes], Result]


class Shell:
    """Runs command lines against a table of tools, a file system and an environment."""

    def __init__(self, tools: dict[str, Tool], fs: object, env: dict[str, str] | None = None,
                 ctx: object = None) -> None:
        self.tools = tools
        self.fs = fs  # a droidpilot.device.adbd.vfs.Vfs
        self.ctx = ctx  # what the tools act on (the phone)
        self.env = dict(env or {})
        self.cwd = "/"
        self.last = 0
        self.exited = False  # `exit` ran: an interactive session ends
        # set to a list by a one-shot `adb shell CMD`: tools that keep running in the foreground (a server
        # started by app_process) add how to stop them, and the service calls that when the client hangs up
        self.hangup: list[Callable[[], None]] | None = None
        self._depth = 0  # command substitutions being expanded right now

    def run(self, line: str) -> Result:
        """Run a whole command line; stdout and stderr are collected, the code is the last command's."""
        try:
            script = parse(line)
        except ShSyntaxError as exc:
            msg = f"{SH}: syntax error: {exc}\n".encode()
            return Result(err=msg, code=1, merged=msg)
        out, err, merged = bytearray(), bytearray(), bytearray()
        try:
            for connector, pipeline in script:
                if (connector == "&&" and self.last != 0) or (connector == "||" and self.last == 0):
                    continue
                res = self._pipeline(pipeline)
                out += res.out
                err += res.err
                merged += res.err + res.out
                self.last = res.code
        except ExitShell as ex:
            self.last = ex.code
            self.exited = True
        except SubstTooDeep as exc:
            if self._depth:
                raise
            msg = f"{SH}: command substitution nested deeper than {exc.args[0]} levels\n".encode()
            self.last = 2
            return Result(bytes(out), bytes(err) + msg, 2, bytes(merged) + msg)
        return Result(bytes(out), bytes(err), self.last, bytes(merged))

    def _pipeline(self, pipeline: list[Command]) -> Result:
        data = b""
        err = bytearray()
        res = Result()
        for cmd in pipeline:
            res = self._command(cmd, data)
            data = res.out
            err += res.err
        return Result(data, bytes(err), res.code)

    def expand(self, word: Word) -> list[str]:
        """The argument(s) a word becomes: parameters and substitutions expanded, globs matched."""
        text, pattern, globbing = [], [], False
        for part in word.parts:
            if part.kind == "var":
                value = str(self.last) if part.text == "?" else self.env.get(part.text, "")
            elif part.kind == "cmd":
                value = self._substitute(part.text)
            else:
                value = part.text
            text.append(value)
            if not part.quoted and part.kind == "lit" and any(c in value for c in "*?["):
                globbing = True
                pattern.append(value)
            else:
                pattern.append(_escape_glob(value))
        joined = "".join(text)
        if globbing:
            matches = self._glob("".join(pattern))
            if matches:
                return matches
        return [joined]

    def _substitute(self, line: str) -> str:
        """The output of ``$(line)``; SubstTooDeep past MAX_SUBST_DEPTH nested substitutions."""
        if self._depth >= MAX_SUBST_DEPTH:
            raise SubstTooDeep(MAX_SUBST_DEPTH)
        self._depth += 1
        try:
            return self.run(line).out.decode("utf-8", "replace").rstrip("\n")
        finally:
            self._depth -= 1

    def _glob(self, pattern: str) -> list[str]:
        directory, base = posixpath.split(pattern)
        if any(c in directory for c in "*?["):
            return []
        try:
            names = [n for n, _ in self.fs.listdir(directory or self.cwd)]  # type: ignore[attr-defined]
        except OSError:
            return []
        hits = [n for n in names if fnmatch.fnmatchcase(n, base) and not n.startswith(".")]
        return [posixpath.join(directory, n) if directory else n for n in sorted(hits)]

    def _command(self, cmd: Command, stdin: bytes) -> Result:
        words = list(cmd.words)
        assignments: dict[str, str] = {}
        while words and (m := _ASSIGN.match(words[0].parts[0].text if words[0].parts else "")) \
                and not words[0].parts[0].quoted:
            head = Word([Part(words[0].parts[0].text[m.end():]), *words[0].parts[1:]])
            assignments[m.group(1)] = "".join(self.expand(head))
            words.pop(0)
        if not words:  # NAME=value alone sets a shell variable
            self.env.update(assignments)
            return Result()
        argv: list[str] = []
        for w in words:
            argv.extend(self.expand(w))
        out_target: tuple[str, bool] | None = None
        err_target: tuple[str, bool] | str | None = None
        for r in cmd.redirects:
            target = "".join(self.expand(r.target))
            if r.op == "<" and target == "/dev/null":
                stdin = b""  # what `adb install` feeds `pm install`
            elif r.op == "<":
                try:
                    stdin = self.fs.read(posixpath.join(self.cwd, target))  # type: ignore[attr-defined]
                except OSError as exc:
                    return Result(err=f"{SH}: can't open {target}: {exc}\n".encode(), code=1)
            elif r.op == ">&":
                if r.fd == 2 and target == "1":
                    err_target = "stdout"
                elif r.fd == 1 and target == "2":
                    out_target = ("/dev/stderr", False)
            elif r.fd == 2:
                err_target = (target, r.op == ">>")
            else:
                out_target = (target, r.op == ">>")
        if not argv:
            res = Result()
        else:
            tool = self.tools.get(argv[0])
            if tool is None:
                res = Result(err=f"{SH}: {argv[0]}: not found\n".encode(), code=127)
            else:
                saved_env = self.env
                if assignments:  # NAME=value cmd: the command's own environment
                    self.env = {**saved_env, **assignments}
                try:
                    res = tool(self, argv[1:], stdin)
                except ExitShell:
                    raise
                except Exception as exc:  # a failing tool answers like a crashed Android tool, never hangs up
                    log.warning("shell tool %s failed", argv[0], exc_info=True)
                    text = f"Exception occurred while executing '{argv[0]}':\n{type(exc).__name__}: {exc}\n"
                    res = Result(err=text.encode(), code=255)
                finally:
                    self.env = saved_env
        if err_target == "stdout":
            res = Result(res.out + res.err, b"", res.code)
        elif isinstance(err_target, tuple):
            problem = self._write(err_target, res.err)
            res = Result(res.out, problem, res.code if not problem else 1)
        if out_target is not None:
            if out_target[0] == "/dev/stderr":
                return Result(b"", res.err + res.out, res.code)
            problem = self._write(out_target, res.out)
            res = Result(b"", res.err + problem, res.code if not problem else 1)
        return res

    def _write(self, target: tuple[str, bool], data: bytes) -> bytes:
        path, append = target
        if path == "/dev/null":
            return b""
        try:
            self.fs.write(posixpath.join(self.cwd, path), data, append=append)  # type: ignore[attr-defined]
        except OSError as exc:
            return f"{SH}: can't create {path}: {exc}\n".encode()
        return b""


def _escape_glob(text: str) -> str:
    """``text`` as a glob pattern that matches only itself."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)
