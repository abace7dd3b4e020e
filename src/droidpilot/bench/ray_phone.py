"""The Ray actor of a benchmark run: one phone (a SimPhone of its own, or the real phone plugged into the
actor's node) with its OCR engine and verifier, set up once and reused for every task it is given.

The actor writes each trace into a temporary folder on its own node and returns it as tar bytes with the
row, so the driver's ``--out`` need not be shared with the cluster. This module does not import ``ray``:
the runner wraps :class:`PhoneWorker` with ``ray.remote``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from droidpilot.bench.worker import RunConfig, execute_task, setup_worker
from droidpilot.errors import DroidpilotError
from droidpilot.tarpack import pack_folder


def _runtime() -> Any:
    import ray

    return ray.get_runtime_context()


class PhoneWorker:
    """One phone and its engines; a set-up failure is kept as ``fatal`` and reported by :meth:`where`."""

    def __init__(self, spec: str, wid: int, config: RunConfig) -> None:
        self.config = config
        self.fatal = ""
        self.root = Path(tempfile.mkdtemp(prefix="droidpilot-ray-"))
        try:
            self.bench = setup_worker(spec, wid, config)
        except DroidpilotError as exc:
            self.fatal = str(exc)
        except Exception as exc:  # reported to the driver, never a silent dead actor
            self.fatal = f"{type(exc).__name__}: {exc}"

    def where(self) -> dict[str, Any]:
        """Where this actor runs (Ray node id, pid) and its set-up failure, if any."""
        return {"node": _runtime().get_node_id(), "pid": os.getpid(), "fatal": self.fatal}

    def run(self, tid: str) -> tuple[dict[str, Any], bytes, bool]:
        """Run task ``tid``: (its row, its trace folder as tar bytes, whether this actor was restarted)."""
        traces = self.root / self.config.traces_dir
        row = execute_task(self.bench, tid, self.config, traces)
        row["node"] = _runtime().get_node_id()
        folder = traces / tid
        try:
            return row, pack_folder(folder), bool(_runtime().was_current_actor_reconstructed)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
