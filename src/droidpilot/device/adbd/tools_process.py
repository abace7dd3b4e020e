"""Process tools of the SimPhone shell: `ps`, `pidof`, `md5sum`, `toybox` and `app_process`.

`ps -A` and `pidof` list SimPhone's running apps (the foreground app and those whose process the phone
keeps) next to the system processes every phone has, so `app_wait`/`app_list_running` style checks work;
a relaunch after the process ended (force-stop, swiped from Recents, `am kill`) has a new pid. `app_process`
starts the on-phone program a client pushed: the uiautomator JSON-RPC server of ``u2.jar``, which then
listens on its port until the shell that started it hangs up.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import threading
import zipfile

from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.ports import PortInUse
from droidpilot.device.adbd.sh import Result, Shell, Tool

# the main classes of uiautomator servers that clients push and start with app_process
U2_SERVER_CLASSES = ("com.wetest.uia2.Main",)
U2_DEFAULT_PORT = 9008
_SYSTEM = (("root", 1, 0, "init"), ("root", 312, 1, "zygote64"), ("system", 598, 312, "system_server"),
           ("shell", 701, 1, "adbd"), ("u0_a42", 1104, 312, "com.android.systemui"),
           ("u0_a87", 1372, 312, "com.android.adbkeyboard"))
_pid_lock = threading.Lock()
_new_pids = itertools.count(4007, 7)  # pids are handed out in rising order across phones, as a kernel would


def _phone(sh: Shell) -> Phone:
    assert isinstance(sh.ctx, Phone)
    return sh.ctx


def running_packages(phone: Phone) -> dict[str, int | None]:
    """Packages with a live process -> which start of it this is (a relaunch after the process ended is
    a new start; None where the device does not say): the foreground app first (the launcher on the home
    screen), then the apps whose process SimPhone keeps (tasks in Recents, apps killed only in part)."""
    dev = phone.device
    with phone.lock:
        current = dev.current_app()
        running = getattr(dev, "running_apps", None)
        if callable(running):
            live: dict[str, int | None] = dict(running())
        else:  # a device that keeps no processes: its foreground app and its Recents
            state = getattr(dev, "state", None)
            apps = getattr(dev, "apps", None)
            recents = list(state()["system"].get("recents", [])) if callable(state) else []
            by_name = {a.name: a.package for a in apps()} if callable(apps) else {}
            live = {by_name[n]: None for n in recents if n in by_name}
    return {current: live.get(current), **live}


Proc = tuple[str, int, int, str]  # user, pid, ppid, name


def app_user(phone: Phone, pkg: str) -> str:
    """The Linux user an app runs as (``u0_a<N>``), stable per package: its install uid, or its place
    among SimPhone's apps."""
    rec = phone.installed.get(pkg)
    if rec is not None:
        return f"u0_a{rec.uid - 10000}"
    apps = getattr(phone.device, "apps", None)
    order = [a.package for a in apps()] if callable(apps) else []
    return f"u0_a{100 + order.index(pkg)}" if pkg in order else "u0_a99"


def processes(phone: Phone) -> list[Proc]:
    """(user, pid, ppid, name) of every process: system ones, programs run from a shell (the uiautomator
    server's app_process), then apps; an app keeps its pid while it runs and gets a new one after it
    stopped."""
    running = running_packages(phone)
    with _pid_lock, phone.lock:
        for pkg in [p for p in phone.pids if p not in running]:
            del phone.pids[pkg]
            phone.pid_starts.pop(pkg, None)
        rows = []
        for pkg, start in running.items():
            if pkg not in phone.pids or phone.pid_starts.get(pkg) != start:  # a new start: a new process
                phone.pids[pkg], phone.pid_starts[pkg] = next(_new_pids), start
            rows.append((app_user(phone, pkg), phone.pids[pkg], 312, pkg))
        programs = [(user, pid, 701, name) for pid, (user, name) in phone.programs.items()]
    return [*_SYSTEM, *sorted(programs + rows, key=lambda r: r[1])]


def new_pid() -> int:
    """A fresh pid, in the rising order apps get theirs."""
    with _pid_lock:
        return next(_new_pids)


