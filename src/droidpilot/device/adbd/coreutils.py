"""The toybox-style basics of the SimPhone shell: echo, cat, ls, rm, mkdir, touch, sleep, grep, head, tail...

They act on the phone's in-memory file system and print the error texts toybox prints, so agents that
clean up ``/sdcard/screenshot.png`` or list a folder see what a phone would show them.
"""

from __future__ import annotations

import posixpath
import re
import stat as stat_mod
import time

from droidpilot.device.adbd.sh import ExitShell, Result, Shell
from droidpilot.device.adbd.vfs import Vfs
from droidpilot.regexguard import PatternTimeout, guarded

_MAX_SLEEP = 600.0


def _fs(sh: Shell) -> Vfs:
    assert isinstance(sh.fs, Vfs)
    return sh.fs


def _path(sh: Shell, p: str) -> str:
    return p if p.startswith("/") else posixpath.join(sh.cwd, p)


def _flags(args: list[str]) -> tuple[set[str], list[str]]:
    flags: set[str] = set()
    rest: list[str] = []
    for a in args:
        if a.startswith("-") and len(a) > 1 and not rest:
            flags.update(a[1:])
        else:
            rest.append(a)
    return flags, rest


def tool_echo(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`echo [-n] ARGS...`."""
    newline = True
    if args[:1] == ["-n"]:
        newline, args = False, args[1:]
    return Result(out=(" ".join(args) + ("\n" if newline else "")).encode())


def tool_cat(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`cat [FILE...]` (stdin when no file)."""
    if not args:
        return Result(out=stdin)
    out, err = bytearray(), bytearray()
    for a in args:
        try:
            out += _fs(sh).read(_path(sh, a))
        except OSError as exc:
            err += f"cat: {a}: {exc}\n".encode()
    return Result(bytes(out), bytes(err), 1 if err else 0)


def _long(name: str, node_mode: int, size: int, mtime: int) -> str:
    kind = "d" if stat_mod.S_ISDIR(node_mode) else "-"
    perms = stat_mod.filemode(node_mode)[1:]
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime))
    return f"{kind}{perms} 1 root sdcard_rw {size:>8} {when} {name}\n"


