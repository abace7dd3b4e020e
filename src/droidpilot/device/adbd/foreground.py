"""A shell command that keeps running: its output goes out at once, and it lives until the client hangs up.

``adb shell CLASSPATH=... app_process ...`` starts the uiautomator server in the foreground of that shell;
on a phone the server lives exactly as long as the adb connection (closing it hangs the process up). Here
the tool registers what stopping it means (``Shell.hangup``), and this module holds the connection open,
then runs those callbacks.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from droidpilot.device.adbd import protocol as proto
from droidpilot.device.adbd.protocol import Conn
from droidpilot.device.adbd.sh import Result

log = logging.getLogger(__name__)


def hold(conn: Conn, res: Result, v2: bool, hangup: list[Callable[[], None]]) -> None:
    """Send what the command printed so far, wait until the client closes, then stop the command."""
    try:
        if v2:
            out = b""
            for kind, data in ((proto.STDOUT, res.out), (proto.STDERR, res.err)):
                if data:
                    out += proto.packet(kind, data)
            conn.send(out)
        else:
            conn.send(res.merged)
        conn.sock.settimeout(None)
        while conn.sock.recv(65536):  # stdin (or v2 packets) goes nowhere: the process does not read it
            pass
    except OSError as exc:
        log.debug("foreground command's client went away: %s", exc)
    finally:
        for stop in reversed(hangup):
            try:
                stop()
            except Exception:  # one failing cleanup must not keep the others from running
                log.exception("stopping a foreground command failed")
        if v2:
            with contextlib.suppress(OSError):
                conn.send(proto.packet(proto.EXIT, bytes([129])))  # killed by SIGHUP: 128 + 1
