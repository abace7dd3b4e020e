"""The loopback test server other suites reuse: dynamic answers, unscripted requests, routes, shutdown."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from tests.support.openai_server import OpenAITestServer, RecordedRequest, Reply

from droidpilot.llm.client import ChatClient, LlmError


def test_responder_answers_from_the_request() -> None:
    def echo(request: RecordedRequest) -> str:
        return "echo: " + request.texts()[-1]

    with OpenAITestServer(responder=echo) as server:
        client = ChatClient(base_url=server.base_url, model="m", timeout=2, max_retries=0)
        assert client.chat("first").text == "echo: first"
        server.push(Reply(text="scripted wins", usage=False))
        reply = client.chat("second")
        assert reply.text == "scripted wins" and reply.prompt_tokens is None
        assert client.chat("third").text == "echo: third"


def test_unscripted_request_is_a_500_and_stop_is_prompt() -> None:
    server = OpenAITestServer().start()
    client = ChatClient(base_url=server.base_url, model="m", timeout=2, max_retries=0)
    with pytest.raises(LlmError, match="no scripted reply left"):
        client.chat("hi")
    server.push(Reply(text="never sent", delay=30.0))
    with pytest.raises(LlmError, match="timed out"):
        ChatClient(base_url=server.base_url, model="m", timeout=0.2, max_retries=0).chat("hi")
    server.stop()  # returns although a response is still stalled
    with pytest.raises(LlmError, match="could not be reached"):
        client.chat("after stop")


def test_models_route_and_unknown_routes() -> None:
    with OpenAITestServer(default="fine") as server:
        with urllib.request.urlopen(server.base_url + "/models", timeout=2) as response:
            assert json.load(response)["data"][0]["id"] == "test-model"
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(server.base_url + "/completions", data=b"{}", timeout=2)
        assert caught.value.code == 404
        assert [r.path for r in server.requests] == ["/v1/completions"]
