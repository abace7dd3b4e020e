"""What can go wrong when asking a model, and whether it is worth asking again.

``LlmError`` is what callers see; ``classify`` turns one failed attempt of the official client into a
short description, the HTTP status, whether it is transient (timeouts, connection errors, 408, 409,
429, 5xx) and the wait the server asked for (Retry-After).
"""

from __future__ import annotations

import email.utils
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from types import ModuleType

from droidpilot.errors import DroidpilotError

RETRYABLE_STATUS = frozenset({408, 409, 429})


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


@dataclass(frozen=True)
class Failure:
    """One failed attempt: what happened, the HTTP status, transient or not, the asked wait."""

    what: str
    status: int | None
    retryable: bool
    retry_after: float | None = None


def classify(exc: Exception, timeout: float, sdk: ModuleType) -> Failure:
    """What went wrong with one attempt of ``sdk`` (the openai module), and whether to try again."""
    if isinstance(exc, sdk.APITimeoutError):
        return Failure(f"timed out (timeout {timeout:g} s)", None, True)
    if isinstance(exc, sdk.APIConnectionError):
        return Failure(f"could not be reached ({_cause(exc)})", None, True)
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        return Failure(f"answered HTTP {status}{_status_hint(status)}: {_body_message(exc.body)}", status,
                       status in RETRYABLE_STATUS or status >= 500, parse_retry_after(exc.response.headers))
    return Failure(f"gave an unusable response ({type(exc).__name__})", None, False)


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
