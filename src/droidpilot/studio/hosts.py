"""Which Host (and Origin) names the studio answers to: its own addresses only, against DNS rebinding.

A web page can rebind its own name to 127.0.0.1 and then read and drive a loopback server from the
browser: the request arrives with ``Host: evil.example:PORT``. The studio answers only to the names it
serves on (``localhost``, ``127.0.0.1``, ``[::1]``, the bound address; any IP literal when bound to every
address), on its own port, plus names the user allows (``--allow-host NAME`` for any port,
``NAME:PORT`` for one), as Jupyter does with ``local_hostnames``.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from droidpilot.errors import InputError

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_NAME = re.compile(r"[a-z0-9]([a-z0-9._-]{0,251}[a-z0-9])?")  # a DNS name or IPv4 literal, lower case
MAX_HOST = 300  # characters of a Host header worth reading


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def split_host(value: str, default_port: int | None) -> tuple[str, int | None] | None:
    """(lower-case name without brackets or trailing dot, port) of ``host[:port]``; None when malformed."""
    text = value.strip().lower()
    if not text or len(text) > MAX_HOST:
        return None
    if text.startswith("["):  # [v6] or [v6]:port
        end = text.find("]")
        name, rest = text[1:end], text[end + 1:]
        if end < 0 or _ip(name) is None or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else None
    else:
        name, sep, port_text_raw = text.rpartition(":")
        if not sep:
            name, port_text_raw = text, ""
        port_text = port_text_raw if sep else None
        name = name[:-1] if name.endswith(".") else name  # "localhost." is localhost
        if not _NAME.fullmatch(name):
            return None
    if port_text is None:
        return name, default_port
    if not port_text.isdigit() or len(port_text) > 5 or not 0 < int(port_text) < 65536:
        return None
    return name, int(port_text)


def _shown(value: str) -> str:
    return repr(value if len(value) <= 80 else value[:80] + "...")


@dataclass
class HostPolicy:
    """The names the studio at ``bound``:``port`` answers to; ``allowed`` holds user-given NAME[:PORT]."""

    bound: str
    port: int
    allowed: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        bound = self.bound.strip("[]").lower()
        ip = _ip(bound)
        self.any_ip = ip is not None and ip.is_unspecified  # 0.0.0.0 or ::
        self.names = set(LOOPBACK_NAMES) | ({bound} if not self.any_ip else {socket.gethostname().lower()})
        self.extra: set[tuple[str, int | None]] = set()
        for entry in self.allowed:
            parsed = split_host(entry, None)
            if parsed is None:
                raise InputError(f"--allow-host {entry!r} is not a host name or address (NAME or NAME:PORT, "
                                 "[IPv6]:PORT)")
            self.extra.add(parsed)

    def host_ok(self, name: str, port: int | None) -> bool:
        """Whether a request for ``name:port`` is meant for this studio."""
        if (name, None) in self.extra or (name, port) in self.extra:
            return True
        if port != self.port:
            return False
        return name in self.names or (self.any_ip and _ip(name) is not None)

    def check_host(self, header: str | None) -> str | None:
        """Why a request with this Host header is refused (None: it is accepted)."""
        if header is None:
            return "the request has no Host header; send one naming the studio's address"
        parsed = split_host(header, 80)
        if parsed is None or not self.host_ok(*parsed):
            return (f"refused a request for host {_shown(header)}: this studio answers only to "
                    f"{self.describe()} (another site's page may be trying DNS rebinding); to reach it "
                    f"under that name, start it with --allow-host NAME or --allow-host NAME:PORT")
        return None

    def check_origin(self, origin: str | None) -> str | None:
        """Why a request from this Origin is refused (None: no Origin, or one of the studio's own)."""
        if origin is None:
            return None
        parts = urlsplit(origin.strip()) if len(origin) <= MAX_HOST else None
        default = {"http": 80, "https": 443}.get(parts.scheme) if parts else None
        parsed = split_host(parts.netloc, default) if parts and default and parts.netloc else None
        if parsed is None or not self.host_ok(*parsed):
            return (f"refused a request from origin {_shown(origin)}: only pages of this studio "
                    f"({self.describe()}) may call it; to allow a page served under another name, start "
                    f"the studio with --allow-host NAME or --allow-host NAME:PORT")
        return None

    def describe(self) -> str:
        """The accepted names, for messages."""
        shown = sorted(f"[{n}]" if ":" in n else n for n in self.names)
        text = f"{', '.join(shown)}{' or any IP address' if self.any_ip else ''} on port {self.port}"
        if self.extra:
            extra = sorted(f"{n}:{p}" if p else n for n, p in self.extra)
            text += f", and {', '.join(extra)}"
        return text
