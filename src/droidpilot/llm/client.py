"""A chat client for any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, Qwen-VL compatible mode).

It wraps the official ``openai`` client with the project's own retry policy (exponential backoff with
jitter on timeouts, connection errors, 408/409/429 and 5xx, honouring Retry-After), attaches
downscaled screenshots as data URLs, reports tokens and latency per call, and keeps the API key out of
every message, repr and log line it produces.
"""

from __future__ import annotations

import copy
import email.utils
import functools
import os
import random
import ssl
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from droidpilot.errors import DroidpilotError, InputError
from droidpilot.llm.images import ImageFormat, ImageLike, image_part

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# Sent when no key is configured: local servers (vLLM, Ollama) accept any bearer token.
PLACEHOLDER_API_KEY = "no-key-configured"
KEY_ENV_VARS = ("DROIDPILOT_LLM_API_KEY", "OPENAI_API_KEY")
BASE_URL_ENV_VARS = ("DROIDPILOT_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_ENV_VAR = "DROIDPILOT_LLM_MODEL"
_RETRYABLE_STATUS = frozenset({408, 409, 429})

if TYPE_CHECKING:
    import openai as _openai_types


def _openai() -> ModuleType:
    # Imported on first use: the package is large, and most commands never talk to a model.
    import openai

    return openai


@functools.lru_cache(maxsize=1)
def _shared_ssl_context() -> ssl.SSLContext:
    """One TLS context per process: loading the CA bundle costs ~0.1 s, too much for every client."""
    try:
        import httpx2 as http  # the HTTP library of the openai package this project pins
    except ImportError:  # older openai releases use httpx
        import httpx as http  # type: ignore[no-redef]
    return http.create_ssl_context()


class LlmError(DroidpilotError):
    """The model service could not give an answer (unreachable, refused, or broken), after retries.

    ``status`` is the last HTTP status (None when no response came back); ``retryable`` tells whether
    the failure was of the transient kind that was retried; ``waits`` lists the back-off sleeps.
    """

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 0,
                 retryable: bool = False, waits: Sequence[float] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts
        self.retryable = retryable
        self.waits = tuple(waits)


@dataclass(frozen=True)
class ChatReply:
    """One answer: its text, the tokens counted by the server (None when it reports none), the wall
    time of the whole call including retries, the model that answered, and how many attempts it took."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float
    model: str
    attempts: int
    finish_reason: str | None = None
    waits: tuple[float, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record for traces (no key, no images)."""
        return {"text": self.text, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "latency_s": round(self.latency_s, 4),
                "model": self.model, "attempts": self.attempts, "finish_reason": self.finish_reason,
                "waits": [round(w, 4) for w in self.waits]}


def resolve_api_key(api_key: str | None = None) -> tuple[str, str]:
    """(key, where it came from): the argument, else DROIDPILOT_LLM_API_KEY, else OPENAI_API_KEY, else
    a placeholder for local servers that need none."""
    if api_key:
        return api_key, "argument"
    for name in KEY_ENV_VARS:
        value = os.environ.get(name, "").strip()
        if value:
            return value, name
    return PLACEHOLDER_API_KEY, "none"


def resolve_base_url(base_url: str | None = None) -> str:
    """The endpoint: the argument, else DROIDPILOT_LLM_BASE_URL / OPENAI_BASE_URL, else OpenAI's."""
    url = base_url or next((os.environ[n] for n in BASE_URL_ENV_VARS if os.environ.get(n, "").strip()),
                           DEFAULT_BASE_URL)
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"LLM base URL {safe_url(url)!r} is not an http(s) URL; pass e.g. "
                         "--llm-base-url http://127.0.0.1:8000/v1 or set DROIDPILOT_LLM_BASE_URL")
    return url


def resolve_model(model: str | None = None) -> str:
    """The model name: the argument, else DROIDPILOT_LLM_MODEL; InputError when neither is set."""
    name = (model or os.environ.get(MODEL_ENV_VAR, "")).strip()
    if not name:
        raise InputError("no LLM model given: pass --llm-model (or --model) or set DROIDPILOT_LLM_MODEL")
    return name


def safe_url(url: str) -> str:
    """``url`` without user info, query or fragment, fit to show in messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<invalid URL>"
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def parse_retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds the server asks us to wait (``retry-after-ms``, or ``retry-after`` as seconds or an
    HTTP date); None when absent or unreadable."""
    if not headers:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000.0)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    reference = now if now is not None else datetime.now(timezone.utc).timestamp()
    return max(0.0, when.timestamp() - reference)


