"""``verify-batch --ray``: verify traces on a Ray cluster with a pool of verifier actors, one JSON line per
trace in completion order, exactly as the process-pool batch writes them.

Each actor loads the rule and builds its OCR engine / LLM judge once, then verifies trace after trace.
With a local Ray (no address) the actors read the traces where they are; on a cluster given by address,
each trace (folder or frame-list file) and the rule file travel as bytes, so the nodes need no shared
filesystem (``--icons-dir`` folders must exist on every node). An actor that dies is restarted and its
trace retried once by Ray; a trace that still fails is reported as an error line and the rest go on.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from droidpilot.errors import DroidpilotError
from droidpilot.ray_env import connect
from droidpilot.tarpack import pack_folder, unpack_folder
from droidpilot.verify.batch import BatchSummary, line_emitter, verify_loaded
from droidpilot.verify.setup import VerifierChoices, build_options

IN_FLIGHT_PER_ACTOR = 2  # one running, one queued: no actor waits for the driver between traces


class TraceVerifier:
    """One verifier worker: the rule and engines, loaded once; verifies the traces it is sent."""

    def __init__(self, rule_name: str, rule_bytes: bytes, choices: VerifierChoices,
                 with_decisions: bool) -> None:
        from droidpilot.verify.spec import load_rule

        self.tmp = Path(tempfile.mkdtemp(prefix="droidpilot-verify-"))
        rule_path = self.tmp / Path(rule_name).name
        rule_path.write_bytes(rule_bytes)
        spec_log = logging.getLogger("droidpilot.verify.spec")
        spec_log.setLevel(logging.ERROR)  # the driver has shown the rule's warnings once already
        self.task = load_rule(rule_path)
        self.options = build_options(choices)
        self.with_decisions = with_decisions
        self.verified = 0

    def info(self) -> dict[str, Any]:
        """Who this worker is and how much it did: pid, Ray node, traces verified, OCR engine in use."""
        import ray

        engine = self.options.ocr_engine
        return {"pid": os.getpid(), "node": ray.get_runtime_context().get_node_id(),
                "verified": self.verified, "ocr": type(engine).__name__ if engine is not None else None}

    def verify(self, trace: str, blob: bytes | None) -> dict[str, Any]:
        """The JSON line of ``trace``: read in place (``blob`` None) or from its packed bytes."""
        self.verified += 1
        if blob is None:
            return verify_loaded(self.task, self.options, trace, self.with_decisions)
        folder = self.tmp / "trace"
        try:
            unpack_folder(blob, folder)
            inner = folder / Path(trace).name
            path = inner if inner.is_file() else folder
            line = verify_loaded(self.task, self.options, path, self.with_decisions, shown_as=trace)
            if "error" in line:  # name the trace as the driver knows it, not by this worker's copy
                line["error"] = str(line["error"]).replace(str(path), trace)
            return line
        except DroidpilotError as exc:
            return {"trace": trace, "ok": False, "error": str(exc)}
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def run_batch_ray(rule_path: str | Path, traces: list[Path], choices: VerifierChoices, *,
                  address: str | None = None, actors: int = 0, sink: IO[str] | None = None,
                  with_decisions: bool = False,
                  on_done: Callable[[dict[str, Any]], None] | None = None) -> BatchSummary:
    """Verify ``traces`` with ``actors`` verifier actors (0: one per CPU of the cluster) on the Ray
    cluster at ``address`` (None: a loopback-only Ray started for the batch)."""
    summary = BatchSummary()
    emit = line_emitter(summary, sink, on_done)
    ship = address is not None  # a cluster of other machines cannot read the driver's paths
    with connect(address, num_cpus=os.cpu_count() or 1) as ray:
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        count = max(1, min(actors or cpus, len(traces)))
        cls = ray.remote(num_cpus=min(1.0, cpus / count), max_restarts=1, max_task_retries=1)(TraceVerifier)
        rule_bytes = Path(rule_path).read_bytes()

        def start() -> Any:
            return cls.remote(Path(rule_path).name, rule_bytes, choices, with_decisions)

        pool = [start() for _ in range(count)]
        todo = deque(str(t) for t in traces)
        inflight: dict[Any, tuple[int, str, Any]] = {}  # ref -> (slot, trace, the actor it went to)

        def submit(slot: int) -> None:
            trace = todo.popleft()
            blob = pack_folder(Path(trace)) if ship else None
            inflight[pool[slot].verify.remote(trace, blob)] = (slot, trace, pool[slot])

        for slot in range(count):
            for _ in range(IN_FLIGHT_PER_ACTOR):
                if todo:
                    submit(slot)
        while inflight:
            ready, _ = ray.wait(list(inflight), num_returns=1)
            slot, trace, actor = inflight.pop(ready[0])
            try:
                line = ray.get(ready[0])
            except ray.exceptions.RayError as exc:
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
                line = {"trace": trace, "ok": False, "error": f"worker failed: {type(exc).__name__}: {first}"}
                if pool[slot] is actor:  # that actor is gone for good: a fresh one takes its place
                    ray.kill(actor, no_restart=True)
                    pool[slot] = start()
            emit(line)
            if todo:
                submit(slot)
        for actor in pool:
            try:
                summary.workers.append(ray.get(actor.info.remote()))
            except ray.exceptions.RayError:
                continue
            finally:
                ray.kill(actor, no_restart=True)
    return summary
