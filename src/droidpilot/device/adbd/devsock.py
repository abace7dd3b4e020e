"""Device socket services (``tcp:PORT``, ``localabstract:NAME``...): a raw stream to a port on the phone.

After ``OKAY`` the adb connection carries the bytes of one connection to whatever listens on that port of
the phone (the uiautomator server on 9008, say). Nothing listening is refused as adb does: ``closed``.
"""

from __future__ import annotations

from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.ports import Handler, parse_tcp

SOCKET_SERVICES = ("tcp", "localabstract", "localreserved", "localfilesystem", "local", "dev")


class SocketRefused(Exception):
    """Nothing accepts that connection on the phone; the text goes back after FAIL."""


def resolve(phone: Phone, request: str) -> Handler:
    """The handler for a ``tcp:PORT`` request on ``phone``; SocketRefused when nothing listens there."""
    if not request.startswith("tcp:"):
        kind = request.split(":", 1)[0]
        raise SocketRefused(f"closed (SimPhone has no {kind} sockets; only tcp:PORT is served)")
    try:
        port = parse_tcp(request)
    except ValueError as exc:
        raise SocketRefused(f"closed ({exc})") from None
    handler = phone.ports.handler(port)
    if handler is None:
        raise SocketRefused(f"closed (nothing listens on tcp:{port} on {phone.serial})")
    return handler
