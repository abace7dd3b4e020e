"""A yes/no judge over screenshots: asks a multimodal model one question about one step of a trace.

The prompts come from ``prompts/judge.<lang>.yaml``; the answer must be the JSON object
``{"result": "yes"|"no", "reason": "..."}`` (optionally inside a ```json fence) and is parsed strictly.
A service that cannot be reached or an answer that cannot be read gives ``answer=None`` with the reason,
never a "no". Decided answers are cached by (model, prompt text, image hashes).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from PIL import Image

from droidpilot.errors import DroidpilotError, InputError
from droidpilot.llm.cache import AnswerCache, answer_key
from droidpilot.llm.client import ChatClient, ChatReply, LlmError
from droidpilot.llm.images import ImageFormat

Language = Literal["auto", "en", "zh"]
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_FENCE = re.compile(r"\A```json[ \t]*\r?\n(?P<body>.*?)\r?\n?```\Z", re.S | re.I)
_PROMPT_KEYS = ("system", "user", "no_task", "one_image", "two_images", "action", "no_action", "repair")


@dataclass
class Judgement:
    """The judge's answer: True (yes), False (no) or None (undecided: see ``error`` and ``reason``)."""

    answer: bool | None
    reason: str
    raw: str = ""
    error: str = ""  # "" | "unreachable" | "unparseable" | "bad_input"
    cached: bool = False
    model: str = ""
    attempts: int = 0
    latency_s: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def to_details(self) -> dict[str, Any]:
        """What a check result records about this answer."""
        out: dict[str, Any] = {"answer": {True: "yes", False: "no", None: None}[self.answer],
                               "model": self.model, "cached": self.cached}
        if not self.cached:
            out.update(attempts=self.attempts, latency_s=round(self.latency_s, 3),
                       prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens)
        if self.error:
            out["error"] = self.error
        if self.error == "unparseable":
            out["raw"] = self.raw[:500]
        return out


class AnswerFormatError(ValueError):
    """The model's answer is not the JSON object asked for."""


