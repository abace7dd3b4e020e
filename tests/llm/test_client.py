"""ChatClient against a real OpenAI-compatible server on loopback, through the official openai client."""

from __future__ import annotations

import base64
import io
import logging
import pickle
import socket

import pytest
from PIL import Image
from tests.support.openai_server import OpenAITestServer, Reply, openai_server_fixture

from droidpilot.errors import InputError
from droidpilot.llm.client import ChatClient
from droidpilot.llm.endpoint import PLACEHOLDER_API_KEY
from droidpilot.llm.failures import LlmError, parse_retry_after

openai_server = openai_server_fixture()

SECRET = "sk-test-SECRET-9f8e7d6c5b4a"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DROIDPILOT_LLM_API_KEY", "OPENAI_API_KEY", "DROIDPILOT_LLM_BASE_URL", "OPENAI_BASE_URL",
                 "DROIDPILOT_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)


def fast_client(server: OpenAITestServer, **kw: object) -> ChatClient:
    # Tests of timeouts pass their own (short) timeout; the others get one a loaded machine cannot miss.
    settings: dict[str, object] = {"timeout": 5.0, "max_retries": 2, "backoff": 0.01}
    settings.update(kw)
    return ChatClient(base_url=server.base_url, model="test-model", **settings)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_reply_carries_text_tokens_and_model(openai_server: OpenAITestServer) -> None:
    openai_server.push("hello there")
    reply = fast_client(openai_server).chat([{"role": "user", "content": "hi"}], temperature=0)
    assert reply.text == "hello there"
    assert reply.model == "test-model"
    assert reply.attempts == 1 and reply.waits == ()
    assert reply.prompt_tokens is not None and reply.prompt_tokens > 0
    assert reply.completion_tokens == len("hello there") // 4 + 1
    assert reply.latency_s > 0
    body = openai_server.chat_requests[0].body
    assert body["model"] == "test-model" and body["temperature"] == 0


def test_images_are_downscaled_data_urls_after_the_user_text(openai_server: OpenAITestServer) -> None:
    openai_server.push("ok", "ok")
    screen = Image.new("RGB", (1080, 2400), (20, 120, 220))
    fast_client(openai_server, image_max_side=512).chat("look", images=[screen])
    request = openai_server.chat_requests[0]
    parts = request.messages()[-1]["content"]
    assert parts[0] == {"type": "text", "text": "look"}
    (url,) = request.image_urls()
    assert url.startswith("data:image/png;base64,")
    decoded = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert decoded.size == (230, 512)
    fast_client(openai_server, image_max_side=256, image_format="jpeg").chat("look", images=[screen])
    jpeg_url = openai_server.chat_requests[1].image_urls()[0]
    assert jpeg_url.startswith("data:image/jpeg;base64,")
    assert Image.open(io.BytesIO(base64.b64decode(jpeg_url.split(",", 1)[1]))).size == (115, 256)


def test_429_with_retry_after_is_honoured_then_succeeds(openai_server: OpenAITestServer) -> None:
    openai_server.push(Reply(status=429, retry_after="0.2"), "after the rate limit")
    reply = fast_client(openai_server).chat("hi")
    assert reply.text == "after the rate limit"
    assert reply.attempts == 2
    assert reply.waits == (0.2,)
    assert len(openai_server.chat_requests) == 2


def test_500_then_success_uses_exponential_backoff(openai_server: OpenAITestServer) -> None:
    openai_server.push(Reply(status=500), Reply(status=503), "finally")
    reply = fast_client(openai_server, backoff=0.02).chat("hi")
    assert reply.text == "finally" and reply.attempts == 3
    first, second = reply.waits
    assert 0.015 <= first <= 0.025 and 0.03 <= second <= 0.05


def test_timeout_is_retried(openai_server: OpenAITestServer) -> None:
    openai_server.push(Reply(text="too late", delay=3.0), "in time")
    reply = fast_client(openai_server, timeout=1.0).chat("hi")
    assert reply.text == "in time" and reply.attempts == 2


def test_timeouts_exhaust_retries_with_a_clear_error(openai_server: OpenAITestServer) -> None:
    openai_server.push(*(Reply(delay=2.0) for _ in range(3)))
    with pytest.raises(LlmError) as caught:
        fast_client(openai_server, timeout=0.2, max_retries=2).chat("hi")
    err = caught.value
    assert err.attempts == 3 and err.retryable and err.status is None and len(err.waits) == 2
    assert "timed out" in str(err) and "after 3 attempts" in str(err)
    assert openai_server.base_url in str(err)


