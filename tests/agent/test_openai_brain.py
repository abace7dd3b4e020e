"""The openai brain through the official client against a real OpenAI-compatible server on loopback."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image
from tests.support.openai_server import OpenAITestServer, Reply, openai_server_fixture

from droidpilot.agent.brains.openai import OpenAIBrain
from droidpilot.agent.loop import Agent

openai_server = openai_server_fixture()
SECRET = "sk-test-secret-key-never-in-traces"


def _image_size(data_url: str) -> tuple[int, int]:
    payload = data_url.split(",", 1)[1]
    with Image.open(io.BytesIO(base64.b64decode(payload))) as img:
        return img.size


def test_openai_brain_runs_the_loop_with_screenshots_tokens_and_no_key(
        openai_server: OpenAITestServer, paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    openai_server.push(
        Reply(status=429, retry_after="0"),  # retried by the client
        "Observation: home\nThought: notes\nAction: open App (Notes)",
        "Observation: notes\nThought: save\nAction: click text (Save)",
        "2",
        "Observation: saved\nThought: done\nAction: stop",
        "Completed: yes\nReason: the note is saved.",
    )
    brain = OpenAIBrain(model="test-model", base_url=openai_server.base_url, api_key=SECRET,
                        image_max_side=600, max_retries=2)
    result = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path).run("Save a note")
    assert result.termination == "completed" and paper_phone.screen == "saved"
    requests = openai_server.chat_requests
    assert len(requests) == 6
    first = requests[1]
    assert first.headers.get("authorization") == f"Bearer {SECRET}"
    assert any("Instruction: Save a note" in t for t in first.texts())
    urls = first.image_urls()
    assert len(urls) == 1 and urls[0].startswith("data:image/jpeg;base64,")
    assert max(_image_size(urls[0])) == 600  # downscaled from 540x1200
    choose = requests[3]
    assert len(choose.image_urls()) == 3  # the screenshot and the two numbered crops
    assert any("numbered 1 to 2" in t for t in choose.texts())
    # Tokens and latency are recorded per call; the key is nowhere in the trace.
    steps = [json.loads(x) for x in (tmp_path / "steps.jsonl").read_text().splitlines()]
    calls = [c for s in steps for c in s["calls"]]
    assert all(c["prompt_tokens"] > 0 and c["completion_tokens"] > 0 and c["latency_s"] > 0 for c in calls)
    assert result.prompt_tokens == sum(c["prompt_tokens"] for c in calls)
    for path in tmp_path.iterdir():
        assert SECRET.encode() not in path.read_bytes(), path.name
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["brain"]["model"] == "test-model" and "api_key" not in json.dumps(run)


def test_unreachable_endpoint_ends_the_run_with_brain_error(paper_phone: Any, ocr_engine: Any,
                                                            tmp_path: Path) -> None:
    with OpenAITestServer() as server:
        url = server.base_url
    brain = OpenAIBrain(model="m", base_url=url, api_key=SECRET, max_retries=0, timeout=2)
    result = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path).run("anything")
    assert result.termination == "brain_error" and "could not be reached" in result.error
    assert SECRET not in result.error
