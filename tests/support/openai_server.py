"""A real OpenAI-compatible chat-completions server on loopback, scriptable per test.

It speaks HTTP on 127.0.0.1 (port 0: the OS picks a free one) from a background thread, so the
official ``openai`` client talks to it exactly as it would to a remote service. Each test queues the
answers it wants (a text, an HTTP error with an optional Retry-After, a stall longer than the client's
timeout) and then reads what the client sent: bodies, headers, images.

    from tests.support.openai_server import OpenAITestServer, Reply

    with OpenAITestServer() as server:
        server.push('{"result": "yes", "reason": "ok"}', Reply(status=429, retry_after="0"))
        client = ChatClient(base_url=server.base_url, model="test-model")

Or as a fixture in a test module: ``openai_server = openai_server_fixture()``.
"""

from __future__ import annotations

import collections
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

MODEL_NAME = "test-model"
# Seconds a request's next bytes may take: a client whose Content-Length promises more than it sends is
# answered 408 then, instead of holding a handler thread for as long as the socket stays open.
REQUEST_STALL = 10.0


@dataclass
class Reply:
    """One scripted answer. ``status`` != 200 sends an OpenAI-style error body; ``delay`` stalls the
    response (longer than the client's timeout, it forces a timeout); ``raw`` sends a body verbatim."""

    text: str = ""
    status: int = 200
    retry_after: str | None = None
    delay: float = 0.0
    raw: bytes | None = None
    usage: bool = True
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    tool_calls: list[dict[str, Any]] | None = None  # [{"name": ..., "arguments": {...} or "json"}]


@dataclass
class RecordedRequest:
    """What the client sent: method, path, headers (names lower-cased), the raw and parsed body."""

    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    body: Any

    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", [])) if isinstance(self.body, dict) else []

    def image_urls(self) -> list[str]:
        """Every ``image_url`` part's URL, in message order."""
        return [part["image_url"]["url"] for m in self.messages() for part in _parts(m)
                if part.get("type") == "image_url"]

    def texts(self) -> list[str]:
        """Every text of every message (plain content or text parts), in order."""
        out: list[str] = []
        for message in self.messages():
            content = message.get("content")
            if isinstance(content, str):
                out.append(content)
            else:
                out.extend(p.get("text", "") for p in _parts(message) if p.get("type") == "text")
        return out


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return [p for p in content if isinstance(p, dict)] if isinstance(content, list) else []


Responder = Callable[[RecordedRequest], "Reply | str"]


class OpenAITestServer:
    """``POST /v1/chat/completions`` and ``GET /v1/models`` on 127.0.0.1, answering from a queue.

    When the queue is empty the ``responder`` (if any) answers, else ``default`` (if set), else an
    HTTP 500 saying no answer was scripted. Use as a context manager; stop() ends it promptly, even
    with a stalled response in flight.
    """

    def __init__(self, default: Reply | str | None = None, responder: Responder | None = None) -> None:
        self.default = default
        self.responder = responder
        self.requests: list[RecordedRequest] = []
        self._queue: collections.deque[Reply] = collections.deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> OpenAITestServer:
        handler = type("_BoundHandler", (_Handler,), {"owner": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="openai-test-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None

    def __enter__(self) -> OpenAITestServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting -------------------------------------------------------------------------------
    def push(self, *replies: Reply | str) -> None:
        """Queue answers, in order; a plain string is a 200 reply with that text."""
        with self._lock:
            self._queue.extend(Reply(text=r) if isinstance(r, str) else r for r in replies)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _next_reply(self, request: RecordedRequest) -> Reply:
        self._record(request)
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            answer = self.responder(request)
        elif self.default is not None:
            answer = self.default
        else:
            answer = Reply(status=500, text="test server: no scripted reply left for this request")
        return Reply(text=answer) if isinstance(answer, str) else answer


class _Handler(BaseHTTPRequestHandler):
    owner: OpenAITestServer
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        return

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(REQUEST_STALL)  # read per request (tests lower it)

    def _body(self) -> bytes | None:
        """The body Content-Length promised; None after answering 408 (it stalled) or 400 (it ended)."""
        length = int(self.headers.get("Content-Length") or 0)
        try:
            raw = self.rfile.read(length) if length else b""
        except TimeoutError:
            raw = None
        if raw is None or len(raw) < length:
            got = "it stalled" if raw is None else f"the connection ended after {len(raw)} bytes"
            self.close_connection = True
            self._send(408 if raw is None else 400, _error(
                f"Content-Length promised {length} bytes but {got}; send the whole body", "invalid_request"))
            return None
        return raw

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            self._send(200, {"object": "list", "data": [{"id": MODEL_NAME, "object": "model",
                                                         "owned_by": "droidpilot-tests"}]})
        else:
            self._send(404, _error(f"no route GET {self.path}", "not_found"))

    def do_POST(self) -> None:
        raw = self._body()
        if raw is None:
            return
        try:
            body: Any = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            body = None
        request = RecordedRequest("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, raw,
                                  body)
        if self.path.rstrip("/") != "/v1/chat/completions":
            self.owner._record(request)
            self._send(404, _error(f"no route POST {self.path}", "not_found"))
            return
        reply = self.owner._next_reply(request)
        if reply.delay and self.owner._stopping.wait(reply.delay):
            return  # shutting down: drop the stalled response
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send(400, _error("body must be a JSON object with a 'messages' list", "invalid_request"))
            return
        headers = dict(reply.headers)
        if reply.retry_after is not None:
            headers["Retry-After"] = reply.retry_after
        if reply.raw is not None:
            self._send_bytes(reply.status, reply.raw, "application/json", headers)
        elif reply.status != 200:
            self._send(reply.status, _error(reply.text or f"scripted HTTP {reply.status}", "server_error"),
                       headers)
        else:
            self._send(200, _completion(body, reply, request), headers)

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send_bytes(status, json.dumps(payload).encode("utf-8"), "application/json", headers or {})

    def _send_bytes(self, status: int, data: bytes, ctype: str, headers: dict[str, str]) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout); nothing to answer


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _completion(body: dict[str, Any], reply: Reply, request: RecordedRequest) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": f"chatcmpl-test-{len(request.raw)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(body.get("model") or MODEL_NAME),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                     "finish_reason": reply.finish_reason}],
    }
    if reply.tool_calls:
        out["choices"][0]["message"]["tool_calls"] = [
            {"id": f"call_{i}", "type": "function",
             "function": {"name": call["name"], "arguments": (
                 call["arguments"] if isinstance(call["arguments"], str) else json.dumps(call["arguments"]))}}
            for i, call in enumerate(reply.tool_calls)]
        out["choices"][0]["finish_reason"] = "tool_calls"
        out["choices"][0]["message"]["content"] = reply.text or None
    if reply.usage:
        prompt = sum(len(t) for t in request.texts()) // 4 + 85 * len(request.image_urls()) + 1
        completion = len(reply.text) // 4 + 1
        out["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                        "total_tokens": prompt + completion}
    return out


def openai_server_fixture() -> Any:
    """A pytest fixture yielding a started OpenAITestServer, stopped at teardown.

    In a test module: ``openai_server = openai_server_fixture()``.
    """

    @pytest.fixture
    def _fixture() -> Iterator[OpenAITestServer]:
        with OpenAITestServer() as server:
            yield server

    return _fixture
