"""Run a suite on a Ray cluster: one phone actor per SimPhone (or per real phone, on the node it is
plugged into), tasks handed out one at a time, results streamed back with ``ray.wait``.

The driver alone writes ``results.json`` / ``results.csv`` through the same :class:`Ledger` as the local
runner, and unpacks each trace (returned as bytes) into its own ``--out``, so nothing is lost when a node
disappears. A task whose actor dies (its process or its node) is retried once by Ray, on a restarted
actor; if that fails too it is recorded as an error and a fresh actor takes the next task. A real phone
whose node has left the cluster (its ``phone:SERIAL`` resource is gone) cannot be waited for: its task is
recorded as an error and the phone is dropped.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.ledger import Emit, Ledger, RunOutcome, drive
from droidpilot.bench.ray_phone import PhoneWorker
from droidpilot.bench.worker import RunConfig
from droidpilot.errors import DroidpilotError
from droidpilot.ray_env import connect
from droidpilot.tarpack import unpack_folder

RETRIES = 1  # Ray's own: one actor restart, one retry of the task that was running
_AGAIN = "again:"  # marks the where() call that waits for a restarted actor before a task's retry


def phone_resource(serial: str) -> str:
    """The Ray custom resource a node offers for the real phone ``serial`` (``ray start --resources``)."""
    return f"phone:{serial}"


@dataclass
class _Slot:
    """One phone actor and what it is doing."""

    wid: int
    spec: str
    actor: Any = None
    node: str = ""
    task: str | None = None
    ref: Any = None
    gone: bool = False

    @property
    def pinned(self) -> str | None:
        return None if self.spec == "sim" else phone_resource(self.spec)


def run_suite_ray(config: RunConfig, devices: Sequence[str], *, address: str | None = None,
                  task_ids: list[str] | None = None, resume: bool = False, on_event: Emit | None = None,
                  poll_s: float = 1.0) -> RunOutcome:
    """Run the suite's tasks (or ``task_ids``) as Ray work: "sim" entries are SimPhone actors, other
    entries real phones pinned by their ``phone:SERIAL`` resource. ``address`` as ``ray.init`` takes it;
    None starts a loopback-only Ray for the run."""
    def dispatch(config: RunConfig, ledger: Ledger, emit: Emit) -> None:
        with connect(address, num_cpus=max(len(devices), os.cpu_count() or 1)) as ray:
            _Driver(ray, config, devices, ledger, emit, poll_s).run()

    return drive(config, devices, task_ids, resume, on_event, dispatch)


class _Driver:
    """The scheduling loop: keep every live phone busy, record each result as it arrives."""

    def __init__(self, ray: Any, config: RunConfig, devices: Sequence[str], ledger: Ledger, emit: Emit,
                 poll_s: float) -> None:
        self.ray, self.config, self.ledger, self.emit, self.poll_s = ray, config, ledger, emit, poll_s
        self.queue: deque[str] = deque(ledger.pending)
        self.slots = [_Slot(i, spec) for i, spec in enumerate(devices[:max(1, min(len(devices),
                                                                                    len(self.queue)))])]
        self.inflight: dict[Any, tuple[_Slot, str]] = {}  # ref -> (slot, "where" | task id)
        self.remote_cls = ray.remote(max_restarts=RETRIES, max_task_retries=RETRIES)(PhoneWorker)
        self.errors: list[str] = []
        self.retried: set[str] = set()

    def _start(self, slot: _Slot) -> None:
        options: dict[str, Any] = {"num_cpus": 1}
        if slot.pinned:  # the phone is the scarce thing; its node's CPUs are not reserved
            options = {"num_cpus": 0, "resources": {slot.pinned: 1}}
            if slot.pinned not in self.ray.cluster_resources():
                self._drop(slot, f"no node of the Ray cluster offers the resource {slot.pinned!r}; start the "
                                 f"node the phone is plugged into with --resources "
                                 f"'{{\"{slot.pinned}\": 1}}'")
                return
        slot.actor = self.remote_cls.options(**options).remote(slot.spec, slot.wid, self.config)
        self.inflight[slot.actor.where.remote()] = (slot, "where")

    def _give(self, slot: _Slot) -> None:
        if not self.queue or slot.gone:
            slot.task = None
            return
        tid = self.queue.popleft()
        slot.task = tid
        slot.ref = slot.actor.run.remote(tid)
        self.inflight[slot.ref] = (slot, tid)
        self.emit("start", {"wid": slot.wid, "task": tid, "device": slot.spec, "node": slot.node})

    def _record(self, slot: _Slot, row: dict[str, Any], key: str) -> None:
        self.ledger.record(row, key)
        self.emit("done", {"wid": slot.wid, "task": key, "row": row})

    def _drop(self, slot: _Slot, message: str) -> None:
        """Give up on a phone: its task in flight is recorded as an error, its actor is ended."""
        slot.gone = True
        self.errors.append(message)
        for ref in [r for r, (s, _) in self.inflight.items() if s is slot]:
            del self.inflight[ref]
        if slot.task is not None:
            tid, slot.task, slot.ref = slot.task, None, None
            self._record(slot, self.ledger.error(tid, message, slot.spec), tid)
        if slot.actor is not None:
            self.ray.kill(slot.actor, no_restart=True)
            slot.actor = None
        self.emit("fatal", {"wid": slot.wid, "message": message})

    def _replace(self, slot: _Slot) -> None:
        if slot.actor is not None:
            self.ray.kill(slot.actor, no_restart=True)
        slot.actor, slot.node = None, ""
        self._start(slot)

    def _arrived(self, ref: Any) -> None:
        slot, what = self.inflight.pop(ref)
        try:
            value = self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            reason = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
            if what == "where":
                self._drop(slot, f"the phone actor could not start: {reason}")
                return
            if what.startswith(_AGAIN):  # the actor could not be brought back: the task is lost
                what = what[len(_AGAIN):]
            elif isinstance(exc, self.ray.exceptions.ActorUnavailableError) and what not in self.retried:
                # Ray spent its retry while the dead node was not yet declared dead; once the actor is
                # restarted (where() answers), the task gets the one retry it is owed
                self.retried.add(what)
                self.inflight[slot.actor.where.remote()] = (slot, _AGAIN + what)
                return
            slot.task = slot.ref = None
            self._record(slot, self.ledger.error(what, f"the Ray worker running this task died "
                                                 f"and its retry failed too ({type(exc).__name__}): {reason}",
                                                 slot.spec), what)
            self._replace(slot)
            return
        if what.startswith(_AGAIN):
            tid = what[len(_AGAIN):]
            slot.ref = slot.actor.run.remote(tid)
            self.inflight[slot.ref] = (slot, tid)
            return
        if what == "where":
            if value["fatal"]:
                self._drop(slot, value["fatal"])
                return
            slot.node = value["node"]
            self.emit("ready", {"wid": slot.wid, "node": slot.node, "device": slot.spec})
            self._give(slot)
            return
        row, blob, restarted = value
        slot.task = slot.ref = None
        try:
            unpack_folder(blob, Path(self.config.out) / self.config.traces_dir / what)
        except DroidpilotError as exc:
            row = self.ledger.error(what, str(exc), slot.spec)
        self._record(slot, row, what)
        if restarted:  # it has used its one restart: a fresh actor gives the next task its own retry
            self._replace(slot)
        else:
            self._give(slot)

    def _check_pinned(self) -> None:
        """A phone whose node left the cluster: its actor can never restart, so stop waiting for it."""
        available = self.ray.cluster_resources()
        for slot in self.slots:
            if slot.pinned and not slot.gone and slot.pinned not in available:
                self._drop(slot, f"the node offering {slot.pinned!r} left the Ray cluster")

    def run(self) -> None:
        try:
            self._loop()
        finally:  # free the cluster's CPUs and phones for whatever runs next
            for slot in self.slots:
                if slot.actor is not None:
                    self.ray.kill(slot.actor, no_restart=True)

    def _fit_to_cluster(self) -> None:
        """No more SimPhone actors than the cluster has CPUs: an actor Ray cannot place would be waited
        for forever."""
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        sims = [s for s in self.slots if not s.pinned]
        if sims and cpus < 1:
            raise DroidpilotError("the Ray cluster has no CPU for SimPhone actors; start its nodes with "
                                  "--num-cpus 1 or more")
        for slot in sims[cpus:]:
            self.slots.remove(slot)
        if len(sims) > cpus:
            self.emit("fatal", {"wid": sims[cpus].wid, "message": f"the Ray cluster has {cpus} CPU(s): "
                                f"running {cpus} SimPhone actors, not {len(sims)}"})

    def _waiting(self) -> bool:
        """Whether anything is left to wait for: a task in flight, or tasks left and a phone starting."""
        tasks = any(what != "where" for _, what in self.inflight.values())
        return tasks or bool(self.queue and self.inflight)

    def _loop(self) -> None:
        self._fit_to_cluster()
        for slot in self.slots:
            self._start(slot)
        while self._waiting():
            ready, _ = self.ray.wait(list(self.inflight), num_returns=1, timeout=self.poll_s)
            for ref in ready:
                self._arrived(ref)
            if not ready and any(s.pinned for s in self.slots):
                self._check_pinned()
            if self.queue and not self.inflight:  # a phone was dropped while others were idle
                for slot in self.slots:
                    if not slot.gone and slot.task is None and slot.actor is not None:
                        self._give(slot)
        if self.queue:
            if all(s.gone for s in self.slots):
                message = "no phone could run this task: " + "; ".join(sorted(set(self.errors)))
            else:
                message = "no phone took this task"
            for tid in list(self.queue):
                self.ledger.record(self.ledger.error(tid, message, ""), tid)
            self.queue.clear()
            if all(s.gone for s in self.slots) and not any(
                    r.get("id") and not r.get("error") for r in self.ledger.rows.values()):
                raise DroidpilotError(message)
