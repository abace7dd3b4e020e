"""A chat client for any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, Qwen-VL compatible mode).

It wraps the official ``openai`` client with the project's own retry policy (exponential backoff with
jitter on timeouts, connection errors, 408/409/429 and 5xx, honouring Retry-After), attaches
downscaled screenshots as data URLs, reports tokens and latency per call, and keeps the API key out of
every message, repr and log line it produces.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import random
import ssl
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from droidpilot.errors import InputError
from droidpilot.llm.endpoint import (
    LLM_FLAGS,
    PLACEHOLDER_API_KEY,
    resolve_api_key,
    resolve_base_url,
    resolve_model,
    safe_url,
)
from droidpilot.llm.failures import Failure, LlmError, classify
from droidpilot.llm.images import ImageFormat, ImageLike, image_part

_PREPARED_IMAGES = 16  # screenshots kept downscaled and encoded, most recently used first

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
    tool_calls: tuple[dict[str, Any], ...] = field(default=())  # {"name", "arguments"} per function call

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record for traces (no key, no images)."""
        return {"text": self.text, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "latency_s": round(self.latency_s, 4),
                "model": self.model, "attempts": self.attempts, "finish_reason": self.finish_reason,
                "waits": [round(w, 4) for w in self.waits], "tool_calls": list(self.tool_calls)}


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
                 jpeg_quality: int = 85, image_detail: str | None = None,
                 flags: tuple[str, str] = LLM_FLAGS) -> None:
        if timeout <= 0:
            raise InputError(f"LLM timeout must be positive, got {timeout}")
        if max_retries < 0:
            raise InputError(f"LLM max_retries must be >= 0, got {max_retries}")
        if image_format not in ("png", "jpeg"):
            raise InputError(f"image format {image_format!r} is not supported; use 'png' or 'jpeg'")
        self.flags = flags  # the command's own option names, for the hints in error messages
        self.base_url = resolve_base_url(base_url, flags)
        self.model = resolve_model(model, flags)
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
        self._parts: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._parts_lock = threading.Lock()
        # The official client's own retries are off: the policy above is ours, and visible in replies.
        self._openai = self._make_openai(key)

    def __repr__(self) -> str:
        return (f"ChatClient(base_url={safe_url(self.base_url)!r}, model={self.model!r}, "
                f"api_key=<{self.key_source}>, timeout={self.timeout}, max_retries={self.max_retries})")

    __str__ = __repr__

    def __getstate__(self) -> dict[str, Any]:
        # The HTTP client is rebuilt on unpickling (worker processes); everything else travels as is.
        return {k: v for k, v in self.__dict__.items() if k not in ("_openai", "_parts", "_parts_lock")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._parts = OrderedDict()
        self._parts_lock = threading.Lock()
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
                failure = classify(exc, self.timeout, _openai())
            except ValueError as exc:  # a 200 whose body is not JSON at all
                failure = Failure(f"sent a body that is not JSON ({type(exc).__name__})", None, False)
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
        """One image as a content part, with this client's size and format settings.

        Encoded screenshots (bytes) are prepared once: the verifier asks several questions per screen.
        """
        if not isinstance(image, bytes):
            return image_part(image, self.image_max_side, self.image_format, self.jpeg_quality,
                              self.image_detail)
        key = hashlib.sha256(image).hexdigest()
        with self._parts_lock:
            part = self._parts.get(key)
            if part is not None:
                self._parts.move_to_end(key)
                return copy.deepcopy(part)
        part = image_part(image, self.image_max_side, self.image_format, self.jpeg_quality, self.image_detail)
        with self._parts_lock:
            self._parts[key] = part
            while len(self._parts) > _PREPARED_IMAGES:
                self._parts.popitem(last=False)
        return copy.deepcopy(part)

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
        calls = tuple({"name": str(getattr(getattr(c, "function", None), "name", "") or ""),
                       "arguments": str(getattr(getattr(c, "function", None), "arguments", "") or "")}
                      for c in (getattr(message, "tool_calls", None) or []))
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
            tool_calls=calls,
        )

    def _message(self, model: str, failure: str, attempts: int, retryable: bool) -> str:
        tries = f" after {attempts} attempt{'s' if attempts != 1 else ''}" if retryable else ""
        hint = (f" Check that the server is running and {self.flags[0]} / DROIDPILOT_LLM_BASE_URL points at "
                "its OpenAI-compatible /v1 root.") if retryable else ""
        return f"LLM service {safe_url(self.base_url)} (model {model}) {failure}{tries}.{hint}"

    def _scrub(self, text: str) -> str:
        key = self.__key
        if key and key != PLACEHOLDER_API_KEY and len(key) >= 4:
            text = text.replace(key, "<api key>")
        return text
