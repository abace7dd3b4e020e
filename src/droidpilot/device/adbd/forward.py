"""Host port forwarding (`adb forward`): a loopback listener whose connections reach a port on a phone.

``host-serial:SERIAL:forward:tcp:LOCAL;tcp:REMOTE`` binds LOCAL on the host (0 picks a free port, which
is sent back); each connection accepted there is joined to REMOTE on the phone, as if the client had
asked for the ``tcp:REMOTE`` device service. ``list-forward``, ``killforward:LOCAL`` and
``killforward-all`` manage them, with adb's replies.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from dataclasses import dataclass, field

from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.ports import parse_tcp

log = logging.getLogger(__name__)


class ForwardError(Exception):
    """A forward request adb would refuse; the text goes back after FAIL."""


@dataclass
class _Forward:
    phone: Phone
    local: str
    remote: str
    listener: socket.socket
    thread: threading.Thread | None = field(default=None)


class Forwards:
    """The forwards of one adb server, each an accept loop on a loopback port."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self._lock = threading.Lock()
        self._items: dict[str, _Forward] = {}

    def add(self, phone: Phone, spec: str) -> int | None:
        """Install ``[norebind:]LOCAL;REMOTE`` for ``phone``; the bound port when LOCAL was tcp:0."""
        norebind = spec.startswith("norebind:")
        if norebind:
            spec = spec[len("norebind:"):]
        local, sep, remote = spec.partition(";")
        if not sep or not local or not remote:
            raise ForwardError(f"bad forward: '{spec}' (expected LOCAL;REMOTE such as tcp:8000;tcp:9008)")
        try:
            local_port = parse_tcp(local) if local != "tcp:0" else 0
            parse_tcp(remote)
        except ValueError as exc:
            raise ForwardError(f"cannot bind listener: {exc}") from None
        with self._lock:
            if local_port and f"tcp:{local_port}" in self._items:
                old = self._items[f"tcp:{local_port}"]
                if norebind:
                    raise ForwardError("cannot rebind existing socket")
                old.phone, old.remote = phone, remote
                return None
            family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
            listener = socket.socket(family, socket.SOCK_STREAM)
            try:
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                listener.bind((self.host, local_port))
                listener.listen(64)
            except OSError as exc:
                listener.close()
                raise ForwardError(f"cannot bind listener: {exc.strerror or exc}") from None
            bound = listener.getsockname()[1]
            item = _Forward(phone, f"tcp:{bound}", remote, listener)
            item.thread = threading.Thread(target=self._accept, args=(item,), daemon=True,
                                           name=f"adb-forward-{bound}")
            self._items[item.local] = item
        item.thread.start()
        return bound if local_port == 0 else None

    def remove(self, local: str, phone: Phone | None = None) -> None:
        """Stop forwarding ``local``; ForwardError as adb words it when there is no such listener."""
        with self._lock:
            item = self._items.get(local)
            if item is None or (phone is not None and item.phone is not phone):
                raise ForwardError(f"listener '{local}' not found")
            del self._items[local]
        _close(item.listener)

    def remove_all(self, phone: Phone | None = None) -> None:
        """Stop every forward (of ``phone`` only, when given)."""
        with self._lock:
            gone = [k for k, v in self._items.items() if phone is None or v.phone is phone]
            items = [self._items.pop(k) for k in gone]
        for item in items:
            _close(item.listener)

    def listing(self, phone: Phone | None = None) -> str:
        """The body of `adb forward --list`: one ``SERIAL LOCAL REMOTE`` line per forward."""
        with self._lock:
            items = list(self._items.values())
        return "".join(f"{i.phone.serial} {i.local} {i.remote}\n" for i in items
                       if phone is None or i.phone is phone)

    def _accept(self, item: _Forward) -> None:
        while True:
            try:
                client, _ = item.listener.accept()
            except OSError:
                return  # the listener was closed
            threading.Thread(target=self._join, args=(item, client), daemon=True,
                             name=f"adb-forward-conn-{item.local}").start()

    def _join(self, item: _Forward, client: socket.socket) -> None:
        try:
            handler = item.phone.ports.handler(parse_tcp(item.remote))
            if handler is None:
                return  # nothing listens there on the phone: adb closes the connection at once
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            handler(client)
        except OSError as exc:
            log.debug("forwarded connection ended: %s", exc)
        except Exception:  # one connection must never take the forward down
            log.exception("internal error on a forwarded connection")
        finally:
            _close(client)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


def answer(forwards: Forwards, phone: Phone | None, cmd: str) -> bytes:
    """The reply after the first OKAY to ``forward:...``, ``killforward:...`` or ``killforward-all``
    (adb sends a second OKAY once the listener is installed, then the port when it picked one)."""
    if cmd == "killforward-all":
        forwards.remove_all(phone)
        return b"OKAY"
    if cmd.startswith("killforward:"):
        forwards.remove(cmd[len("killforward:"):], phone)
        return b"OKAY"
    if phone is None:
        raise ForwardError("no devices/emulators found")
    port = forwards.add(phone, cmd[len("forward:"):])
    if port is None:
        return b"OKAY"
    text = str(port).encode()
    return b"OKAY" + b"%04x" % len(text) + text
