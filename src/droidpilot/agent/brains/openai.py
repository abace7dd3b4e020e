"""A brain on any OpenAI-compatible chat endpoint (GPT-4o, Qwen-VL compatible mode, vLLM, Ollama).

The loop's text prompt goes out with the screenshot (downscaled to ``image_max_side``) and any crops as
data URLs; tokens and latency come back per call. The API key lives only inside the ChatClient: it is
never logged, never in ``describe()``, never in a trace.
"""

from __future__ import annotations

from typing import Any

from droidpilot.agent.brains.base import BrainError, BrainReply, BrainRequest
from droidpilot.agent.coords import CoordSpace, check_space, fit_size
from droidpilot.agent.replies.tool_calls import tool_schema
from droidpilot.errors import InputError
from droidpilot.llm.client import ChatClient, LlmError, safe_url
from droidpilot.llm.endpoint import AGENT_FLAGS

SYSTEM_PROMPT = {
    "en": "You are a careful assistant that operates an Android phone by looking at screenshots.",
    "zh": "你是一个通过查看屏幕截图来操作安卓手机的细心助手。",
}
TOOLS_NOTE = {
    "en": " Act by calling exactly one of the functions you are given.",
    "zh": " 请调用所给函数中的恰好一个来执行操作。",
}
ACTION_FORMATS = ("text", "tools")


class OpenAIBrain:
    """Decides with a multimodal chat model. ``coord_space`` applies to extended actions only.

    ``extended_actions`` adds tap/swipe/... to the prompt, for models that ground themselves (UI-TARS,
    Qwen-VL); a Mobile-Agent-style model (GPT-4o) is best left with the eight word-level operations.
    """

    name = "openai"
    answers_roles = True  # the model reads each role's prompt (v2/E loops)

    def __init__(self, model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                 *, client: ChatClient | None = None, image_max_side: int = 1024,
                 coord_space: CoordSpace = "image", extended_actions: bool = False,
                 temperature: float | None = 0.0, max_tokens: int | None = 512, timeout: float = 90.0,
                 max_retries: int = 3, action_format: str = "text") -> None:
        if action_format not in ACTION_FORMATS:
            raise InputError(f"unknown --action-format {action_format!r}; choose one of "
                             f"{', '.join(ACTION_FORMATS)}")
        self.action_format = action_format
        self.coord_space: CoordSpace = check_space(coord_space)
        self.image_max_side = image_max_side
        self.extended_actions = extended_actions
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.client = client or ChatClient(base_url=base_url, model=model, api_key=api_key, timeout=timeout,
                                           max_retries=max_retries, image_max_side=image_max_side,
                                           image_format="jpeg", flags=AGENT_FLAGS)

    def decide(self, request: BrainRequest) -> BrainReply:
        tools = self.action_format == "tools" and request.kind == "operate"
        system = SYSTEM_PROMPT.get(request.language, SYSTEM_PROMPT["en"])
        if tools:
            system += TOOLS_NOTE.get(request.language, TOOLS_NOTE["en"])
        messages = [{"role": "system", "content": system}, {"role": "user", "content": request.prompt}]
        images = [request.screen.image, *request.images]
        params: dict[str, Any] = {}
        if tools:  # OpenAI function calling: one function per action of the grammar
            params["tools"] = tool_schema(self.extended_actions)
            params["tool_choice"] = "auto"
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        try:
            reply = self.client.chat(messages, images=images, **params)
        except LlmError as exc:
            raise BrainError(str(exc)) from None
        return BrainReply(text=reply.text, prompt_tokens=reply.prompt_tokens or 0,
                          completion_tokens=reply.completion_tokens or 0, latency_s=reply.latency_s,
                          model_calls=1, image_size=fit_size(request.screen.size, self.image_max_side),
                          tool_calls=[dict(c) for c in reply.tool_calls] or None)

    def describe(self) -> dict[str, Any]:
        return {"model": self.client.model, "base_url": safe_url(self.client.base_url),
                "image_max_side": self.image_max_side, "coord_space": self.coord_space,
                "extended_actions": self.extended_actions, "action_format": self.action_format,
                "temperature": self.temperature,
                "max_tokens": self.max_tokens}
