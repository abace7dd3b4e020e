"""The studio's ASGI app (Starlette): pages, the JSON API, and one WebSocket per viewer of a phone.

Every error is a JSON ``{"error": message}`` with a meaningful status (400 bad input, 404 unknown,
405 wrong method, 409 conflict, 413 too large, 415 not JSON); an unexpected failure is logged with its
traceback and answered 500 with a message that leaks none of it. Blocking device and file work runs in
worker threads.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from droidpilot.errors import DroidpilotError
from droidpilot.studio import browse, inspect_api, review
from droidpilot.studio.errors import NotFound, StudioError
from droidpilot.studio.inputs import read_body, shown, text_field, text_path
from droidpilot.studio.phone import PhoneSession
from droidpilot.studio.recording import save_as_task
from droidpilot.studio.viewer import UNKNOWN_PHONE, refuse_socket, serve_viewer

STATIC = Path(__file__).parent / "static"
Handler = Callable[[Request], Awaitable[Any]]
log = logging.getLogger(__name__)


def _error(exc: StudioError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


def unexpected(request: Request, exc: BaseException) -> JSONResponse:
    """A failure nobody foresaw: logged with its traceback, answered 500 without it."""
    log.error("studio: %s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": f"the studio failed on {request.method} {shown(request.url.path)} "
                                  f"({type(exc).__name__}); the details are in the studio's log"},
                        status_code=500)


def api(handler: Callable[..., Awaitable[Any]]) -> Handler:
    """Wrap a handler: its result becomes JSON, a StudioError a JSON error with its status."""

    async def endpoint(request: Request) -> Response:
        try:
            result = await handler(request)
            return result if isinstance(result, Response) else JSONResponse(result)
        except StudioError as exc:
            return _error(exc)
        except DroidpilotError as exc:  # bad input met deeper down (a task file, a rule, a device)
            return JSONResponse({"error": str(exc)}, status_code=400)
        except Exception as exc:  # answered as JSON, logged with the traceback
            return unexpected(request, exc)

    return endpoint


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 (no such route, no such static file) and 405, as JSON."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        allowed = exc.headers.get("Allow", "") if exc.headers else ""
        message = (f"{request.method} is not allowed on {shown(request.url.path)}; "
                   f"use {allowed or 'another method'}")
    elif exc.status_code == 404:
        message = f"no such page or API call: {request.method} {shown(request.url.path)}"
    else:
        message = str(exc.detail)
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    """What escaped every handler (a page, a static file): the same JSON 500 as the API's."""
    return unexpected(request, exc)


def build_app(sessions: dict[str, PhoneSession]) -> Starlette:
    """The studio app over ``sessions`` (phone id -> session)."""
    first = next(iter(sessions.values()), None)
    ocr = first.ocr if first else None  # the OCR engine the phones share
    out_root = first.out_root if first else Path("studio-runs")  # where recordings and agent runs go

    def session_of(request: Request | WebSocket) -> PhoneSession:
        pid = request.path_params["pid"]
        if pid not in sessions:
            raise NotFound(f"unknown phone {shown(pid)}; the studio has: {', '.join(sessions) or 'none'}")
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
        session, body = session_of(request), await read_body(request)
        what = body.get("action", "take")
        if what == "take":
            force = body.get("force", False)
            if not isinstance(force, bool):
                raise StudioError(f"field 'force' must be true or false, got {shown(force)}")
            session.take_control(text_field(body, "client"), force)
        elif what == "release":
            session.release(text_field(body, "client"))
        else:
            raise StudioError(f"unknown control action {shown(what)}; use take or release")
        return session.status()

    async def operate(request: Request) -> Any:
        session, body = session_of(request), await read_body(request)
        return await run_in_threadpool(session.operate, body.get("client"), body)

    async def record(request: Request) -> Any:
        session, body = session_of(request), await read_body(request)
        if request.path_params["what"] == "start":
            text_field(body, "app_name", required=False)  # a bad field is 400 before control is asked
            return await run_in_threadpool(session.start_recording, body.get("client"), body)
        if request.path_params["what"] == "stop":
            return await run_in_threadpool(session.stop_recording, body.get("client"))
        raise NotFound("use record/start or record/stop")

    async def agent(request: Request) -> Any:
        session, body = session_of(request), await read_body(request)
        command = request.path_params["what"]
        if command == "start":
            return await run_in_threadpool(session.start_agent, body.get("client"), body)
        return await run_in_threadpool(session.steer_agent, body.get("client"), command)

    async def inspect_live(request: Request) -> Any:
        session = session_of(request)
        what = request.path_params.get("what")
        if what is None:
            return await run_in_threadpool(inspect_api.live_tree, session)
        body = await read_body(request)
        if what == "find":
            return await run_in_threadpool(inspect_api.live_find, session, body)
        if what == "words":
            return await run_in_threadpool(inspect_api.live_words, session, body)
        raise NotFound(f"unknown inspector call {shown(what)}; use find or words")

    async def review_call(request: Request) -> Any:
        body = await read_body(request)
        what = request.path_params["what"]
        calls: dict[str, Callable[[], Any]] = {
            "open": lambda: review.open_folder(body.get("path")),
            "trace": lambda: review.load(body.get("path")),
            "verify": lambda: review.verify_folder(body.get("path"), body.get("rule")),
            "label": lambda: review.save_label(body.get("path"), body.get("label"), body.get("note", "")),
            "export": lambda: review.export_labels(body.get("path")),
            "browse": lambda: browse.browse(body.get("path") or str(Path.cwd())),
            "inspect": lambda: inspect_api.frame_tree(body),
            "find": lambda: inspect_api.frame_find(body, ocr),
            "words": lambda: inspect_api.frame_words(body, ocr),
            "perception": lambda: inspect_api.frame_perception(body, ocr),
            "save-task": lambda: {"path": str(save_as_task(
                review.trace_folder(body.get("path")),
                _path(body, "task_file") if body.get("task_file") else None, _path(body, "out")))},
        }
        if what not in calls:
            raise NotFound(f"unknown review call {shown(what)}; use {', '.join(calls)}")
        return await run_in_threadpool(calls[what])

    async def review_recent(request: Request) -> Any:
        return await run_in_threadpool(browse.recent, out_root)

    async def review_image(request: Request) -> Any:
        path = await run_in_threadpool(review.image_path, request.query_params.get("path"),
                                       request.query_params.get("n"))
        return FileResponse(path, media_type="image/jpeg")

    async def viewer_socket(websocket: WebSocket) -> None:
        await serve_viewer(websocket, sessions, websocket.path_params["pid"])

    async def unknown_socket(websocket: WebSocket) -> None:
        known, path = ", ".join(sessions) or "none", shown(websocket.url.path)
        await refuse_socket(websocket, UNKNOWN_PHONE, f"no WebSocket at {path}; a phone's viewer is "
                                                      f"/ws/phones/PHONE (the studio has: {known})")

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
        Route("/api/phones/{pid}/inspect", api(inspect_live)),
        Route("/api/phones/{pid}/inspect/{what}", api(inspect_live), methods=["POST"]),
        Route("/api/review/image", api(review_image)),
        Route("/api/review/recent", api(review_recent)),
        Route("/api/review/{what}", api(review_call), methods=["POST"]),
        WebSocketRoute("/ws/phones/{pid}", viewer_socket), WebSocketRoute("/{rest:path}", unknown_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={HTTPException: _http_error, Exception: _server_error})


def _path(body: dict[str, Any], key: str) -> Path:
    return text_path(body.get(key), key, "a file")
