"""Filling ``{task_description}`` (or ``{{task_description}}``) in checker parameters from the trace.

MobiFlow's LLM prompts embed the task description this way. Only these two spellings are replaced;
every other brace is left alone, because prompts and regular expressions use braces of their own.
"""

from __future__ import annotations

import re
from typing import Any

_PLACEHOLDER = re.compile(r"\{\{task_description\}\}|\{task_description\}")


def fill_placeholders(params: Any, task_description: str) -> Any:
    """A copy of ``params`` with the placeholders replaced in every string, through dicts and lists."""
    if isinstance(params, str):
        if "task_description" not in params:
            return params
        return _PLACEHOLDER.sub(lambda _: task_description, params)
    if isinstance(params, dict):
        return {key: fill_placeholders(value, task_description) for key, value in params.items()}
    if isinstance(params, list):
        return [fill_placeholders(value, task_description) for value in params]
    if isinstance(params, tuple):
        return tuple(fill_placeholders(value, task_description) for value in params)
    return params


def has_placeholder(params: Any) -> bool:
    """Whether any string inside ``params`` contains a task-description placeholder."""
    if isinstance(params, str):
        return _PLACEHOLDER.search(params) is not None
    if isinstance(params, dict):
        return any(has_placeholder(v) for v in params.values())
    if isinstance(params, (list, tuple)):
        return any(has_placeholder(v) for v in params)
    return False
