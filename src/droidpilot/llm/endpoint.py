"""Where a model lives and how to authenticate: base URL, model name and API key from arguments or the
environment, and URLs made safe to show (no user info, no query)."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

from droidpilot.errors import InputError

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# Sent when no key is configured: local servers (vLLM, Ollama) accept any bearer token.
PLACEHOLDER_API_KEY = "no-key-configured"
KEY_ENV_VARS = ("DROIDPILOT_LLM_API_KEY", "OPENAI_API_KEY")
BASE_URL_ENV_VARS = ("DROIDPILOT_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_ENV_VAR = "DROIDPILOT_LLM_MODEL"
# The options that set the URL and the model, as named by the command that builds the client: `verify`
# and the judge use --llm-base-url/--llm-model, `run` and `bench` --base-url/--model.
LLM_FLAGS = ("--llm-base-url", "--llm-model")
AGENT_FLAGS = ("--base-url", "--model")


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


def resolve_base_url(base_url: str | None = None, flags: tuple[str, str] = LLM_FLAGS) -> str:
    """The endpoint: the argument, else DROIDPILOT_LLM_BASE_URL / OPENAI_BASE_URL, else OpenAI's."""
    url = base_url or next((os.environ[n] for n in BASE_URL_ENV_VARS if os.environ.get(n, "").strip()),
                           DEFAULT_BASE_URL)
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"LLM base URL {safe_url(url)!r} is not an http(s) URL; pass e.g. "
                         f"{flags[0]} http://127.0.0.1:8000/v1 or set DROIDPILOT_LLM_BASE_URL")
    return url


def resolve_model(model: str | None = None, flags: tuple[str, str] = LLM_FLAGS) -> str:
    """The model name: the argument, else DROIDPILOT_LLM_MODEL; InputError when neither is set."""
    name = (model or os.environ.get(MODEL_ENV_VAR, "")).strip()
    if not name:
        raise InputError(f"no LLM model given: pass {flags[1]} or set DROIDPILOT_LLM_MODEL")
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
