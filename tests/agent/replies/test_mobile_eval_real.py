"""Every Action GPT-4V wrote in Mobile-Agent v1's real Mobile-Eval runs parses to the action it names.

The replies are read from ../shared/reference/mobile-eval-real (X-PLUG/MobileAgent results/, MIT licence,
copyright mPLUG; see the README and LICENSE there); the expected actions are hand labels in
examples/mobile_eval_real.yaml, not the parser's own output. Each step is tried as GPT-4V wrote it
(Mobile-Agent v1's plain labels) and as the same parts in Markdown (headings, the action fenced), the
style that used to cost a re-prompt.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from droidpilot.agent.actions import parse_action
from droidpilot.agent.replies import parse_reply

SHARED = Path(__file__).parents[3].parent / "shared"
RUNS = SHARED / "reference" / "mobile-eval-real"
LABELS = yaml.safe_load((Path(__file__).parent / "examples" / "mobile_eval_real.yaml").read_text("utf-8"))

pytestmark = pytest.mark.skipif(not RUNS.is_dir(), reason=f"Mobile-Eval runs not found at {RUNS}")


def _steps() -> list[Any]:
    if not RUNS.is_dir():
        return []
    out = []
    for run, labels in LABELS.items():
        data = json.loads((RUNS / run / "data.json").read_text("utf-8"))
        for step, expected in labels.items():
            out.append(pytest.param(data[str(step)], expected, id=f"{run}#{step}"))
    return out


def test_every_recorded_step_has_a_label() -> None:
    recorded = {(str(p.parent.relative_to(RUNS)), int(k))
                for p in RUNS.glob("*/*/data.json") for k in json.loads(p.read_text("utf-8"))}
    labelled = {(run, int(step)) for run, steps in LABELS.items() for step in steps}
    assert recorded == labelled
    assert len(labelled) == 254


@pytest.mark.parametrize(("step", "expected"), _steps())
def test_gpt4v_action_parses_to_its_label(step: dict[str, str], expected: str) -> None:
    assert parse_action(step["Action"]).format() == expected
    plain = f"Observation: {step['Observation']}\nThought: {step['Thought']}\nAction: {step['Action']}"
    parsed = parse_reply(plain)
    assert parsed.action.format() == expected
    assert parsed.thought == step["Thought"].strip()
    markdown = (f"### Observation\n{step['Observation']}\n\n### Thought\n{step['Thought']}\n\n"
                f"### Action\n```\n{step['Action']}\n```\n")
    assert parse_reply(markdown).action.format() == expected
