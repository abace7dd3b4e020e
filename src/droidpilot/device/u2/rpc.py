"""JSON-RPC 2.0 as the uiautomator server speaks it: ``POST /jsonrpc/0`` with ``{method, params, id}``;
errors carry the Java exception's class name in ``message``, which is what the client looks for."""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

NOT_FOUND = -32002  # UiObjectNotFoundException, as the real server numbers it
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
SERVER_ERROR = -32001  # any other exception of the server's own


class RpcError(Exception):
    """An error answered to the client: JSON-RPC code, message and data (a Java-style stack line)."""

    def __init__(self, code: int, message: str, data: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data if data is not None else message


def not_found(what: str) -> RpcError:
    """UiObjectNotFoundException for a selector (its UiSelector[...] text)."""
    text = f"androidx.test.uiautomator.UiObjectNotFoundException: {what}"
    return RpcError(NOT_FOUND, text, f"{text}\n\tat com.wetest.uia2.stub.AutomatorServiceImpl (SimPhone)")


def java_error(exc_class: str, detail: str) -> RpcError:
    """Any other Java exception the real server would report (IllegalArgumentException, ...)."""
    text = f"{exc_class}: {detail}"
    return RpcError(SERVER_ERROR, text, f"{text}\n\tat com.wetest.uia2.stub.AutomatorServiceImpl (SimPhone)")


Method = Callable[..., Any]


def handle(body: bytes, methods: dict[str, Method]) -> dict[str, Any]:
    """Answer one JSON-RPC request body; never raises (every failure becomes an error object)."""
    req_id: Any = None
    try:
        try:
            req = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RpcError(PARSE_ERROR, f"Parse error: {exc}") from None
        if not isinstance(req, dict) or not isinstance(req.get("method"), str):
            raise RpcError(INVALID_REQUEST, "Invalid Request: expected an object with a string 'method'")
        req_id = req.get("id")
        name, params = req["method"], req.get("params")
        method = methods.get(name)
        if method is None:
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {name}")
        args: list[Any] = [] if params is None else list(params) if isinstance(params, list) else [params] \
            if not isinstance(params, dict) or "mask" in params else []
        kwargs: dict[str, Any] = params if isinstance(params, dict) and "mask" not in params else {}
        try:
            inspect.signature(method).bind(*args, **kwargs)
        except TypeError as exc:
            raise RpcError(INVALID_PARAMS, f"Invalid params for {name}: {exc}") from None
        result = method(*args, **kwargs)
        return {"jsonrpc": "2.0", "id": req_id, "result": result}
    except RpcError as err:
        return {"jsonrpc": "2.0", "id": req_id,
                "error": {"code": err.code, "message": err.message, "data": err.data}}
    except Exception as exc:  # a bug of ours still answers, as the Java server answers its exceptions
        log.exception("uiautomator server method failed")
        return {"jsonrpc": "2.0", "id": req_id,
                "error": {"code": SERVER_ERROR, "message": f"java.lang.RuntimeException: {exc}",
                          "data": type(exc).__name__}}