# toybox's -o fields: name -> (width, left-aligned); rows carry them through _field
_FIELDS = {"USER": (-10, True), "UID": (5, False), "PID": (7, False), "PPID": (5, False), "VSZ": (10, False),
           "RSS": (6, False), "WCHAN": (-16, True), "ADDR": (4, False), "S": (1, False), "NAME": (0, True),
           "CMD": (0, True), "CMDLINE": (0, True), "ARGS": (0, True), "COMM": (-15, True),
           "TIME": (8, False), "PRI": (3, False), "NI": (3, False), "STIME": (8, False)}
_DEFAULT = ["USER", "PID", "PPID", "VSZ", "RSS", "WCHAN", "ADDR", "S", "NAME"]
_PS_USAGE = "usage: ps [-AadefLlnwZ] [-gG GROUP,] [-k FIELD,] [-o FIELD,] [-p PID,] [-t TTY,] [-uU USER,]\n"


def _uid(user: str) -> int:
    fixed = {"root": 0, "system": 1000, "shell": 2000}
    if user in fixed:
        return fixed[user]
    return 10000 + int(user[4:]) if user.startswith("u0_a") and user[4:].isdigit() else 9999


def _field(name: str, row: Proc) -> str:
    user, pid, ppid, proc = row
    values = {"USER": user, "UID": str(_uid(user)), "PID": str(pid), "PPID": str(ppid), "VSZ": "12345678",
              "RSS": "65432", "WCHAN": "do_epoll_wait", "ADDR": "0", "S": "S", "NAME": proc, "CMD": proc,
              "CMDLINE": proc, "ARGS": proc, "COMM": proc[-15:], "TIME": "00:00:01", "PRI": "19",
              "NI": "0", "STIME": "10:00:00"}
    return values[name]


def _cell(name: str, text: str, last: bool) -> str:
    width, left = _FIELDS[name]
    if last:
        return text
    return text.ljust(abs(width)) if left else text.rjust(width)


def _ps_options(args: list[str]) -> tuple[dict[str, list[str]], list[str]] | str:
    """(option -> values, names) of a ps command line, or the error text toybox prints."""
    opts: dict[str, list[str]] = {}
    names: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-o", "-u", "-U", "-p", "-O"):
            if i + 1 >= len(args):
                return f"ps: Missing argument to {a}\n"
            opts.setdefault(a, []).extend(v for v in args[i + 1].split(",") if v)
            i += 2
            continue
        if a.startswith("-") and len(a) > 1:
            for flag in a[1:]:
                if flag not in "AaedefLlnwZT":
                    return f"ps: Unknown option '{flag}'\n" + _PS_USAGE
                opts.setdefault("-" + flag, [])
        else:
            names.append(a)
        i += 1
    return opts, names


def tool_ps(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`ps [-A] [-u USER,] [-p PID,] [-o FIELD,] [NAME...]` in toybox's columns; without -A (or another
    selection) only the shell user's processes, as toybox shows its own session's."""
    parsed = _ps_options(args)
    if isinstance(parsed, str):
        return Result(err=parsed.encode(), code=1)
    opts, names = parsed
    fields = [f.split("=")[0].upper() for f in opts.get("-o", [])] or _DEFAULT
    fields += [f.upper() for f in opts.get("-O", [])]
    bad = [f for f in fields if f not in _FIELDS]
    if bad:
        return Result(err=f"ps: bad -o {bad[0]}\n".encode(), code=1)
    rows = processes(_phone(sh))
    users = opts.get("-u", []) + opts.get("-U", [])
    pids = opts.get("-p", [])
    if users:
        rows = [r for r in rows if r[0] in users or str(_uid(r[0])) in users]
    if pids:
        rows = [r for r in rows if str(r[1]) in pids]
    if names:
        rows = [r for r in rows if r[3] in names]
    if not (users or pids or names or {"-A", "-e", "-a", "-d"} & set(opts)):
        rows = [r for r in rows if r[0] == "shell"]
    head = " ".join(_cell(f, f, k == len(fields) - 1) for k, f in enumerate(fields)).rstrip() + "\n"
    body = "".join(" ".join(_cell(f, _field(f, r), k == len(fields) - 1) for k, f in enumerate(fields))
                   .rstrip() + "\n" for r in rows)
    return Result(out=(head + body).encode(), code=0 if rows or not names else 1)


def tool_pidof(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`pidof NAME...`: the pids, space separated; exit 1 when none runs."""
    names = [a for a in args if not a.startswith("-")]
    pids = [str(pid) for _, pid, _, name in processes(_phone(sh)) if name in names]
    return Result(out=(" ".join(pids) + "\n").encode() if pids else b"", code=0 if pids else 1)


