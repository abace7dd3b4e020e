"""ASGI middleware in front of the studio: the Host/Origin check and the token.

A refused HTTP request gets a JSON ``{"error": message}``; a refused WebSocket handshake gets the same
JSON as its HTTP response when the server supports that (uvicorn does), else a close with a 44xx code.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from droidpilot.studio.hosts import HostPolicy

COOKIE = "droidpilot_studio_token"
Scope = dict[str, Any]


def header(scope: Scope, name: str) -> str | None:
    """The first header ``name`` (lower case) of the request, decoded as latin-1."""
    key = name.encode("latin-1")
    for k, v in scope.get("headers", []):
        if k.lower() == key:
            return bytes(v).decode("latin-1")
    return None


async def _until_gone(receive: Callable) -> None:
    """Wait (at most a second) until the server has closed a refused handshake's connection: uvicorn logs
    "returned without completing handshake" for an app that returns before then, though it answered."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(1.0):
            gone = 0
            while gone < 2:  # one disconnect when the answer is sent, one when the connection is lost
                gone += (await receive())["type"] == "websocket.disconnect"


async def refuse(scope: Scope, send: Callable, status: int, message: str, receive: Callable) -> None:
    """Answer ``status`` with a JSON error, for an HTTP request or a WebSocket handshake."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
        await _until_gone(receive)
    else:
        await send({"type": "websocket.close", "code": 4000 + status, "reason": message[:120]})


class HostGuard:
    """Refuse (403) requests whose Host, or whose Origin when sent, is not one of the studio's names."""

    def __init__(self, app: Any, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Callable, send: Callable) -> None:
        if scope["type"] in ("http", "websocket"):
            reason = self.policy.check_host(header(scope, "host")) or \
                self.policy.check_origin(header(scope, "origin"))
            if reason:
                await refuse(scope, send, 403, reason, receive)
                return
        await self.app(scope, receive, send)


class TokenGuard:
    """A token on every request (when set): ``?token=`` (then kept in a cookie), Bearer, or the cookie."""

    def __init__(self, app: Any, token: str | None) -> None:
        self.app = app
        self.token = token

    def _presented(self, scope: Scope) -> tuple[str | None, bool]:
        """(the token the request carries, whether it came in the query string)."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
        if query:
            return query[0], True
        auth = header(scope, "authorization") or ""
        if auth.lower().startswith("bearer "):
            return auth[7:].strip(), False
        cookie: SimpleCookie = SimpleCookie()
        with contextlib.suppress(Exception):
            cookie.load(header(scope, "cookie") or "")
        return (cookie[COOKIE].value if COOKIE in cookie else None), False

    async def __call__(self, scope: Scope, receive: Callable, send: Callable) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or self.token is None:
            await self.app(scope, receive, send)
            return
        given, from_query = self._presented(scope)
        if given is None or not hmac.compare_digest(given.encode(), self.token.encode()):
            await refuse(scope, send, 401, "this studio needs its token: open the URL printed at start "
                                            "(with ?token=...)", receive)
            return
        if not from_query or kind != "http":
            await self.app(scope, receive, send)
            return
        cookie = f"{COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/".encode()

        async def send_with_cookie(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)
