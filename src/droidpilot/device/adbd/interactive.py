"""`adb shell` without a command: a session with one shell, typed in by a person or piped in by a script.

With a terminal (shell v1, or v2 ``pty``) the phone side does what a pty and mksh do: echo keystrokes,
edit the line (backspace, Ctrl-C, Ctrl-D), show a ``simphone:/ $`` prompt and run each line on Enter.
Without one (v2 ``raw``) stdin is a script, run when the client closes stdin.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from droidpilot.device.adbd import protocol as proto
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.protocol import Conn
from droidpilot.device.adbd.sh import Shell
from droidpilot.device.adbd.shell import new_shell

MAX_LINE = 64 * 1024


class LineDiscipline:
    """Turns keystrokes into echo and complete lines, as a pty in canonical mode with echo does."""

    def __init__(self, run_line: Callable[[str], bytes], prompt: Callable[[], bytes]) -> None:
        self.run_line, self.prompt = run_line, prompt
        self.buf = bytearray()
        self.escape = 0  # 1 after ESC, 2 inside ESC [ ... (arrow keys are swallowed)
        self.after_cr = False
        self.done = False

    def feed(self, data: bytes) -> bytes:
        """What the terminal shows for ``data``; sets ``done`` on Ctrl-D at an empty line or `exit`."""
        out = bytearray()
        for b in data:
            if self.done:
                break
            if self.escape == 1:  # after ESC: "[" starts a control sequence, anything else ends it
                self.escape = 2 if b == 0x5B else 0
                continue
            if self.escape == 2:  # inside ESC [ ... up to its final byte
                self.escape = 0 if 0x40 <= b <= 0x7E else 2
                continue
            if b == 0x0A and self.after_cr:
                self.after_cr = False
                continue
            self.after_cr = b == 0x0D
            if b in (0x0D, 0x0A):
                line = self.buf.decode("utf-8", "replace")
                self.buf.clear()
                out += b"\r\n" + self.run_line(line).replace(b"\n", b"\r\n")
                if not self.done:
                    out += self.prompt()
            elif b in (0x7F, 0x08):
                if self.buf:
                    while self.buf and (self.buf.pop() & 0xC0) == 0x80:
                        pass
                    out += b"\b \b"
            elif b == 0x03:
                self.buf.clear()
                out += b"^C\r\n" + self.prompt()
            elif b == 0x04:
                if not self.buf:
                    self.done = True
            elif b == 0x1B:
                self.escape = 1
            elif (b >= 0x20 or b == 0x09) and len(self.buf) < MAX_LINE:
                self.buf.append(b)
                out.append(b)
        return bytes(out)


def _session(phone: Phone) -> tuple[Shell, LineDiscipline]:
    sh = new_shell(phone)

    def run_line(line: str) -> bytes:
        res = sh.run(line)
        if sh.exited:
            ld.done = True
        return res.merged

    def prompt() -> bytes:
        return f"simphone:{sh.cwd} $ ".encode()

    ld = LineDiscipline(run_line, prompt)
    return sh, ld


def serve_terminal_v1(conn: Conn, phone: Phone) -> None:
    """Shell v1 without a command: raw bytes both ways through the line discipline."""
    _, ld = _session(phone)
    conn.send(ld.prompt())
    while not ld.done:
        chunk = conn.sock.recv(65536)
        if not chunk:
            return
        conn.send(ld.feed(chunk))


def serve_v2(conn: Conn, phone: Phone, pty: bool) -> None:
    """Shell v2 without a command: a terminal session with ``pty``, else a script read until stdin closes."""
    sh, ld = _session(phone)
    script = bytearray()
    if pty:
        conn.send(proto.packet(proto.STDOUT, ld.prompt()))
    while not ld.done:
        head = conn.read_exact(5)
        kind, length = head[0], struct.unpack("<I", head[1:])[0]
        data = conn.read_exact(length)
        if kind == proto.STDIN:
            if pty:
                shown = ld.feed(data)
                if shown:
                    conn.send(proto.packet(proto.STDOUT, shown))
            else:
                script += data
        elif kind == proto.CLOSE_STDIN:
            break
    if pty:
        conn.send(proto.packet(proto.EXIT, bytes([sh.last & 0xFF])))
        return
    res = sh.run(script.decode("utf-8", "replace"))
    conn.send(proto.shell_v2_reply(res.out, res.err, res.code))
