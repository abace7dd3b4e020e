"""What a studio request sends, checked before anything uses it: the JSON body and the paths it names.

A body is at most ``MAX_BODY`` bytes of JSON nested at most ``datalimits.MAX_DEPTH`` deep, with finite
numbers and valid Unicode (no lone surrogates) only; a path is text of at most ``MAX_PATH`` characters
without NUL bytes. Anything else is a StudioError whose message shows the offending value cut to
``MAX_SHOWN`` characters.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from starlette.requests import ClientDisconnect, Request

from droidpilot.datalimits import DataLimitError, load_json_text
from droidpilot.studio.errors import StudioError

MAX_BODY = 1 << 20  # bytes of a request body
# Seconds a body's next bytes may take, and the whole body: a client whose Content-Length promises more
# than it sends is answered 408 then (uvicorn itself would wait as long as the connection stays open).
REQUEST_STALL = 10.0
BODY_DEADLINE = 60.0
MAX_PATH = 4096  # characters of a path (Linux's PATH_MAX)
MAX_SHOWN = 120  # characters of an untrusted value repeated in a message


class NotJson(StudioError):
    """The body is not declared as JSON (415)."""

    status = 415


class TooLarge(StudioError):
    """The body is larger than MAX_BODY (413)."""

    status = 413


class Stalled(StudioError):
    """The body stopped coming, or came too slowly (408)."""

    status = 408


async def _read_all(request: Request, declared: str) -> bytearray:
    """The body's bytes, at most MAX_BODY, each chunk within REQUEST_STALL and all within BODY_DEADLINE."""
    raw = bytearray()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BODY_DEADLINE
    chunks = request.stream().__aiter__()
    promised = f" of the {declared} bytes Content-Length promised" if declared.isdigit() else ""
    while True:
        left = deadline - loop.time()
        try:
            chunk = await asyncio.wait_for(chunks.__anext__(), timeout=max(0.0, min(REQUEST_STALL, left)))
        except StopAsyncIteration:
            return raw
        except asyncio.TimeoutError:
            late = (f"the body took over {BODY_DEADLINE:g} s" if left <= REQUEST_STALL else
                    f"the body stalled: nothing arrived for {REQUEST_STALL:g} s")
            raise Stalled(f"{late} after {len(raw):,} bytes{promised}; send the whole body, or a "
                          "Content-Length that matches it") from None
        except ClientDisconnect:
            raise StudioError(f"the client went away after {len(raw):,} bytes{promised}") from None
        raw += chunk
        if len(raw) > MAX_BODY:
            raise TooLarge(f"the request body is larger than {MAX_BODY:,} bytes")


def shown(value: Any) -> str:
    """``repr(value)``, cut to MAX_SHOWN characters, for messages that repeat what a client sent."""
    if isinstance(value, str) and len(value) > MAX_SHOWN:
        return repr(value[:MAX_SHOWN]) + f"... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read no further than MAX_BODY bytes (StudioError for anything else)."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise NotJson("send the request body as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(f"the request body is larger than {MAX_BODY:,} bytes")
    raw = await _read_all(request, declared)
    try:
        data = load_json_text(bytes(raw).decode("utf-8") or "null")
    except UnicodeDecodeError as exc:
        raise StudioError(f"the request body is not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except DataLimitError as exc:
        raise StudioError(f"the request body: {exc.bare}") from None
    except json.JSONDecodeError as exc:
        raise StudioError(f"malformed JSON in the request body: {exc}") from None
    except ValueError:  # Python refuses to convert integers of more than 4,300 digits
        raise StudioError("the request body holds a number too long to read (over 4,300 digits)") from None
    if not isinstance(data, dict):
        raise StudioError(f"the request body must be a JSON object, got {type(data).__name__}")
    try:  # "\ud800" is JSON but no Unicode text: no file name, reply or trace can hold it
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        lone = exc.object[exc.start:exc.end]
        raise StudioError(f"the request body holds a lone UTF-16 surrogate ({lone!r}); send valid Unicode "
                          "text") from None
    return data


def text_path(value: Any, field: str, what: str = "a file or folder") -> Path:
    """A path named in field ``field`` of a request (``~`` expanded), or StudioError saying what is wrong."""
    if not isinstance(value, str) or not value.strip():
        raise StudioError(f"field {field!r} must name {what}, got {shown(value)}")
    if "\x00" in value:
        raise StudioError(f"field {field!r} holds a NUL byte, which no path can contain: {shown(value)}")
    if len(value) > MAX_PATH:
        raise StudioError(f"field {field!r} is {len(value):,} characters long; a path has at most {MAX_PATH}")
    try:
        return Path(value).expanduser()
    except RuntimeError as exc:  # ~user of an unknown user
        raise StudioError(f"field {field!r}: {exc}") from None


def text_field(body: dict[str, Any], field: str, *, required: bool = True) -> str | None:
    """A string field of a body (None when absent and not required); StudioError for another type."""
    value = body.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise StudioError(f"field {field!r} must be a string, got {shown(value)}")
    return value
