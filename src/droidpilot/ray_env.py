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
import sys
from collections.abc import Iterator
from typing import Any

from droidpilot.errors import DroidpilotError, InputError

LOOPBACK = "127.0.0.1"
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
    """``address`` as ``ray.init`` takes it (None: a local Ray for the run); InputError when malformed."""
    if address is None or address.strip() == "":
        return None
    address = address.strip()
    if address == "auto" or address.startswith("ray://") or ":" in address:
        return address
    raise InputError(f"--ray {address!r}: expected 'auto', 'ray://HOST:10001' or 'HOST:PORT' of a running "
                     f"Ray head (or --ray with no address for a local Ray started for the run)")


@contextlib.contextmanager
def connect(address: str | None, *, num_cpus: int | None = None) -> Iterator[Any]:
    """Connect to the Ray cluster at ``address``, or start a loopback-only local Ray for the run (no
    dashboard, a 100 MB object store, ``num_cpus`` CPUs); yields ``ray`` and shuts down what it started.

    A driver already connected (``ray.is_initialized()``) is used as it is."""
    address = check_address(address)
    ray = import_ray(local=address is None)
    if ray.is_initialized():
        yield ray
        return
    common: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING,
                              "include_dashboard": False if address is None else None}
    try:
        if address is None:
            ray.init(num_cpus=num_cpus, object_store_memory=OBJECT_STORE_BYTES, _node_ip_address=LOOPBACK,
                     **common)
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


def _check_loopback(ray: Any) -> None:
    """Refuse a local Ray whose node came up on a non-loopback address (ray imported too early)."""
    ips = {n.get("NodeManagerAddress", "") for n in ray.nodes() if n.get("Alive")}
    if not all(is_loopback(ip) for ip in ips):
        ray.shutdown()
        raise DroidpilotError(f"the local Ray came up on {', '.join(sorted(ips))}, not 127.0.0.1: 'ray' was "
                              f"imported before droidpilot could set it up; set "
                              f"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 in the environment")
