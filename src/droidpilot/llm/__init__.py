"""Talking to multimodal models: an OpenAI-compatible chat client, image preparation, an answer cache,
and the yes/no judge the verifier's ``llm`` checker uses."""

from __future__ import annotations

from droidpilot.llm.cache import AnswerCache, default_cache_dir
from droidpilot.llm.client import ChatClient, ChatReply, LlmError
from droidpilot.llm.judge import Judgement, LlmJudge, parse_judgement

__all__ = [
    "AnswerCache",
    "ChatClient",
    "ChatReply",
    "Judgement",
    "LlmError",
    "LlmJudge",
    "default_cache_dir",
    "parse_judgement",
]
