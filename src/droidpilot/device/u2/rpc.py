"""JSON-RPC 2.0 as the uiautomator server speaks it: ``POST /jsonrpc/0`` with ``{method, params, id}``;
errors carry the Java exception's class name in ``message``, which is what the client looks for.

A request is parsed as Jackson would: no NaN or Infinity literals, and (like Jackson's nesting limit)
at most ``MAX_DEPTH`` levels of nesting; a deeper one is refused with its id kept, found by a scan of
the top-level members that does not recurse. Top-level arguments must be numbers Java can hold.
"""

from __future__ import annotations

import inspect
import json
import logging
import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from droidpilot.datalimits import DataLimitError, check_depth, check_json

log = logging.getLogger(__name__)

NOT_FOUND = -32002  # UiObjectNotFoundException, as the real server numbers it
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
SERVER_ERROR = -32001  # any other exception of the server's own
MAX_DEPTH = 100  # nesting of a request (datalimits.MAX_DEPTH): a UiSelector chain of ~48 child/sibling steps
JAVA_LONG = (-(2**63), 2**63 - 1)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]', re.DOTALL)


class RpcError(Exception):
    """An error answered to the client: JSON-RPC code, message and data (a Java-style stack line)."""

    def __init__(self, code: int, message: str, data: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data if data is not None else message
        self.req_id: Any = None  # the request's id, when found before the request could be parsed

    def answer(self, req_id: Any) -> dict[str, Any]:
        """The JSON-RPC error response."""
        return {"jsonrpc": "2.0", "id": req_id,
                "error": {"code": self.code, "message": self.message, "data": self.data}}


def not_found(what: str) -> RpcError:
    """UiObjectNotFoundException for a selector (its UiSelector[...] text)."""
    text = f"androidx.test.uiautomator.UiObjectNotFoundException: {what}"
    return RpcError(NOT_FOUND, text, f"{text}\n\tat com.wetest.uia2.stub.AutomatorServiceImpl (SimPhone)")


def java_error(exc_class: str, detail: str, code: int = SERVER_ERROR) -> RpcError:
    """Any other Java exception the real server would report (IllegalArgumentException, ...)."""
    text = f"{exc_class}: {detail}"
    return RpcError(code, text, f"{text}\n\tat com.wetest.uia2.stub.AutomatorServiceImpl (SimPhone)")


def illegal(detail: str) -> RpcError:
    """IllegalArgumentException for bad params (-32602, as jsonrpc4j numbers a params failure)."""
    return java_error("java.lang.IllegalArgumentException", detail, INVALID_PARAMS)


Method = Callable[..., Any]


def _no_constant(name: str) -> Any:
    raise RpcError(PARSE_ERROR, f"Parse error: {name} is not a JSON number (non-numeric numbers are refused)")


def top_level_id(text: str) -> Any:
    """The ``id`` member of a JSON object too deep to parse, found without recursing (None if none)."""
    depth, key, start, last_string = 0, None, -1, None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        if depth == 1 and token == ":" and last_string is not None:
            key, start = last_string, match.end()
        elif start >= 0 and (depth == 0 or (depth == 1 and token == ",")):
            if key == '"id"':
                try:
                    value = json.loads(text[start:match.start()])
                except ValueError:
                    return None
                return value if isinstance(value, (str, int, float)) or value is None else None
            key, start = None, -1
        last_string = token if token.startswith('"') else None
    return None


def check_numbers(method: str, args: Iterable[Any]) -> None:
    """Refuse a top-level argument no Java number holds: Infinity, or an integer beyond a long."""
    low, high = JAVA_LONG
    for i, value in enumerate(args, start=1):
        if isinstance(value, float) and not math.isfinite(value):
            raise illegal(f"argument {i} of {method} is {value}, which is not a finite number")
        if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
            shown = str(value) if value.bit_length() < 200 else f"an integer of {value.bit_length()} bits"
            raise illegal(f"argument {i} of {method} is {shown}, outside Java's long range")


def _too_deep(text: str) -> RpcError:
    err = illegal(f"the request is nested more than {MAX_DEPTH} levels deep; SimPhone's uiautomator "
                  f"server takes up to {MAX_DEPTH} (a UiSelector child/sibling chain of about "
                  f"{(MAX_DEPTH - 4) // 2} steps)")
    err.req_id = top_level_id(text)
    return err


def _parse(body: bytes) -> tuple[dict[str, Any], Any]:
    """(the request object, its id); RpcError (with the id when one was found) for anything else."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RpcError(PARSE_ERROR, f"Parse error: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    number_refused = False
    try:
        check_json(text)
    except DataLimitError as exc:
        if not exc.number:  # numbers beyond a double are answered per argument below, as Jackson reads them
            raise _too_deep(text) from None
        number_refused = True  # the depth scan stopped at the number: it is done on the parsed request
    try:
        req = json.loads(text, parse_constant=_no_constant)
        if number_refused:
            check_depth(req)
    except (RecursionError, DataLimitError):
        raise _too_deep(text) from None
    except json.JSONDecodeError as exc:
        raise RpcError(PARSE_ERROR, f"Parse error: {exc}") from None
    except ValueError:  # Python converts integers of up to 4,300 digits
        raise RpcError(PARSE_ERROR, "Parse error: a number of more than 4,300 digits") from None
    if not isinstance(req, dict) or not isinstance(req.get("method"), str):
        raise RpcError(INVALID_REQUEST, "Invalid Request: expected an object with a string 'method'")
    return req, req.get("id")


def handle(body: bytes, methods: dict[str, Method]) -> dict[str, Any]:
    """Answer one JSON-RPC request body; never raises (every failure becomes an error object)."""
    req_id: Any = None
    name = "?"
    try:
        req, req_id = _parse(body)
        name, params = req["method"], req.get("params")
        method = methods.get(name)
        if method is None:
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {name[:200]}")
        args: list[Any] = [] if params is None else list(params) if isinstance(params, list) else [params] \
            if not isinstance(params, dict) or "mask" in params else []
        kwargs: dict[str, Any] = params if isinstance(params, dict) and "mask" not in params else {}
        try:
            inspect.signature(method).bind(*args, **kwargs)
        except TypeError as exc:
            raise RpcError(INVALID_PARAMS, f"Invalid params for {name}: {exc}") from None
        check_numbers(name, [*args, *kwargs.values()])
        result = method(*args, **kwargs)
        return {"jsonrpc": "2.0", "id": req_id, "result": result}
    except RpcError as err:
        return err.answer(req_id if err.req_id is None else err.req_id)
    except (TypeError, ValueError, OverflowError) as exc:  # an argument of the wrong kind met a conversion
        log.debug("uiautomator server: bad arguments for %s: %s", name, exc)
        return illegal(f"bad arguments for {name}: {exc}").answer(req_id)
    except Exception as exc:  # a bug of ours still answers, as the Java server answers its exceptions
        log.exception("uiautomator server method failed")
        return {"jsonrpc": "2.0", "id": req_id,
                "error": {"code": SERVER_ERROR, "message": f"java.lang.RuntimeException: {exc}",
                          "data": type(exc).__name__}}
