"""One studio session per phone: frames pushed to every viewer on change, one controller at a time.

Viewers are WebSocket connections; each gets a binary message per new frame (4-byte big-endian header
length, a JSON header, then a JPEG of the screen) and JSON text messages for everything else (status,
agent steps). A SimPhone tells the session when it changed (``WatchedDevice``); a real phone is polled.
Only the controller may operate the phone, record, or start and steer an agent; the others watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import struct
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.device.base import Device, DeviceError
from droidpilot.studio import startstate
from droidpilot.studio.agent_run import AgentRun, AgentSettings
from droidpilot.studio.errors import Conflict, StudioError
from droidpilot.studio.inputs import shown
from droidpilot.studio.inspect import UiTree
from droidpilot.studio.manual import execute, faithful, resolve
from droidpilot.studio.recording import Recording
from droidpilot.studio.replay import frame_reader, replay
from droidpilot.studio.watched import WatchedDevice

MAX_QUEUE = 64  # messages waiting for a slow viewer before frames are dropped for it
MAX_PENDING = 1000  # messages waiting for a viewer that stopped reading before anything is dropped for it


@dataclass
class Viewer:
    """One connected page; ``queue`` holds messages (bytes: a frame, str: JSON) to send it."""

    id: str
    queue: asyncio.Queue[bytes | str] = field(default_factory=asyncio.Queue)


class PhoneSession:
    """The shared state of one phone in the studio."""

    def __init__(self, pid: str, device: Device, *, out_root: Path, settle_s: float = 0.0,
                 ocr: Callable[[], Any] | None = None, poll_s: float = 0.5, max_side: int = 1200,
                 quality: int = 80, seed: int = 0) -> None:
        self.pid = pid
        self.seed = seed  # the seed a fresh recording starts from unless it asks for another
        self.device = WatchedDevice(device)
        self.out_root = Path(out_root)
        self.settle_s = settle_s
        self.ocr = ocr
        self.poll_s = poll_s
        self.max_side = max_side
        self.quality = quality
        self.size = self.device.size()
        self.viewers: dict[str, Viewer] = {}
        self.controller: str | None = None
        self.recording: Recording | None = None
        self._start: startstate.StartState | None = None
        self.agent: AgentRun | None = None
        self.steps: deque[dict[str, Any]] = deque(maxlen=100)
        self.seq = 0
        self.frame: bytes | None = None
        self._digest = b""
        self._mutex = threading.RLock()
        self._record_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._dirty: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    # -- lifecycle --------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start pushing frames (call from the server's event loop)."""
        self._loop = asyncio.get_running_loop()
        self._dirty = asyncio.Event()
        self._dirty.set()
        self.device.subscribe(self._poke)
        self._task = asyncio.create_task(self._pump())

    async def close(self) -> None:
        if self.agent and self.agent.state != "finished":
            self.agent.stop()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _poke(self) -> None:
        if self._loop is not None and self._dirty is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                self._loop.call_soon_threadsafe(self._dirty.set)

    async def _pump(self) -> None:
        assert self._dirty is not None
        while True:
            timeout = None if self.device.pushes else self.poll_s
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), timeout)
            self._dirty.clear()
            if not self.viewers and self.frame is not None:
                self._digest = b""  # render afresh for the next viewer
                continue
            try:
                frame = await asyncio.to_thread(self._render)
            except Exception as exc:  # a phone gone away: tell the viewers, keep trying
                self._broadcast(json.dumps({"type": "error", "message": f"cannot read the screen: {exc}"}))
                await asyncio.sleep(max(self.poll_s, 1.0))
                continue
            if frame is not None:
                self.frame = frame
                self._broadcast(frame)

    def _render(self) -> bytes | None:
        """The current screen as a frame message, or None when it has not changed."""
        noticed = time.time()
        with self.device.lock:
            version, changed = self.device.version, self.device.changed_at
            image = self.device.screenshot()
        factor = -(-max(image.size) // self.max_side)  # a whole factor: box-averaging is fast
        shown = image.reduce(factor) if factor > 1 else image
        buffer = io.BytesIO()
        shown.convert("RGB").save(buffer, format="JPEG", quality=self.quality)
        digest = hashlib.blake2b(buffer.getvalue(), digest_size=16).digest()
        if digest == self._digest:  # the same pixels give the same JPEG: nothing new to show
            return None
        self._digest = digest
        self.seq += 1
        header = json.dumps({"seq": self.seq, "version": version, "changed": changed, "noticed": noticed,
                             "sent": time.time(),
                             "size": list(image.size), "view": list(shown.size)}).encode()
        return struct.pack(">I", len(header)) + header + buffer.getvalue()

    # -- viewers ----------------------------------------------------------------------------------
    def connect(self) -> Viewer:
        """A new viewer, greeted with its id, the status, the recent steps and the current frame."""
        viewer = Viewer(uuid.uuid4().hex[:12])
        self.viewers[viewer.id] = viewer
        viewer.queue.put_nowait(json.dumps({"type": "hello", "client": viewer.id, "phone": self.pid,
                                            "serial": self.device.serial, "size": list(self.size)}))
        for step in list(self.steps):
            viewer.queue.put_nowait(json.dumps(step))
        if self.frame is not None:
            viewer.queue.put_nowait(self.frame)
        self._poke()
        self.publish_status()
        return viewer

    def disconnect(self, viewer: Viewer) -> None:
        """Forget a viewer; a controller that leaves gives up control (a running agent goes on)."""
        self.viewers.pop(viewer.id, None)
        with self._mutex:
            if self.controller == viewer.id:
                self.controller = None
        self.publish_status()

    def _broadcast(self, message: bytes | str) -> None:
        for viewer in list(self.viewers.values()):
            waiting = viewer.queue.qsize()
            if (isinstance(message, bytes) and waiting > MAX_QUEUE) or waiting > MAX_PENDING:
                continue  # a slow viewer skips frames; one that stopped reading cannot grow memory
            viewer.queue.put_nowait(message)

    def emit(self, event: dict[str, Any]) -> None:
        """Send a JSON event to every viewer (from any thread)."""
        if event.get("type") == "step":
            self.steps.append(event)
        text = json.dumps(event, ensure_ascii=False, default=str)
        if self._loop is None:
            return
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._broadcast, text)
        if event.get("type") == "agent":
            self.publish_status()

    def status(self) -> dict[str, Any]:
        """Who controls the phone, and what is being recorded or run."""
        return {"type": "status", "phone": self.pid, "serial": self.device.serial, "size": list(self.size),
                "controller": self.controller, "viewers": len(self.viewers),
                "recording": self.recording.summary() if self.recording else None,
                "agent": self.agent.describe() if self.agent else None}

    def publish_status(self) -> None:
        text = json.dumps(self.status(), ensure_ascii=False, default=str)
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._broadcast, text)

    # -- control ----------------------------------------------------------------------------------
    def take_control(self, client: Any, force: bool = False) -> None:
        """Make ``client`` the controller, if nobody else is; ``force`` takes it from another viewer (a tab
        left open elsewhere), which then only watches."""
        with self._mutex:
            if not isinstance(client, str) or client not in self.viewers:
                raise StudioError(f"unknown client {shown(client)}: open the phone's page first")
            if self.controller not in (None, client) and self.controller in self.viewers and not force:
                raise Conflict("another viewer controls this phone; ask them to release it, or take control "
                               "from them (force)")
            self.controller = client
        self.publish_status()

    def release(self, client: Any) -> None:
        with self._mutex:
            self._require(client)
            self.controller = None
        self.publish_status()

    def _require(self, client: Any) -> None:
        if not isinstance(client, str) or client != self.controller:
            raise Conflict("you do not control this phone: take control first (others only watch)")

    # -- manual operation and recording -----------------------------------------------------------
    def operate(self, client: Any, op: dict[str, Any]) -> dict[str, Any]:
        """Carry out a manual operation (blocking; call from a worker thread)."""
        self._require(client)
        run = self.agent
        if run is not None and run.state == "running":
            raise Conflict("the agent is operating this phone: take over first")
        if run is not None and run.state in ("pausing", "paused") and not run.parked.wait(60):
            raise Conflict("the agent is still finishing its step; try again")
        with self._record_lock:  # a recorded click is described after its tap, before the next operation
            with self.device.lock:
                recording = self.recording
                manual = resolve(op, self.size)
                if manual.action.name == "type":
                    self._check_focus()
                taken = run is not None and run.state in ("pausing", "paused")
                keep = recording is not None or taken
                xml = self._xml() if keep else None
                before = self.device.screenshot() if keep else None
                try:
                    execute(self.device, manual)
                except DeviceError as exc:
                    raise StudioError(f"the phone refused {manual.action.format()!r}: {exc}") from None
            frame = None
            if before is not None:  # OCR and icon search run while the new frame is already shown
                manual = faithful(manual, before, self.ocr() if self.ocr else None)
                if recording is not None:
                    frame = recording.add(before, xml, manual)
                if taken and run is not None:
                    run.record_manual(before, xml, manual)
        if recording:
            self.publish_status()
        return {"ok": True, **manual.describe(), "frame": frame}

    def _check_focus(self) -> None:
        """Refuse to type when the UI dump shows no focused element (the text would go nowhere)."""
        xml = self._xml()
        if xml is None:
            return  # no dump: the phone alone can tell
        try:
            focused = any(n.attrs.get("focused") == "true" for n in UiTree.parse(xml).nodes)
        except StudioError:
            return
        if not focused:
            raise StudioError("nothing on the screen is focused, so the text would go nowhere: tap a text "
                              "field first")

    def _xml(self) -> str | None:
        try:
            return self.device.ui_xml()
        except DeviceError:
            return None

    def start_recording(self, client: Any, body: dict[str, Any]) -> dict[str, Any]:
        """Start recording; a SimPhone is first put in a fresh start state (``startstate``) unless the
        request says ``start: current``, so the demonstration can be replayed after Stop."""
        self._require(client)
        instruction = body.get("instruction")
        if not isinstance(instruction, str) or not instruction.strip():
            raise StudioError("field 'instruction' must say what the demonstration does")
        app_name = body.get("app_name") or ""
        if not isinstance(app_name, str):
            raise StudioError(f"field 'app_name' must be a string, got {shown(app_name)}")
        start = startstate.from_request(body, self.device.inner, self.seed)
        with self._mutex:
            if self.recording is not None:
                raise Conflict("a recording is already running on this phone")
            if self.agent is not None and self.agent.state != "finished":
                raise Conflict("an agent is running on this phone; stop it before recording")
            if start is not None:
                with self.device.lock:
                    startstate.prepare(self.device.inner, start)
                self.device.changed()
            folder = self._folder("recordings")
            self.recording = Recording(folder, instruction.strip(), self._device_info(), app_name,
                                       start.to_dict() if start else None)
            self._start = start
        self.publish_status()
        return self.recording.summary()

    def stop_recording(self, client: Any) -> dict[str, Any]:
        """Close the recording, then replay it on a fresh phone from the same start (when it had one)."""
        self._require(client)
        with self._mutex:
            recording = self.recording
            if recording is None:
                raise Conflict("no recording is running on this phone")
            self.recording = None
        with self._record_lock, self.device.lock:
            image, xml = self.device.screenshot(), self._xml()
        recording.stop(image, xml)
        if self._start is not None:
            phone = startstate.fresh_phone(self.device, self._start)
            report = replay(phone, recording.manuals, self.ocr() if self.ocr else None,
                            frame_reader(recording.folder))
            recording.save_replay(report.to_dict())
        else:
            recording.save_replay({"text": "not replayed: the recording did not start from a fresh SimPhone",
                                   "clean": None, "steps": len(recording.steps), "replayed": 0})
        self.publish_status()
        return recording.summary()

    # -- agent ------------------------------------------------------------------------------------
    def start_agent(self, client: Any, body: dict[str, Any]) -> dict[str, Any]:
        self._require(client)
        settings = AgentSettings.from_request(body)
        with self._mutex:
            if self.recording is not None:
                raise Conflict("a recording is running on this phone; stop it first")
            if self.agent is not None and self.agent.state != "finished":
                raise Conflict("an agent is already running on this phone")
            self.steps.clear()
            self.agent = AgentRun(self.device, settings, self._folder("agent"),
                                  ocr_engine=self.ocr() if self.ocr else None, settle_s=self.settle_s,
                                  emit=self.emit)
            self.agent.start()
        self.publish_status()
        return self.agent.describe()

    def steer_agent(self, client: Any, command: str) -> dict[str, Any]:
        """``stop``, ``take_over`` or ``hand_back`` the running agent."""
        self._require(client)
        run = self.agent
        if run is None:
            raise Conflict("no agent has been started on this phone")
        if command == "stop":
            run.stop()
        elif command == "take_over":
            run.take_over()
        elif command == "hand_back":
            run.hand_back()
        else:
            raise StudioError(f"unknown agent command {command!r}; use stop, take_over or hand_back")
        self.publish_status()
        return run.describe()

    def _folder(self, kind: str) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = self.out_root / kind / f"{stamp}-{self.pid}"
        folder, n = base, 1
        while folder.exists():
            n += 1
            folder = base.with_name(f"{base.name}-{n}")
        return folder

    def _device_info(self) -> dict[str, Any]:
        return {"serial": self.device.serial, "type": type(self.device.inner).__name__,
                "size": list(self.size)}