def parse_judgement(text: str) -> tuple[bool, str]:
    """(yes?, reason) from a model answer; AnswerFormatError saying what is wrong otherwise.

    Accepted: one JSON object, alone or inside a single ```json fence, with ``result`` "yes" or "no"
    (any case) and an optional string ``reason``; duplicate keys are rejected.
    """
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
    if not body:
        raise AnswerFormatError("the answer is empty")

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise AnswerFormatError("the JSON object repeats a key")
        return dict(pairs)

    try:
        value = json.loads(body, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise AnswerFormatError(f"not a JSON object ({exc.msg} at character {exc.pos})") from None
    if not isinstance(value, dict):
        raise AnswerFormatError(f"a JSON {type(value).__name__}, not an object")
    result = value.get("result")
    if not isinstance(result, str) or result.strip().lower() not in ("yes", "no"):
        shown = json.dumps(result, ensure_ascii=False)
        raise AnswerFormatError(f'"result" must be "yes" or "no", got {shown}')
    reason = value.get("reason", "")
    if not isinstance(reason, str):
        raise AnswerFormatError('"reason" must be a string')
    return result.strip().lower() == "yes", reason.strip()


@lru_cache(maxsize=4)
def load_prompts(language: str) -> dict[str, string.Template]:
    """The judge's prompt templates for ``language`` ("en" or "zh"), read from package data."""
    if language not in ("en", "zh"):
        raise InputError(f"judge prompt language {language!r} is not available; use 'en' or 'zh'")
    resource = importlib.resources.files("droidpilot.llm") / "prompts" / f"judge.{language}.yaml"
    data = yaml.safe_load(resource.read_text(encoding="utf-8"))
    missing = [k for k in _PROMPT_KEYS if not isinstance(data, dict) or not isinstance(data.get(k), str)]
    if missing:
        raise InputError(f"prompt file judge.{language}.yaml lacks the keys {missing}")
    return {k: string.Template(data[k]) for k in _PROMPT_KEYS}


def pick_language(question: str, language: Language) -> str:
    """``language`` itself, or for "auto" Chinese when the question has CJK characters, else English."""
    if language != "auto":
        return language
    return "zh" if _CJK.search(question) else "en"


def _image_hash(image: bytes | Image.Image) -> str:
    if isinstance(image, Image.Image):
        digest = hashlib.sha256(f"{image.mode}{image.size}".encode())
        digest.update(image.tobytes())
        return digest.hexdigest()
    return hashlib.sha256(image).hexdigest()


class LlmJudge:
    """Asks a model yes/no questions about screenshots, with retries, strict parsing and a cache.

    Built by the CLI from ``--llm-base-url`` / ``--llm-model``; the key comes from the environment
    (``DROIDPILOT_LLM_API_KEY`` or ``OPENAI_API_KEY``). ``format_retries`` re-asks that many times,
    showing the model its unreadable answer, before giving up as undecided.
    """

    def __init__(self, base_url: str | None = None, model: str | None = None, api_key: str | None = None,
                 image_max_side: int = 1024, cache_dir: Path | str | None = None, *,
                 language: Language = "auto", timeout: float = 60.0, max_retries: int = 3,
                 backoff: float = 1.0, image_format: ImageFormat = "png", use_cache: bool = True,
                 disk_cache: bool = True, format_retries: int = 1, temperature: float = 0.0,
                 max_tokens: int = 300, client: ChatClient | None = None) -> None:
        if language not in ("auto", "en", "zh"):
            raise InputError(f"judge language {language!r} is not supported; use 'auto', 'en' or 'zh'")
        self.client = client or ChatClient(base_url, model, api_key, timeout=timeout,
                                           max_retries=max_retries, backoff=backoff,
                                           image_max_side=image_max_side, image_format=image_format)
        self.language: Language = language
        self.format_retries = max(0, int(format_retries))
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.cache = AnswerCache(cache_dir, disk=disk_cache) if use_cache else None
        self.requests_sent = 0

    def __repr__(self) -> str:
        return f"LlmJudge(client={self.client!r}, language={self.language!r}, cache={self.cache!r})"

    @property
    def model(self) -> str:
        return self.client.model

    def close(self) -> None:
        """Release the client's HTTP connections."""
        self.client.close()

    def build_messages(self, question: str, n_images: int, task_description: str = "",
                       action: str = "") -> list[dict[str, Any]]:
        """The system and user messages (text only) for one question, in the question's language."""
        prompts = load_prompts(pick_language(question, self.language))
        task = task_description.strip() or prompts["no_task"].template
        question = fill_task_description(question, task_description)
        images = {0: "", 1: prompts["one_image"].template}.get(n_images, prompts["two_images"].template)
        action_line = prompts["action"].substitute(action=action) if action else prompts["no_action"].template
        user = prompts["user"].substitute(task_description=task, images=images, action=action_line,
                                          question=question.strip())
        user = re.sub(r"\n{3,}", "\n\n", user).strip()
        return [{"role": "system", "content": prompts["system"].template.strip()},
                {"role": "user", "content": user}]

    def ask(self, question: str, images: Sequence[bytes | Image.Image], task_description: str = "",
            action: str = "") -> Judgement:
        """Ask ``question`` about ``images`` (the step's screen, then optionally the next one)."""
        messages = self.build_messages(question, len(images), task_description, action)
        key = self._key(messages, images)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None and isinstance(hit.get("answer"), bool):
                return Judgement(hit["answer"], str(hit.get("reason", "")), raw=str(hit.get("raw", "")),
                                 cached=True, model=str(hit.get("model", self.model)))
        try:
            judgement = self._ask_model(messages, images, pick_language(question, self.language))
        except LlmError as exc:
            return Judgement(None, f"LLM unavailable: {exc}", error="unreachable", model=self.model,
                             attempts=exc.attempts)
        except DroidpilotError as exc:
            return Judgement(None, f"cannot ask the LLM: {exc}", error="bad_input", model=self.model)
        if judgement.answer is not None and self.cache is not None:
            self.cache.put(key, {"answer": judgement.answer, "reason": judgement.reason,
                                 "raw": judgement.raw, "model": judgement.model})
        return judgement

    def _ask_model(self, messages: list[dict[str, Any]], images: Sequence[bytes | Image.Image],
                   language: str) -> Judgement:
        # Images ride with the question; a repair round adds text only and resends the same parts.
        conversation = self.client.with_images(messages, images)
        first = list(conversation)
        total = ChatReply("", 0, 0, 0.0, self.model, 0)
        problem = ""
        for round_ in range(self.format_retries + 1):
            self.requests_sent += 1
            reply = self.client.chat(conversation, temperature=self.temperature,
                                     max_tokens=self.max_tokens)
            total = _add(total, reply)
            try:
                answer, reason = parse_judgement(reply.text)
            except AnswerFormatError as exc:
                problem = str(exc)
                if round_ < self.format_retries:
                    repair = load_prompts(language)["repair"]
                    conversation = [*first, {"role": "assistant", "content": reply.text},
                                    {"role": "user", "content": repair.substitute(problem=problem).strip()}]
                continue
            return Judgement(answer, reason, raw=reply.text, model=total.model, attempts=total.attempts,
                             latency_s=total.latency_s, prompt_tokens=total.prompt_tokens,
                             completion_tokens=total.completion_tokens)
        excerpt = " ".join(reply.text.split())[:160]
        return Judgement(None, f"the model's answer is not the JSON asked for ({problem}): {excerpt!r}",
                         raw=reply.text, error="unparseable", model=total.model, attempts=total.attempts,
                         latency_s=total.latency_s, prompt_tokens=total.prompt_tokens,
                         completion_tokens=total.completion_tokens)

    def _key(self, messages: list[dict[str, Any]], images: Sequence[bytes | Image.Image]) -> str:
        prompt_text = "\n\n".join(str(m["content"]) for m in messages)
        client = self.client
        settings = f"{client.image_max_side}|{client.image_format}|{self.temperature}"
        return answer_key(self.model, prompt_text, [_image_hash(i) for i in images], settings)


def fill_task_description(text: str, task_description: str) -> str:
    """Replace ``{{task_description}}`` and ``{task_description}`` in a rule's prompt."""
    return text.replace("{{task_description}}", task_description).replace("{task_description}",
                                                                           task_description)


def _add(total: ChatReply, reply: ChatReply) -> ChatReply:
    def plus(a: int | None, b: int | None) -> int | None:
        return None if a is None or b is None else a + b

    return ChatReply(reply.text, plus(total.prompt_tokens, reply.prompt_tokens),
                     plus(total.completion_tokens, reply.completion_tokens),
                     total.latency_s + reply.latency_s, reply.model, total.attempts + reply.attempts)