def tool_ls(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`ls [-l] [-a] [-d] [PATH...]`."""
    flags, paths = _flags(args)
    out, err = bytearray(), bytearray()
    for p in paths or ["."]:
        try:
            node = _fs(sh).stat(_path(sh, p))
            if not node.is_dir or "d" in flags:
                entries = [(p, node)]
            else:
                entries = _fs(sh).listdir(_path(sh, p))
                if "a" not in flags:
                    entries = [(n, e) for n, e in entries if not n.startswith(".")]
        except OSError as exc:
            err += f"ls: {p}: {exc}\n".encode()
            continue
        if len(paths) > 1 and node.is_dir and "d" not in flags:
            out += f"{p}:\n".encode()
        for name, e in entries:
            out += (_long(name, e.mode, e.size, e.mtime) if "l" in flags else name + "\n").encode()
    return Result(bytes(out), bytes(err), 1 if err else 0)


def tool_rm(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`rm [-f] [-r] PATH...`."""
    flags, paths = _flags(args)
    err = bytearray()
    for p in paths:
        try:
            _fs(sh).remove(_path(sh, p), recursive="r" in flags or "R" in flags)
        except OSError as exc:
            if "f" not in flags or exc.__str__() != "No such file or directory":
                err += f"rm: {p}: {exc}\n".encode()
    if not paths and "f" not in flags:
        err += b"rm: Needs 1 argument (see \"rm --help\")\n"
    return Result(err=bytes(err), code=1 if err else 0)


def tool_mkdir(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`mkdir [-p] DIR...`."""
    flags, paths = _flags(args)
    err = bytearray()
    for p in paths:
        try:
            _fs(sh).mkdir(_path(sh, p), parents="p" in flags)
        except OSError as exc:
            err += f"mkdir: '{p}': {exc}\n".encode()
    return Result(err=bytes(err), code=1 if err else 0)


def tool_touch(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`touch FILE...` (creates empty files)."""
    err = bytearray()
    for p in _flags(args)[1]:
        try:
            fs = _fs(sh)
            fs.write(_path(sh, p), fs.read(_path(sh, p)) if fs.exists(_path(sh, p)) else b"")
        except OSError as exc:
            err += f"touch: '{p}': {exc}\n".encode()
    return Result(err=bytes(err), code=1 if err else 0)


def tool_sleep(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`sleep SECONDS`: real time passes, and the phone's clock moves with it."""
    try:
        seconds = float(args[0].rstrip("s")) if args else -1.0
    except ValueError:
        seconds = -1.0
    if seconds < 0:
        return Result(err=f"sleep: invalid number '{args[0] if args else ''}'\n".encode(), code=1)
    seconds = min(seconds, _MAX_SLEEP)
    time.sleep(seconds)
    phone = sh.ctx
    device = getattr(phone, "device", None)
    if device is not None:  # the phone's own clock moves too (SimPhone keeps virtual time)
        with phone.lock:  # type: ignore[attr-defined]
            device.wait(seconds)
    return Result()


def tool_grep(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`grep [-E] [-i] [-v] [-o] [-c] [-q] PATTERN [FILE...]` (Python regular expressions)."""
    flags, rest = _flags(args)
    if not rest:
        return Result(err=b"grep: Needs 1 argument\n", code=2)
    try:
        rx = guarded(rest[0], re.IGNORECASE if "i" in flags else 0)
    except re.error as exc:
        return Result(err=f"grep: bad regex '{rest[0]}': {exc}\n".encode(), code=2)
    data = stdin
    if len(rest) > 1:
        try:
            data = b"".join(_fs(sh).read(_path(sh, p)) for p in rest[1:])
        except OSError as exc:
            return Result(err=f"grep: {exc.filename or rest[1]}: {exc}\n".encode(), code=2)
    lines = data.decode("utf-8", "replace").splitlines()
    try:  # the first line the pattern backtracks on without end stops grep (exit 2), as an error would
        hits = [ln for ln in lines if bool(rx.search(ln)) != ("v" in flags)]
        if "o" in flags:
            hits = [m.group(0) for ln in hits for m in rx.findall_matches(ln)]
    except PatternTimeout as exc:
        return Result(err=f"grep: {exc}\n".encode(), code=2)
    code = 0 if hits else 1
    if "q" in flags:
        return Result(code=code)
    if "c" in flags:
        return Result(out=f"{len(hits)}\n".encode(), code=code)
    return Result(out="".join(h + "\n" for h in hits).encode(), code=code)


def _count(args: list[str]) -> tuple[int, list[str]]:
    n, rest, i = 10, [], 0
    while i < len(args):
        if args[i] == "-n" and i + 1 < len(args):
            n, i = int(args[i + 1]), i + 2
        elif re.fullmatch(r"-\d+", args[i]):
            n, i = int(args[i][1:]), i + 1
        else:
            rest.append(args[i])
            i += 1
    return n, rest


def tool_head(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`head [-n N]` of stdin."""
    n, _ = _count(args)
    return Result(out=b"".join(stdin.splitlines(keepends=True)[:n]))


def tool_tail(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`tail [-n N]` of stdin."""
    n, _ = _count(args)
    return Result(out=b"".join(stdin.splitlines(keepends=True)[-n:] if n else []))


def tool_wc(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`wc [-l]` of stdin."""
    lines = stdin.count(b"\n")
    if "-l" in args:
        return Result(out=f"{lines}\n".encode())
    return Result(out=f"{lines} {len(stdin.split())} {len(stdin)}\n".encode())


def tool_exit(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`exit [STATUS]`: ends the shell."""
    raise ExitShell(int(args[0]) if args and args[0].isdigit() else sh.last)


def tool_cd(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`cd DIR`."""
    target = _path(sh, args[0]) if args else "/"
    try:
        if not _fs(sh).stat(target).is_dir:
            return Result(err=f"/system/bin/sh: cd: {args[0]}: Not a directory\n".encode(), code=1)
    except OSError as exc:
        return Result(err=f"/system/bin/sh: cd: {args[0] if args else '/'}: {exc}\n".encode(), code=1)
    sh.cwd = posixpath.normpath(target)
    return Result()


def tool_const(out: str, code: int = 0) -> object:
    """A tool that always prints ``out`` and exits with ``code`` (true, false, id, whoami...)."""

    def tool(sh: Shell, args: list[str], stdin: bytes) -> Result:
        return Result(out=out.encode(), code=code)

    return tool


def tool_pwd(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`pwd`."""
    return Result(out=f"{sh.cwd}\n".encode())


def tool_date(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`date [+%s]`."""
    if args[:1] == ["+%s"]:
        return Result(out=f"{int(time.time())}\n".encode())
    return Result(out=time.strftime("%a %b %d %H:%M:%S %Z %Y\n").encode())


def tool_export(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`export NAME=value ...`."""
    for a in args:
        name, eq, value = a.partition("=")
        if eq:
            sh.env[name] = value
    return Result()


def _test(sh: Shell, args: list[str]) -> bool:
    if not args:
        return False
    if args[0] == "!":
        return not _test(sh, args[1:])
    if len(args) == 1:
        return args[0] != ""
    if len(args) == 2:
        op, val = args
        if op in ("-e", "-f", "-d", "-s"):
            fs = _fs(sh)
            if not fs.exists(_path(sh, val)):
                return False
            node = fs.stat(_path(sh, val))
            return {"-e": True, "-f": not node.is_dir, "-d": node.is_dir, "-s": node.size > 0}[op]
        return {"-z": val == "", "-n": val != ""}.get(op, False)
    a, op, b = args[:3]
    if op in ("=", "==", "!="):
        return (a == b) != (op == "!=")
    nums = {"-eq": int.__eq__, "-ne": int.__ne__, "-lt": int.__lt__, "-le": int.__le__, "-gt": int.__gt__,
            "-ge": int.__ge__}
    return op in nums and a.lstrip("-").isdigit() and b.lstrip("-").isdigit() and nums[op](int(a), int(b))


def tool_test(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`test EXPR` / `[ EXPR ]`: -e -f -d -s -z -n, = != and -eq ... -ge, with `!`."""
    if args and args[-1] == "]":
        args = args[:-1]
    return Result(code=0 if _test(sh, args) else 1)