def test_unreachable_port_gives_a_clear_error() -> None:
    port = free_port()
    client = ChatClient(base_url=f"http://127.0.0.1:{port}/v1", model="m", timeout=0.5, max_retries=1,
                        backoff=0.01)
    with pytest.raises(LlmError) as caught:
        client.chat("hi")
    message = str(caught.value)
    assert f"127.0.0.1:{port}" in message and "could not be reached" in message
    assert "DROIDPILOT_LLM_BASE_URL" in message and caught.value.attempts == 2


def test_client_errors_are_not_retried(openai_server: OpenAITestServer) -> None:
    openai_server.push(Reply(status=404, text="model 'nope' does not exist"))
    with pytest.raises(LlmError) as caught:
        fast_client(openai_server).chat("hi")
    assert caught.value.status == 404 and not caught.value.retryable
    assert "does not exist" in str(caught.value) and "wrong base URL or model" in str(caught.value)
    assert len(openai_server.chat_requests) == 1


def test_a_body_that_is_not_a_completion_is_an_error(openai_server: OpenAITestServer) -> None:
    openai_server.push(Reply(raw=b'{"object": "list", "choices": []}'), Reply(raw=b"<html>proxy</html>"))
    with pytest.raises(LlmError, match="no choices"):
        fast_client(openai_server).chat("hi")
    with pytest.raises(LlmError, match="not JSON"):
        fast_client(openai_server).chat("hi")
    assert len(openai_server.chat_requests) == 2


def test_api_key_never_leaks(openai_server: OpenAITestServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    openai_server.push("fine", Reply(status=401, text=f"Incorrect API key provided: {SECRET}"))
    client = fast_client(openai_server, api_key=SECRET)
    client.chat("hi")
    with pytest.raises(LlmError) as caught:
        client.chat("hi")
    for shown in (repr(client), str(client), str(caught.value), repr(caught.value), caplog.text):
        assert SECRET not in shown
    assert "api_key=<argument>" in repr(client)
    assert "refused" in str(caught.value)
    for request in openai_server.chat_requests:
        assert request.headers["authorization"] == f"Bearer {SECRET}"
        assert SECRET.encode() not in request.raw
        assert all(SECRET not in v for k, v in request.headers.items() if k != "authorization")


def test_key_and_settings_come_from_the_environment(openai_server: OpenAITestServer,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    openai_server.push("a", "b", "c")
    monkeypatch.setenv("DROIDPILOT_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("DROIDPILOT_LLM_MODEL", "env-model")
    ChatClient().chat("x")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-env")
    ChatClient().chat("x")
    monkeypatch.setenv("DROIDPILOT_LLM_API_KEY", "sk-droidpilot-env")
    ChatClient().chat("x")
    auth = [r.headers["authorization"] for r in openai_server.chat_requests]
    assert auth == [f"Bearer {PLACEHOLDER_API_KEY}", "Bearer sk-openai-env", "Bearer sk-droidpilot-env"]
    assert {r.body["model"] for r in openai_server.chat_requests} == {"env-model"}


def test_missing_model_and_bad_url_are_input_errors() -> None:
    with pytest.raises(InputError, match="DROIDPILOT_LLM_MODEL"):
        ChatClient(base_url="http://127.0.0.1:1/v1")
    with pytest.raises(InputError, match="not an http"):
        ChatClient(base_url="ftp://example/v1", model="m")


def test_pickled_client_rebuilds_its_connection(openai_server: OpenAITestServer) -> None:
    openai_server.push("from a copy")
    copy = pickle.loads(pickle.dumps(fast_client(openai_server, api_key=SECRET)))
    assert copy.chat("hi").text == "from a copy"
    assert openai_server.chat_requests[0].headers["authorization"] == f"Bearer {SECRET}"


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0) == 10.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_retry_after_is_capped(openai_server: OpenAITestServer) -> None:
    client = fast_client(openai_server, max_retry_after=0.05)
    assert client.retry_delay(1, retry_after=600.0) == 0.05
    assert 0.0075 <= client.retry_delay(1) <= 0.0125
    assert client.retry_delay(30) <= client.max_backoff * 1.25


def test_a_screenshot_is_prepared_once_per_client(openai_server: OpenAITestServer) -> None:
    png = io.BytesIO()
    Image.new("RGB", (900, 1600), "green").save(png, format="PNG")
    openai_server.push("one", "two")
    client = fast_client(openai_server, image_max_side=400)
    client.chat("first question", images=[png.getvalue()])
    client.chat("second question", images=[png.getvalue()])
    first, second = (r.image_urls() for r in openai_server.chat_requests)
    assert first == second and len(client._parts) == 1
