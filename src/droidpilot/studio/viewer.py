"""One viewer's WebSocket: push the phone's frames and events, and read what the page sends only to notice
it leaving.

A viewer of an unknown phone, or of a phone that already has ``MAX_VIEWERS``, is accepted and told why
at once: an ``{"type": "error"}`` message, then a close with code 4404 / 4429 and the reason (a browser
sees a close event's reason, never the body of a refused handshake). What the page sends, text or binary
(each message at most uvicorn's ``ws_max_size``), is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket, WebSocketDisconnect

from droidpilot.studio.inputs import shown
from droidpilot.studio.phone import PhoneSession

MAX_VIEWERS = 32  # open pages per phone; each gets every frame
MAX_REASON = 123  # bytes of a WebSocket close reason (RFC 6455)
UNKNOWN_PHONE, TOO_MANY_VIEWERS = 4404, 4429


def close_reason(text: str) -> str:
    """``text`` cut on a character boundary to fit a close frame's reason."""
    data = text.encode("utf-8")
    if len(data) <= MAX_REASON:
        return text
    return data[:MAX_REASON - 3].decode("utf-8", "ignore") + "..."


async def refuse_socket(websocket: WebSocket, code: int, message: str) -> None:
    """Accept, say why in an error message, and close with ``code`` and the reason."""
    await websocket.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(code=code, reason=close_reason(message))


async def serve_viewer(websocket: WebSocket, sessions: dict[str, PhoneSession], pid: str) -> None:
    """Serve one viewer of phone ``pid`` until it leaves."""
    session = sessions.get(pid)
    if session is None:
        await refuse_socket(websocket, UNKNOWN_PHONE, f"unknown phone {shown(pid)}; the studio has: "
                                                f"{', '.join(sessions) or 'none'}")
        return
    if len(session.viewers) >= MAX_VIEWERS:
        await refuse_socket(websocket, TOO_MANY_VIEWERS, f"phone {pid} already has {MAX_VIEWERS} viewers; "
                                                   "close a page of it first")
        return
    await websocket.accept()
    viewer = session.connect()
    sender = asyncio.create_task(_send_loop(websocket, viewer.queue))
    try:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            message = await websocket.receive()  # the page sends nothing that matters: reading
            while message["type"] != "websocket.disconnect":  # only notices a disconnect
                message = await websocket.receive()
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        session.disconnect(viewer)


async def _send_loop(websocket: WebSocket, queue: asyncio.Queue[bytes | str]) -> None:
    while True:
        message = await queue.get()
        if isinstance(message, bytes):
            await websocket.send_bytes(message)
        else:
            await websocket.send_text(message)