class ChatClient:
    """Chat completions with retries over the official ``openai`` client.

    ``timeout`` is per attempt (seconds); ``max_retries`` counts retries after the first attempt;
    the n-th retry waits ``backoff * 2**(n-1)`` seconds (capped at ``max_backoff``, with +-25% jitter)
    unless the server sent Retry-After (capped at ``max_retry_after``). Images passed to chat() are
    downscaled to ``image_max_side`` and sent as PNG or JPEG data URLs.
    """

    def __init__(self, base_url: str | None = None, model: str | None = None, api_key: str | None = None,
                 timeout: float = 60.0, max_retries: int = 3, backoff: float = 1.0,
                 max_backoff: float = 30.0, max_retry_after: float = 60.0,
                 image_max_side: int | None = 1024, image_format: ImageFormat = "png",
                 jpeg_quality: int = 85, image_detail: str | None = None) -> None:
        if timeout <= 0:
            raise InputError(f"LLM timeout must be positive, got {timeout}")
        if max_retries < 0:
            raise InputError(f"LLM max_retries must be >= 0, got {max_retries}")
        if image_format not in ("png", "jpeg"):
            raise InputError(f"image format {image_format!r} is not supported; use 'png' or 'jpeg'")
        self.base_url = resolve_base_url(base_url)
        self.model = resolve_model(model)
        key, self.key_source = resolve_api_key(api_key)
        self.__key = key
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.max_retry_after = float(max_retry_after)
        self.image_max_side = image_max_side
        self.image_format: ImageFormat = image_format
        self.jpeg_quality = jpeg_quality
        self.image_detail = image_detail
        # The official client's own retries are off: the policy above is ours, and visible in replies.
        self._openai = self._make_openai(key)

    def __repr__(self) -> str:
        return (f"ChatClient(base_url={safe_url(self.base_url)!r}, model={self.model!r}, "
                f"api_key=<{self.key_source}>, timeout={self.timeout}, max_retries={self.max_retries})")

    __str__ = __repr__

    def __getstate__(self) -> dict[str, Any]:
        # The HTTP client is rebuilt on unpickling (worker processes); everything else travels as is.
        return {k: v for k, v in self.__dict__.items() if k != "_openai"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._openai = self._make_openai(self.__key)

    def _make_openai(self, key: str) -> _openai_types.OpenAI:
        sdk = _openai()
        http_client = sdk.DefaultHttpxClient(verify=_shared_ssl_context(), timeout=self.timeout)
        return sdk.OpenAI(api_key=key, base_url=self.base_url, timeout=self.timeout, max_retries=0,
                          http_client=http_client)

    # -- public ----------------------------------------------------------------------------------
    def chat(self, messages: Sequence[Mapping[str, Any]] | str, images: Sequence[ImageLike] = (),
             **params: Any) -> ChatReply:
        """Send ``messages`` (OpenAI chat format, or one user string) with ``images`` appended to the
        last user message; ``params`` go to the endpoint (temperature, max_tokens, ...).

        Raises LlmError when no answer came back after the retries, or the service refused the request.
        """
        payload = self.with_images(messages, images)
        model = str(params.pop("model", self.model))
        started = time.monotonic()
        waits: list[float] = []
        attempt = 0
        while True:
            attempt += 1
            try:
                completion = self._openai.chat.completions.create(model=model, messages=payload, **params)
            except _openai().OpenAIError as exc:
                failure = _classify(exc, self.timeout)
            except ValueError as exc:  # a 200 whose body is not JSON at all
                failure = _Failure(f"sent a body that is not JSON ({type(exc).__name__})", None, False)
            else:
                return self._reply(completion, model, started, attempt, waits)
            if not failure.retryable or attempt > self.max_retries:
                raise LlmError(self._scrub(self._message(model, failure.what, attempt, failure.retryable)),
                               status=failure.status, attempts=attempt, retryable=failure.retryable,
                               waits=waits)
            delay = self.retry_delay(attempt, failure.retry_after)
            waits.append(delay)
            time.sleep(delay)

    def with_images(self, messages: Sequence[Mapping[str, Any]] | str,
                    images: Sequence[ImageLike] = ()) -> list[dict[str, Any]]:
        """A copy of ``messages`` with ``images`` as data-URL parts after the last user message's text."""
        out: list[dict[str, Any]] = ([{"role": "user", "content": messages}] if isinstance(messages, str)
                                     else [copy.deepcopy(dict(m)) for m in messages])
        if not images:
            return out
        parts = [self.image_part(img) for img in images]
        for message in reversed(out):
            if message.get("role") == "user":
                content = message.get("content")
                if isinstance(content, str):
                    content = [{"type": "text", "text": content}]
                message["content"] = [*(content or []), *parts]
                return out
        out.append({"role": "user", "content": parts})
        return out

    def image_part(self, image: ImageLike) -> dict[str, Any]:
        """One image as a content part, with this client's size and format settings."""
        return image_part(image, self.image_max_side, self.image_format, self.jpeg_quality, self.image_detail)

    def retry_delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        if retry_after is not None:
            return min(retry_after, self.max_retry_after)
        base = min(self.backoff * (2 ** (attempt - 1)), self.max_backoff)
        return max(0.0, base * random.uniform(0.75, 1.25))

    def close(self) -> None:
        """Release the HTTP connections."""
        self._openai.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals -------------------------------------------------------------------------------
    def _reply(self, completion: Any, model: str, started: float, attempt: int,
               waits: list[float]) -> ChatReply:
        choices = getattr(completion, "choices", None)
        if not choices or not isinstance(choices, list):
            raise LlmError(self._scrub(self._message(model, "returned no choices (not a chat completion "
                                                            "response?)", attempt, False)),
                           attempts=attempt, waits=waits)
        choice = choices[0]
        message = getattr(choice, "message", None)
        text = (getattr(message, "content", None) or "") if message is not None else ""
        usage = getattr(completion, "usage", None)
        return ChatReply(
            text=str(text),
            prompt_tokens=getattr(usage, "prompt_tokens", None) if usage is not None else None,
            completion_tokens=getattr(usage, "completion_tokens", None) if usage is not None else None,
            latency_s=time.monotonic() - started,
            model=str(getattr(completion, "model", None) or model),
            attempts=attempt,
            finish_reason=getattr(choice, "finish_reason", None),
            waits=tuple(waits),
        )

    def _message(self, model: str, failure: str, attempts: int, retryable: bool) -> str:
        tries = f" after {attempts} attempt{'s' if attempts != 1 else ''}" if retryable else ""
        hint = (" Check that the server is running and --llm-base-url / DROIDPILOT_LLM_BASE_URL points at "
                "its OpenAI-compatible /v1 root.") if retryable else ""
        return f"LLM service {safe_url(self.base_url)} (model {model}) {failure}{tries}.{hint}"

    def _scrub(self, text: str) -> str:
        key = self.__key
        if key and key != PLACEHOLDER_API_KEY and len(key) >= 4:
            text = text.replace(key, "<api key>")
        return text


@dataclass(frozen=True)
class _Failure:
    what: str
    status: int | None
    retryable: bool
    retry_after: float | None = None


def _classify(exc: Exception, timeout: float) -> _Failure:
    """What went wrong with one attempt, and whether it is worth another."""
    sdk = _openai()
    if isinstance(exc, sdk.APITimeoutError):
        return _Failure(f"timed out (timeout {timeout:g} s)", None, True)
    if isinstance(exc, sdk.APIConnectionError):
        return _Failure(f"could not be reached ({_cause(exc)})", None, True)
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        return _Failure(f"answered HTTP {status}{_status_hint(status)}: {_body_message(exc.body)}", status,
                        status in _RETRYABLE_STATUS or status >= 500, parse_retry_after(exc.response.headers))
    return _Failure(f"gave an unusable response ({type(exc).__name__})", None, False)


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    return type(inner).__name__ if inner is not None else "connection error"


def _status_hint(status: int) -> str:
    if status == 401:
        return " (the API key was refused: set DROIDPILOT_LLM_API_KEY or OPENAI_API_KEY)"
    if status == 404:
        return " (wrong base URL or model name?)"
    if status == 429:
        return " (rate limited)"
    return ""


def _body_message(body: object) -> str:
    if isinstance(body, Mapping):
        err = body.get("error", body)
        text = err.get("message") if isinstance(err, Mapping) else err
    else:
        text = body
    text = " ".join(str(text or "no details").split())
    return text[:200] + ("..." if len(text) > 200 else "")