def tool_md5sum(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`md5sum FILE...` (stdin without files), as toybox prints it."""
    files = [a for a in args if not a.startswith("-")]
    if not files:
        return Result(out=f"{hashlib.md5(stdin).hexdigest()}  -\n".encode())
    out, err = [], []
    for name in files:
        path = name if name.startswith("/") else f"{sh.cwd.rstrip('/')}/{name}"
        try:
            data = sh.fs.read(path)  # type: ignore[attr-defined]
        except OSError as exc:
            err.append(f"md5sum: {name}: {exc}\n")
            continue
        out.append(f"{hashlib.md5(data).hexdigest()}  {name}\n")
    return Result(out="".join(out).encode(), err="".join(err).encode(), code=1 if err else 0)


def tool_toybox(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`toybox APPLET ARGS...`: the multi-call binary most shell tools are on Android."""
    if not args:
        return Result(out=(" ".join(sorted(k for k in sh.tools if "/" not in k)) + "\n").encode())
    tool = sh.tools.get(args[0])
    if tool is None or args[0] in ("toybox", "app_process"):
        return Result(err=f"toybox: Unknown command {args[0]}\n".encode(), code=1)
    return tool(sh, args[1:], stdin)


def _class_error(cls: str, why: str) -> Result:
    text = f"Error: Could not find class '{cls}' ({why})\n"
    return Result(err=text.encode(), code=1)


def tool_app_process(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`CLASSPATH=JAR app_process DIR CLASS [-p PORT]`: runs a pushed uiautomator server (its main class
    in a dex jar on the phone) in the foreground, listening on PORT until the shell hangs up."""
    phone = _phone(sh)
    words = [a for a in args if not a.startswith("--")]
    if len(words) < 2:
        return Result(err=b"Usage: app_process [java-options] cmd-dir start-class-name [options]\n", code=1)
    cls, rest = words[1], words[2:]
    classpath = sh.env.get("CLASSPATH", "")
    jars = [p for p in classpath.split(":") if p]
    if not jars:
        return _class_error(cls, "CLASSPATH is not set")
    if cls not in U2_SERVER_CLASSES:
        return _class_error(cls, "SimPhone runs only the uiautomator server: " + ", ".join(U2_SERVER_CLASSES))
    for jar in jars:
        try:
            data = sh.fs.read(jar)  # type: ignore[attr-defined]
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                if "classes.dex" in z.namelist():
                    break
        except (OSError, zipfile.BadZipFile):
            continue
    else:
        return _class_error(cls, f"no dex jar at {classpath}")
    port = U2_DEFAULT_PORT
    if "-p" in rest and rest.index("-p") + 1 < len(rest):
        text = rest[rest.index("-p") + 1]
        if not text.isdigit() or not 0 < int(text) < 65536:
            return Result(err=f"Error: bad port '{text}'\n".encode(), code=1)
        port = int(text)
    if sh.hangup is None:
        return Result(err=b"app_process: SimPhone runs the server only from a one-shot `adb shell COMMAND`\n",
                      code=1)
    from droidpilot.device.u2.server import start_server  # the server lives in its own package

    try:
        stop = start_server(phone, port)
    except PortInUse as exc:
        return Result(err=f"java.net.BindException: {exc}\n".encode(), code=1)
    pid = new_pid()
    phone.programs[pid] = ("shell", "app_process")  # the server runs as the shell user that started it

    def stop_process() -> None:
        stop()
        phone.programs.pop(pid, None)

    sh.hangup.append(stop_process)
    return Result(out=f"SimPhone uiautomator server ({cls}) listening on tcp:{port}\n".encode())


TOOLS: dict[str, Tool] = {"ps": tool_ps, "pidof": tool_pidof, "md5sum": tool_md5sum, "toybox": tool_toybox,
                          "app_process": tool_app_process}

