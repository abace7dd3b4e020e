"""The loopback test server other suites reuse: dynamic answers, unscripted requests, routes, shutdown."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

import pytest
from tests.support import openai_server
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


def _raw_post(port: int, declared: int, body: bytes, *, half_close: bool = False) -> tuple[int, dict]:
    head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {declared}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(head + body)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        data = bytearray()
        while chunk := s.recv(65536):
            data += chunk
    top, _, rest = bytes(data).partition(b"\r\n\r\n")
    return int(top.split(b" ", 2)[1]), json.loads(rest)


def test_a_body_shorter_than_its_content_length_is_answered_not_waited_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A stalled body is a 408 after the stall limit, a body cut short by the client a 400; neither
    reaches the script, and a whole request after them is answered as usual."""
    monkeypatch.setattr(openai_server, "REQUEST_STALL", 0.5)
    with OpenAITestServer(default="fine") as server:
        status, answer = _raw_post(server.port, 100, b'{"messages": []')
        assert status == 408 and "promised 100 bytes but it stalled" in answer["error"]["message"]
        status, answer = _raw_post(server.port, 100, b'{"messages"', half_close=True)
        assert status == 400 and "ended after 11 bytes" in answer["error"]["message"]
        body = json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode()
        status, answer = _raw_post(server.port, len(body), body)
        assert status == 200 and answer["choices"][0]["message"]["content"] == "fine"
        assert len(server.requests) == 1
