"""The studio's ASGI app (Starlette): pages, the JSON API, and one WebSocket per viewer of a phone.

Every error is a JSON ``{"error": message}`` with a meaningful status (400 bad input, 404 unknown,
409 conflict, 415 not JSON); blocking device and file work runs in worker threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from droidpilot.errors import DroidpilotError
from droidpilot.studio import review
from droidpilot.studio.errors import NotFound, StudioError
from droidpilot.studio.phone import PhoneSession
from droidpilot.studio.recording import save_as_task

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1 << 20
Handler = Callable[[Request], Awaitable[Any]]


def _error(exc: StudioError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (StudioError for anything else)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise _NotJson("send the request body as JSON (Content-Type: application/json)")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise StudioError(f"the request body is larger than {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise StudioError(f"malformed JSON in the request body: {exc}") from None
    if not isinstance(data, dict):
        raise StudioError(f"the request body must be a JSON object, got {type(data).__name__}")
    return data


class _NotJson(StudioError):
    status = 415


def api(handler: Callable[..., Awaitable[Any]]) -> Handler:
    """Wrap a handler: its result becomes JSON, a StudioError a JSON error with its status."""

    async def endpoint(request: Request) -> Response:
        try:
            result = await handler(request)
        except StudioError as exc:
            return _error(exc)
        except DroidpilotError as exc:  # bad input met deeper down (a task file, a rule, a device)
            return JSONResponse({"error": str(exc)}, status_code=400)
        return result if isinstance(result, Response) else JSONResponse(result)

    return endpoint


def build_app(sessions: dict[str, PhoneSession]) -> Starlette:
    """The studio app over ``sessions`` (phone id -> session)."""

    def session_of(request: Request | WebSocket) -> PhoneSession:
        pid = request.path_params["pid"]
        if pid not in sessions:
            raise NotFound(f"unknown phone {pid!r}; the studio has: {', '.join(sessions) or 'none'}")
        return sessions[pid]

    async def page(request: Request) -> Response:
        name = {"/": "index.html", "/review": "review.html"}.get(request.url.path, "phone.html")
        if name == "phone.html":
            try:
                session_of(request)
            except NotFound as exc:
                return Response(str(exc), status_code=404, media_type="text/plain")
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    async def phones(request: Request) -> Any:
        return {"phones": [{"id": pid, **s.status()} for pid, s in sessions.items()]}

    async def phone_status(request: Request) -> Any:
        return session_of(request).status()

    async def control(request: Request) -> Any:
        session, body = session_of(request), await _body(request)
        what = body.get("action", "take")
        if what == "take":
            session.take_control(body.get("client"))
        elif what == "release":
            session.release(body.get("client"))
        else:
            raise StudioError(f"unknown control action {what!r}; use take or release")
        return session.status()

    async def operate(request: Request) -> Any:
        session, body = session_of(request), await _body(request)
        return await run_in_threadpool(session.operate, body.get("client"), body)

    async def record(request: Request) -> Any:
        session, body = session_of(request), await _body(request)
        if request.path_params["what"] == "start":
            return await run_in_threadpool(session.start_recording, body.get("client"),
                                           body.get("instruction"), str(body.get("app_name") or ""))
        if request.path_params["what"] == "stop":
            return await run_in_threadpool(session.stop_recording, body.get("client"))
        raise NotFound("use record/start or record/stop")

    async def agent(request: Request) -> Any:
        session, body = session_of(request), await _body(request)
        command = request.path_params["what"]
        if command == "start":
            return await run_in_threadpool(session.start_agent, body.get("client"), body)
        return await run_in_threadpool(session.steer_agent, body.get("client"), command)

    async def review_call(request: Request) -> Any:
        body = await _body(request)
        what = request.path_params["what"]
        calls: dict[str, Callable[[], Any]] = {
            "open": lambda: review.open_folder(body.get("path")),
            "trace": lambda: review.load(body.get("path")),
            "verify": lambda: review.verify_folder(body.get("path"), body.get("rule")),
            "label": lambda: review.save_label(body.get("path"), body.get("label"), body.get("note", "")),
            "export": lambda: review.export_labels(body.get("path")),
            "save-task": lambda: {"path": str(save_as_task(review.trace_folder(body.get("path")),
                                                           _path(body, "task_file"), _path(body, "out")))},
        }
        if what not in calls:
            raise NotFound(f"unknown review call {what!r}")
        return await run_in_threadpool(calls[what])

    async def review_image(request: Request) -> Any:
        path = await run_in_threadpool(review.image_path, request.query_params.get("path"),
                                       request.query_params.get("n"))
        return FileResponse(path, media_type="image/jpeg")

    async def viewer_socket(websocket: WebSocket) -> None:
        try:
            session = session_of(websocket)
        except NotFound:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        viewer = session.connect()
        sender = asyncio.create_task(_send_loop(websocket, viewer.queue))
        try:
            while True:  # the page sends nothing that matters; reading notices a disconnect
                await websocket.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            session.disconnect(viewer)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for session in sessions.values():
            await session.start()
        try:
            yield
        finally:
            for session in sessions.values():
                await session.close()

    routes = [
        Route("/", page), Route("/review", page), Route("/phone/{pid}", page),
        Route("/api/phones", api(phones)), Route("/api/phones/{pid}", api(phone_status)),
        Route("/api/phones/{pid}/control", api(control), methods=["POST"]),
        Route("/api/phones/{pid}/op", api(operate), methods=["POST"]),
        Route("/api/phones/{pid}/record/{what}", api(record), methods=["POST"]),
        Route("/api/phones/{pid}/agent/{what}", api(agent), methods=["POST"]),
        Route("/api/review/image", api(review_image)),
        Route("/api/review/{what}", api(review_call), methods=["POST"]),
        WebSocketRoute("/ws/phones/{pid}", viewer_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _path(body: dict[str, Any], key: str) -> Path:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise StudioError(f"field {key!r} must name a file")
    return Path(value).expanduser()


async def _send_loop(websocket: WebSocket, queue: asyncio.Queue[bytes | str]) -> None:
    while True:
        message = await queue.get()
        if isinstance(message, bytes):
            await websocket.send_bytes(message)
        else:
            await websocket.send_text(message)
