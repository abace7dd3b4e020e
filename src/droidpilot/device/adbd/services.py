"""The services of the adb server protocol: host requests, transport selection, and device services.

One connection is a sequence of requests: host services answer and usually end it; a transport request
(``host:transport:SERIAL``, ``host:tport:any``...) picks a phone, and the next request on the same
connection is a device service (``shell:``, ``shell,v2,...:``, ``exec:``, ``sync:``) run on that phone.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass

from droidpilot.device.adbd import devsock, foreground, interactive, shell
from droidpilot.device.adbd import forward as fwd
from droidpilot.device.adbd import protocol as proto
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.protocol import Conn, ProtocolError
from droidpilot.device.adbd.sync import serve_sync

SERVER_VERSION = 41  # the adb client/server protocol version of platform-tools 29..36 (1.0.41)
FEATURES = ("shell_v2", "stat_v2", "ls_v2", "fixed_push_mkdir", "fixed_push_symlink_timestamp")
_DEVICE_HOST_CMDS = ("features", "get-state", "get-serialno", "get-devpath", "list-forward")


class ServiceError(Exception):
    """A request the server refuses; the text goes back to the client after FAIL."""


@dataclass
class Session:
    """What one client connection has chosen so far."""

    phone: Phone | None = None


class Services:
    """Answers requests for a fixed set of phones."""

    def __init__(self, phones: list[Phone], may_kill: Callable[[], bool], kill: Callable[[], None],
                 features: tuple[str, ...] = FEATURES) -> None:
        self.phones = phones
        self.features = features
        self.may_kill = may_kill
        self.kill = kill
        self.forwards = fwd.Forwards()

    # ---- transport selection -------------------------------------------------------------------
    def pick(self, how: str, key: str = "") -> Phone:
        """The phone for a serial, a transport id, or any/usb/local; errors worded as adb's."""
        if how == "serial":
            for p in self.phones:
                if p.serial == key:
                    return p
            raise ServiceError(f"device '{key}' not found")
        if how == "id":
            for p in self.phones:
                if str(p.transport_id) == key:
                    return p
            raise ServiceError(f"no device with transport id '{key}'")
        if how == "usb":
            raise ServiceError("no devices found")  # SimPhones are emulator-like (local) transports
        if not self.phones:
            raise ServiceError("no emulators found" if how == "local" else "no devices/emulators found")
        if len(self.phones) > 1:
            raise ServiceError("more than one emulator" if how == "local"
                               else "more than one device/emulator")
        return self.phones[0]

    def _split_prefixed(self, request: str) -> tuple[Phone | None, str, bool]:
        """(phone chosen by a host-serial:/host-transport-id:/host-usb: prefix, rest, had such prefix)."""
        if request.startswith("host-serial:"):
            rest = request[len("host-serial:"):]
            serials = sorted((p.serial for p in self.phones), key=len, reverse=True)
            serial = next((s for s in serials if rest.startswith(s + ":")), rest.split(":", 1)[0])
            return self.pick("serial", serial), rest[len(serial) + 1:], True
        if request.startswith("host-transport-id:"):
            tid, _, rest = request[len("host-transport-id:"):].partition(":")
            return self.pick("id", tid), rest, True
        for how in ("usb", "local"):
            if request.startswith(f"host-{how}:"):
                return self.pick(how), request[len(how) + 6:], True
        return None, request[len("host:"):], False

    # ---- host services -------------------------------------------------------------------------
    def handle(self, conn: Conn, request: str, session: Session) -> bool:
        """Answer one request; True when the connection continues with another request."""
        try:
            if session.phone is not None:
                if request.startswith(("host:forward", "host:killforward", "host:list-forward")):
                    return self._device_host(conn, session.phone, request[5:])  # on the chosen transport
                self.device_service(conn, session.phone, request)
                return False
            if not request.startswith("host"):
                session.phone = self.pick("any")
                self.device_service(conn, session.phone, request)
                return False
            return self.host_service(conn, request, session)
        except ServiceError as exc:
            conn.fail(str(exc))
            return False

    def host_service(self, conn: Conn, request: str, session: Session) -> bool:
        """Host services and transport switches; True if the client will send a device service next."""
        phone, cmd, prefixed = self._split_prefixed(request)
        if cmd in ("version",):
            conn.okay(f"{SERVER_VERSION:04x}")
        elif cmd in ("devices", "devices-l"):
            conn.okay(self.device_list(cmd == "devices-l"))
        elif cmd in ("track-devices", "track-devices-l"):
            conn.okay()
            conn.send(proto.block(self.device_list(cmd.endswith("-l"))))
            _wait_closed(conn)
        elif cmd in ("features", "host-features"):
            if cmd == "features" and phone is None:
                phone = self.pick("any")
            conn.okay(",".join(self.features))
        elif cmd == "kill":
            if self.may_kill():
                conn.okay()
                self.kill()
            else:
                conn.fail("this SimPhone server refuses host:kill (--refuse-kill); stop it with Ctrl-C")
        elif cmd.startswith(("transport", "tport:")):
            return self._switch(conn, cmd, session)
        elif cmd in _DEVICE_HOST_CMDS or cmd.startswith(("wait-for-", "forward", "killforward")):
            return self._device_host(conn, phone if prefixed else None, cmd)
        elif cmd.startswith(("connect:", "disconnect", "reconnect", "pair:")):
            conn.okay(f"SimPhone server: '{cmd.split(':', 1)[0]}' is not supported (devices are simulated)")
        elif cmd in ("server-status", "mdns:check", "mdns:services"):
            conn.okay("" if cmd != "mdns:check" else "ERROR: mdns daemon unavailable")
        else:
            conn.fail(f"unknown host service '{cmd}'")
        return False

    def _switch(self, conn: Conn, cmd: str, session: Session) -> bool:
        tport = cmd.startswith("tport:")
        what = cmd[len("tport:"):] if tport else cmd[len("transport"):].lstrip("-:")
        if what.startswith("serial:"):
            phone = self.pick("serial", what[len("serial:"):])
        elif cmd.startswith("transport:"):
            phone = self.pick("serial", cmd[len("transport:"):])
        elif cmd.startswith("transport-id:") or what.startswith("id:"):
            phone = self.pick("id", what.split(":", 1)[1])
        elif what in ("any", "usb", "local"):
            phone = self.pick(what)
        else:
            raise ServiceError(f"unknown host service '{cmd}'")
        conn.okay()
        if tport:
            conn.send(struct.pack("<Q", phone.transport_id))
        session.phone = phone
        return True

    def _device_host(self, conn: Conn, phone: Phone | None, cmd: str) -> bool:
        if cmd.startswith("wait-for-"):
            kind = cmd[len("wait-for-"):].split("-", 1)[0]
            if cmd.endswith("-disconnect"):
                raise ServiceError("SimPhones never disconnect")
            if phone is None:
                self.pick(kind if kind in ("usb", "local") else "any")
            conn.okay()
            conn.okay()
            return False
        if cmd == "list-forward":
            conn.okay(self.forwards.listing(phone))
            return False
        if cmd.startswith(("forward", "killforward")):
            try:
                reply = fwd.answer(self.forwards, phone or (self.pick("any") if cmd.startswith("forward")
                                                             else None), cmd)
            except fwd.ForwardError as exc:
                raise ServiceError(str(exc)) from None
            conn.okay()
            conn.send(reply)
            return False
        phone = phone or self.pick("any")
        answers = {"get-state": "device", "get-serialno": phone.serial, "get-devpath": "simulated",
                   "features": ",".join(self.features)}
        conn.okay(answers[cmd])
        return False

    def device_list(self, long: bool) -> str:
        """The body of `adb devices` (tab separated) or `adb devices -l` (padded, with attributes)."""
        if long:
            return "".join(f"{p.serial:<22} device {p.describe()}\n" for p in self.phones)
        return "".join(f"{p.serial}\tdevice\n" for p in self.phones)

    # ---- device services -----------------------------------------------------------------------
    def device_service(self, conn: Conn, phone: Phone, request: str) -> None:
        """shell:, shell,v2,...:, exec:, sync: and the small adbd services, on the chosen phone."""
        name, _, arg = request.partition(":")
        opts = name.split(",")
        phone.catch_up()
        if opts[0] == "shell":
            conn.okay()
            self._shell(conn, phone, arg, "v2" in opts[1:] and "shell_v2" in self.features, "raw" not in opts)
        elif name == "exec":
            conn.okay()
            if arg.strip():
                self._shell(conn, phone, arg, False, False)
        elif name in devsock.SOCKET_SERVICES:
            try:
                handler = devsock.resolve(phone, request)
            except devsock.SocketRefused as exc:
                raise ServiceError(str(exc)) from None
            conn.okay()
            handler(conn.sock)
        elif name == "sync":
            conn.okay()
            serve_sync(conn, phone.fs)
        elif name == "root":
            conn.okay()
            conn.send(b"adbd cannot run as root in production builds\n")
        elif name == "unroot":
            conn.okay()
            conn.send(b"adbd not running as root\n")
        elif name in ("remount", "reboot", "tcpip", "usb", "reverse", "framebuffer", "jdwp"):
            raise ServiceError(f"'{name}' is not supported by SimPhone")
        else:
            raise ServiceError(f"unknown service '{name}'")

    def _shell(self, conn: Conn, phone: Phone, cmd: str, v2: bool, pty: bool) -> None:
        if cmd.strip():
            sh = shell.new_shell(phone)
            sh.hangup = []
            res = sh.run(cmd)
            if sh.hangup:  # a program still runs in the foreground: it lives until the client hangs up
                foreground.hold(conn, res, v2, sh.hangup)
                return
            conn.send(proto.shell_v2_reply(res.out, res.err, res.code) if v2 else res.merged)
        elif v2:
            interactive.serve_v2(conn, phone, pty)
        else:
            interactive.serve_terminal_v1(conn, phone)


def _wait_closed(conn: Conn) -> None:
    """Hold a tracking connection open until the client leaves (SimPhones never come or go)."""
    try:
        conn.sock.settimeout(None)
        while conn.sock.recv(4096):
            pass
    except (OSError, ProtocolError):
        pass
