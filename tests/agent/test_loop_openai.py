"""The v2 loop with the real OpenAI client against a loopback OpenAI-compatible server (scripted replies
chosen by reading each role's prompt; no model weights): one model for every role but the reflector,
which --role-model gives its own; tokens and latency of every role call land in steps.jsonl."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.support.openai_server import OpenAITestServer, RecordedRequest

from droidpilot.agent.brains.openai import OpenAIBrain
from droidpilot.agent.loops.roles import parse_role_models, role_brains
from droidpilot.bench.execute import run_task
from droidpilot.bench.suite import load_suite
from droidpilot.device.sim.phone import SimDevice
from droidpilot.verify.options import VerifierOptions

NOTE = "Today is Sunday, November 22, 2026"


def _decider_script() -> list[Any]:
    def notes(prompt: str) -> str:
        number = re.search(r"\[(\d+)\] text \"Notes\"", prompt)
        assert number is not None
        return f"tap {number.group(1)}"
    return ["open App (Calendar)", "exit", notes, "click icon (plus, bottom right)", f"type ({NOTE})",
            "click icon (black arrow, top right)", "stop"]


def test_v2_with_the_openai_client_and_a_role_model(ocr_engine: Any, tmp_path: Path) -> None:
    script = _decider_script()
    models: dict[str, set[str]] = {}

    def respond(request: RecordedRequest) -> str:
        prompt = "\n".join(request.texts())
        role = ("planner" if "planning agent" in prompt else "decider" if "decision agent" in prompt
                else "reflector" if "reflection agent" in prompt else "complete")
        models.setdefault(role, set()).add(str(request.body.get("model")))
        if role == "planner":
            return "Progress: on the way"
        if role == "reflector":
            return "**Outcome:** A\nError: None"
        if role == "complete":
            return "Completed: yes\nReason: the note is saved"
        step = script.pop(0)
        action = step(prompt) if callable(step) else step
        return f"Observation: the phone\nThought: next\nAction: {action}\nMemory: None"

    with OpenAITestServer(responder=respond) as server:
        def build(model: str) -> OpenAIBrain:
            return OpenAIBrain(model=model, base_url=server.base_url, api_key="sk-test", image_max_side=512,
                               max_retries=0)

        main = build("big-vl")
        roles = role_brains(main, parse_role_models(["reflector=small-vl"], "v2"), build)
        task = next(t for t in load_suite("mobile-eval").tasks if t.id == "multi-1")
        row = run_task(task, SimDevice(), main, tmp_path / "t", ocr_engine=ocr_engine,
                       options=VerifierOptions(), loop="v2", roles=roles)
    assert row["su"] == 1 and row["su_oracle"] == 1, row
    assert models == {"planner": {"big-vl"}, "decider": {"big-vl"}, "reflector": {"small-vl"},
                      "complete": {"big-vl"}}
    steps = [json.loads(x) for x in (tmp_path / "t" / "steps.jsonl").read_text().splitlines()]
    reflector = next(e for e in steps[0]["roles"] if e["role"] == "reflector")
    assert reflector["model"] == "small-vl" and reflector["prompt_tokens"] > 0
    assert reflector["parsed"] == ["A", "None"]
    run = json.loads((tmp_path / "t" / "run.json").read_text())
    assert run["settings"]["role_models"]["reflector"]["model"] == "small-vl"
    assert row["prompt_tokens"] == sum(c["prompt_tokens"] for s in steps for c in s.get("calls", []))
