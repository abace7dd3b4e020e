"""Ray, the optional distributed engine behind ``--ray``: import it (with a clear error naming the ``ray``
extra when it is missing) and connect the driver, loopback-only when Ray is started for the run.

Ray picks the machine's outward interface address as a node's IP unless told otherwise, and resolves
"127.0.0.1" to that same address when the multi-node mode is on. A local Ray started by droidpilot must
use nothing but 127.0.0.1, so :func:`prepare_loopback` sets, before ``ray`` is first imported, the switch
that makes Ray's node-IP lookup answer with the loopback address (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``:
single-machine mode), and :func:`connect` passes ``127.0.0.1`` explicitly and checks the result.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any

from droidpilot.errors import DroidpilotError, InputError

LOOPBACK = "127.0.0.1"
TIMEOUT_ENV = "DROIDPILOT_RAY_TIMEOUT"
DEFAULT_TIMEOUT = 30.0
# An HTTP/2 client's first bytes (the connection preface and an empty SETTINGS frame); a gRPC server
# answers with a SETTINGS frame (frame type 4, the fourth byte of its 9-byte header).
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
_H2_SETTINGS = 4
OBJECT_STORE_BYTES = 100 * 1024 * 1024
_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}
MISSING = ("--ray needs the Python package 'ray', which is not installed; install droidpilot's ray extra "
           "(pip install 'droidpilot[ray]', or make venv) and try again")


def prepare_loopback() -> None:
    """Make a Ray started from this process (and its children) use 127.0.0.1 only, send no usage
    statistics; call before ``ray`` is imported (later calls still reach child processes)."""
    for key, value in _ENV.items():
        os.environ.setdefault(key, value)


def import_ray(*, local: bool = False) -> Any:
    """The ``ray`` module; DroidpilotError naming the ``ray`` extra when it is not installed."""
    if local and "ray" not in sys.modules:
        prepare_loopback()
    try:
        import ray
    except ImportError:
        raise DroidpilotError(MISSING) from None
    return ray


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an IP address, possibly IPv4-mapped IPv6) is in 127.0.0.0/8 or ::1."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def check_address(address: str | None) -> str | None:
    """``address`` as ``ray.init`` takes it (None: a local Ray for the run); InputError when malformed:
    not 'auto', 'HOST:PORT' or 'ray://HOST:PORT' with a port from 1 to 65535."""
    if address is None or address.strip() == "":
        return None
    address = address.strip()
    if address != "auto":
        split_address(address)
    return address


def split_address(address: str) -> tuple[str, int]:
    """(host, port) of ``HOST:PORT``, ``[IPv6]:PORT`` or ``ray://HOST:PORT``; InputError naming what is
    wrong otherwise."""
    expected = ("expected 'auto', 'HOST:PORT' or 'ray://HOST:10001' of a running Ray head (or --ray with "
                "no address for a local Ray started for the run)")
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or any(c.isspace() or c in "/@?#[]" for c in host) or \
            (":" in host and not _is_ip(host)):
        raise InputError(f"--ray {address!r}: not HOST:PORT; {expected}")
    if not port.isascii() or not port.isdigit():
        raise InputError(f"--ray {address!r}: the port {port!r} is not a number; {expected}")
    if not 1 <= int(port) <= 65535:
        raise InputError(f"--ray {address!r}: the port {int(port)} is not from 1 to 65535")
    return host, int(port)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def connect_timeout() -> float:
    """Seconds to wait for a Ray head to answer: DROIDPILOT_RAY_TIMEOUT (default 30, 0.1 to 600)."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not 0.1 <= value <= 600:
        raise InputError(f"{TIMEOUT_ENV}={raw!r}: expected seconds from 0.1 to 600")
    return value


def probe(address: str, timeout: float) -> None:
    """DroidpilotError naming ``address`` unless a gRPC server (as a Ray head's GCS or Ray Client server
    is) answers there within ``timeout`` seconds: connection refused or unreachable, a port that accepts
    but stays silent, and one that answers in another protocol all end here, instead of in Ray's own
    connection retries, which go on for minutes."""
    host, port = split_address(address)
    deadline = time.monotonic() + timeout
    where = f"--ray {address}"
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(_H2_PREFACE)
            reply = b""
            while len(reply) < 9:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(9 - len(reply))
                if not chunk:
                    break
                reply += chunk
    except TimeoutError:
        raise DroidpilotError(f"{where}: no answer from a Ray head within {timeout:g} s (set "
                              f"{TIMEOUT_ENV} to wait longer); is Ray running there ('ray status')?"
                              ) from None
    except OSError as exc:
        raise DroidpilotError(f"{where}: cannot reach a Ray head ({exc.strerror or exc}); start one with "
                              f"'ray start --head' or check the address") from None
    if len(reply) < 9 or reply[3] != _H2_SETTINGS:
        raise DroidpilotError(f"{where}: something answers there, but not a Ray head (no gRPC reply); check "
                              f"the port (the head's GCS is usually 6379, Ray Client 10001)")


@contextlib.contextmanager
def connect(address: str | None, *, num_cpus: int | None = None, timeout: float | None = None
            ) -> Iterator[Any]:
    """Connect to the Ray cluster at ``address``, or start a loopback-only local Ray for the run (no
    dashboard, a 100 MB object store, ``num_cpus`` CPUs); yields ``ray`` and shuts down what it started.
    An address other than 'auto' must answer within ``timeout`` seconds (default: ``connect_timeout()``).

    A driver already connected (``ray.is_initialized()``) is used as it is."""
    address = check_address(address)
    wait = connect_timeout() if timeout is None else timeout
    loopback = address not in (None, "auto") and _loopback_host(address)
    ray = import_ray(local=address is None or loopback)
    if ray.is_initialized():
        yield ray
        return
    if address not in (None, "auto"):
        probe(address, wait)
    common: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING,
                              "include_dashboard": False if address is None else None}
    try:
        if address is None:  # "local": a Ray of its own, even when another cluster runs on this machine
            ray.init(address="local", num_cpus=num_cpus, object_store_memory=OBJECT_STORE_BYTES,
                     _node_ip_address=LOOPBACK, **common)
            _check_loopback(ray)
        else:
            common.pop("include_dashboard")
            ray.init(address=address, **common)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise DroidpilotError(f"--ray {address or '(local)'}: cannot connect to Ray: {exc}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def _loopback_host(address: str) -> bool:
    """Whether ``address`` names this machine's loopback (then Ray must not swap in the outward IP)."""
    host = split_address(address)[0]
    return host == "localhost" or is_loopback(host)


def _check_loopback(ray: Any) -> None:
    """Refuse a local Ray whose node came up on a non-loopback address (ray imported too early)."""
    ips = {n.get("NodeManagerAddress", "") for n in ray.nodes() if n.get("Alive")}
    if not all(is_loopback(ip) for ip in ips):
        ray.shutdown()
        raise DroidpilotError(f"the local Ray came up on {', '.join(sorted(ips))}, not 127.0.0.1: 'ray' was "
                              f"imported before droidpilot could set it up; set "
                              f"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 in the environment")
