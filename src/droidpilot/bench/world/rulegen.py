"""The MobiFlow rule of a task instance, generated from its checkpoints and answer.

Each checkpoint (a list of texts) becomes a milestone that must hold after the previous one: all its
texts on one screen, read from the UI dump when there is one and by OCR otherwise (``escalate``), so
screenshots alone judge it. A retrieval task adds an ``answer`` milestone (the agent's ``answer`` action
contains the true value), an infeasible task one whose answer says ``infeasible``.
"""

from __future__ import annotations

from typing import Any

import yaml

from droidpilot.verify.rule import Task
from droidpilot.verify.spec import load_rule_text


def rule_document(
    task_id: str, package: str, kind: str, description: str, checkpoints: list[list[str]], answer: str | None
) -> dict[str, Any]:
    """The rule as a mapping in MobiFlow's format."""
    nodes: list[dict[str, Any]] = []
    for i, texts in enumerate(checkpoints):
        node: dict[str, Any] = {
            "id": f"screen_{i + 1}",
            "name": "The screen shows " + ", ".join(texts),
            "condition": {
                "type": "escalate",
                "params": {"xml": {"all": list(texts)}, "ocr": {"all": list(texts)}},
            },
        }
        if nodes:
            node["deps"] = [nodes[-1]["id"]]
        nodes.append(node)
    if answer is not None:
        node = {
            "id": "answer",
            "name": f"The agent answers {answer}",
            "condition": {"type": "action_match", "params": {"type": "answer", "contains": {"text": answer}}},
        }
        if nodes:
            node["deps"] = [nodes[-1]["id"]]
        nodes.append(node)
    return {
        "task_id": task_id,
        "app_id": package,
        "task_type": kind,
        "description": description,
        "nodes": nodes,
        "success": {"any_of": [nodes[-1]["id"]]},
    }


def build_rule(document: dict[str, Any]) -> tuple[Task, str]:
    """(validated rule, its YAML text) for ``document``."""
    text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=120)
    return load_rule_text(text, source="<rule>"), text
