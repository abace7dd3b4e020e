"""A real multi-node Ray cluster on this machine, loopback only, for the ``--ray`` tests.

Importing this module (before anything imports ``ray``) sets Ray's environment so its node-IP lookup
answers 127.0.0.1; every node is also started with ``node_ip_address="127.0.0.1"``, no dashboard, a
small object store and its own temp folder (no stale ``/tmp/ray`` session can interfere). The driver
(this pytest process) connects to the head. :func:`open_sockets` lists the internet sockets of the
cluster's processes, read from /proc, so a test can assert they all stay inside 127.0.0.0/8.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import struct
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.ray_env import LOOPBACK, is_loopback, prepare_loopback

prepare_loopback()


@contextmanager
def short_temp_dir() -> Iterator[Path]:
    """A fresh folder with a short path, removed afterwards. Ray puts AF_UNIX sockets (at most 107 bytes
    of path) inside a node's temp folder, and pytest's own tmp paths get too long under pytest-xdist
    (``.../pytest-N/popen-gwN/...``)."""
    path = Path(tempfile.mkdtemp(prefix="dp-ray-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)

# Short health checks: a killed node is noticed in about a second instead of Ray's default 15 s or so.
SYSTEM_CONFIG = {"health_check_initial_delay_ms": 0, "health_check_period_ms": 300,
                 "health_check_failure_threshold": 3}
NODE_DEFAULTS: dict[str, Any] = {"node_ip_address": LOOPBACK, "num_cpus": 1,
                                 "object_store_memory": 80 * 1024 * 1024}


@dataclass
class LoopbackCluster:
    """A ``ray.cluster_utils.Cluster`` whose nodes all use 127.0.0.1, with the driver connected."""

    temp_dir: Path
    cluster: Any = None
    nodes: dict[str, Any] = field(default_factory=dict)  # name -> ray._private.node.Node

    def start(self, head: dict[str, Any], workers: dict[str, dict[str, Any]]) -> LoopbackCluster:
        """Start the head node (``head``: extra node args) and the named worker nodes, then connect."""
        import ray
        from ray._private.utils import get_ray_address_file
        from ray.cluster_utils import Cluster

        self.temp_dir.mkdir(parents=True, exist_ok=True)
        # Ray records the head's address in its default temp folder (/tmp/ray) even for a head given a
        # folder of its own, and fails if that folder is missing, as on a machine that never ran Ray.
        Path(get_ray_address_file(None)).parent.mkdir(parents=True, exist_ok=True)
        self.cluster = Cluster(initialize_head=False)
        self.nodes["head"] = self.cluster.add_node(
            **{**NODE_DEFAULTS, "include_dashboard": False, "temp_dir": str(self.temp_dir),
               "_system_config": SYSTEM_CONFIG, **head})
        for name, args in workers.items():
            self.add(name, **args)
        ray.init(address=self.cluster.address, log_to_driver=False)
        return self

    def add(self, name: str, **args: Any) -> Any:
        """Add a worker node called ``name``."""
        node = self.cluster.add_node(**{**NODE_DEFAULTS, **args})
        self.nodes[name] = node
        return node

    def node_id(self, name: str) -> str:
        """The Ray node id (hex) of node ``name``."""
        return self.nodes[name].node_id

    def name_of(self, node_id: str) -> str:
        """The name of the node with Ray id ``node_id``."""
        return next(name for name, node in self.nodes.items() if node.node_id == node_id)

    def kill(self, name: str) -> None:
        """Kill every process of worker node ``name`` at once (no graceful shutdown)."""
        self.cluster.remove_node(self.nodes.pop(name), allow_graceful=False)

    def address(self) -> str:
        """The GCS address a driver passes to ``--ray``."""
        return str(self.cluster.address)

    def shutdown(self) -> None:
        import ray

        ray.shutdown()
        self.cluster.shutdown()

    def pids(self) -> set[int]:
        """The processes of this cluster (those naming its temp folder, and their descendants)."""
        marker = str(self.temp_dir).encode()
        table = _processes()
        return _below({pid for pid, (_, cmdline) in table.items() if marker in cmdline}, table)


def _processes() -> dict[int, tuple[int, bytes]]:
    """pid -> (parent pid, command line) of every process, from /proc."""
    table: dict[int, tuple[int, bytes]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        table[int(entry)] = (int(stat.rsplit(")", 1)[1].split()[1]), cmdline)
    return table


def _below(roots: set[int], table: dict[int, tuple[int, bytes]]) -> set[int]:
    found, grew = set(roots), True
    while grew:
        more = {pid for pid, (ppid, _) in table.items() if ppid in found} - found
        found |= more
        grew = bool(more)
    return found


def _inodes(pid: int) -> set[str]:
    out: set[str] = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return out
    for fd in fds:
        try:
            match = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue
        if match:
            out.add(match.group(1))
    return out


def _address(text: str) -> tuple[str, int]:
    host, port = text.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, struct.pack("<I", int(host, 16))), int(port, 16)
    raw = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
    return socket.inet_ntop(socket.AF_INET6, raw), int(port, 16)


@dataclass(frozen=True)
class Sock:
    """One internet socket of a process: protocol, local and remote address, TCP state (hex)."""

    proto: str
    local: tuple[str, int]
    remote: tuple[str, int]
    state: str

    def loopback_only(self) -> bool:
        """Whether it listens on / talks to nothing outside 127.0.0.0/8 (an unconnected remote is 0)."""
        remote_ok = self.remote[1] == 0 or is_loopback(self.remote[0])
        return is_loopback(self.local[0]) and remote_ok


def open_sockets(pids: set[int]) -> list[Sock]:
    """Every TCP/UDP (v4 and v6) socket held by ``pids``, from /proc/net."""
    inodes: set[str] = set()
    for pid in pids:
        inodes |= _inodes(pid)
    found: list[Sock] = []
    for proto in ("tcp", "tcp6", "udp", "udp6"):
        try:
            lines = Path(f"/proc/net/{proto}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 9 and parts[9] in inodes:
                found.append(Sock(proto, _address(parts[1]), _address(parts[2]), parts[3]))
    return found


def descendants(root: int) -> set[int]:
    """``root`` and every process below it (a driver that started its own local Ray)."""
    return _below({root}, _processes())
