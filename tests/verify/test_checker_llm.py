"""The ``llm`` checker through LlmJudge and the official client, against a loopback test server."""

from __future__ import annotations

import base64
import io
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw
from tests.support.openai_server import OpenAITestServer, Reply, openai_server_fixture

from droidpilot.llm import LlmJudge
from droidpilot.verify.checkers import Verdict, get_checker
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions

openai_server = openai_server_fixture()

YES = '{"result": "yes", "reason": "the search results are shown"}'
NO = '{"result": "no", "reason": "the screen shows the home page"}'
SECRET = "sk-test-SECRET-checker-77aa"
TASK = "在淘宝搜索拿铁"


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def render(path: Path, label: str, color: str = "white") -> Path:
    image = Image.new("RGB", (360, 800), color)
    ImageDraw.Draw(image).rectangle((30, 60, 330, 110), outline="black", width=6)
    ImageDraw.Draw(image).text((45, 75), label, fill="black")
    image.save(path)
    return path


@pytest.fixture
def frames(tmp_path: Path) -> list[Frame]:
    first = Frame(0, image_path=render(tmp_path / "0.png", "home"), task_description=TASK,
                  action={"type": "click", "position_x": 270, "position_y": 130})
    second = Frame(1, image_path=render(tmp_path / "1.png", "results", "#eef"), task_description=TASK)
    first.next_frame = second
    return [first, second]


def judge_for(server: OpenAITestServer, tmp_path: Path, **kw: Any) -> LlmJudge:
    settings: dict[str, Any] = {"timeout": 0.3, "max_retries": 1, "backoff": 0.01}
    settings.update(kw)
    return LlmJudge(server.base_url, "test-model", cache_dir=tmp_path / "cache", **settings)


def check(frame: Frame, options: VerifierOptions | None, **params: Any) -> Any:
    return get_checker("llm").run(frame, {"prompt": "该步是否执行了搜索？", **params}, options)


def test_yes_no_and_expected_true(openai_server: OpenAITestServer, frames: list[Frame],
                                  tmp_path: Path) -> None:
    options = VerifierOptions(llm_judge=judge_for(openai_server, tmp_path))
    openai_server.push(YES)
    result = check(frames[0], options)
    assert result.verdict is Verdict.YES and result.event == "screen"
    assert "the search results are shown" in result.reason
    assert result.details["answer"] == "yes" and result.details["images"] == 2
    assert check(frames[0], options, expected_true=False).verdict is Verdict.NO  # cached yes, inverted
    openai_server.push(NO, NO)
    assert check(frames[1], options).verdict is Verdict.NO
    inverted = check(frames[1], options, prompt="Is this the home page?", expected_true=False)
    assert inverted.verdict is Verdict.YES and inverted.details["expected_true"] is False


def test_request_shows_both_screens_task_prompt_and_action(openai_server: OpenAITestServer,
                                                          frames: list[Frame], tmp_path: Path) -> None:
    options = VerifierOptions(llm_judge=judge_for(openai_server, tmp_path, image_max_side=320))
    openai_server.push(YES, YES)
    check(frames[0], options, prompt="根据任务描述`{task_description}`，是否显示了搜索结果？")
    (request,) = openai_server.chat_requests
    text = "\n".join(request.texts())
    assert text.count(TASK) >= 2 and "{task_description}" not in text
    assert "图 2" in text and '"position_x": 270' in text
    urls = request.image_urls()
    assert len(urls) == 2 and all(u.startswith("data:image/png;base64,") for u in urls)
    sizes = [Image.open(io.BytesIO(base64.b64decode(u.split(",", 1)[1]))).size for u in urls]
    assert sizes == [(144, 320), (144, 320)]  # 360x800 screens downscaled to image_max_side=320
    check(frames[1], options)  # the last frame has no next frame: one image
    assert len(openai_server.chat_requests[1].image_urls()) == 1


def test_malformed_answers_are_undecided(openai_server: OpenAITestServer, frames: list[Frame],
                                         tmp_path: Path) -> None:
    openai_server.push("Yes.", '{"result": "probably"}')
    result = check(frames[0], VerifierOptions(llm_judge=judge_for(openai_server, tmp_path)))
    assert result.verdict is Verdict.UNDECIDED
    assert "not the JSON asked for" in result.reason and result.details["error"] == "unparseable"


def test_429_then_success(openai_server: OpenAITestServer, frames: list[Frame], tmp_path: Path) -> None:
    openai_server.push(Reply(status=429, retry_after="0"), YES)
    result = check(frames[0], VerifierOptions(llm_judge=judge_for(openai_server, tmp_path)))
    assert result.verdict is Verdict.YES and result.details["attempts"] == 2


def test_timeouts_then_undecided(openai_server: OpenAITestServer, frames: list[Frame],
                                 tmp_path: Path) -> None:
    openai_server.push(Reply(text=YES, delay=2.0), Reply(text=YES, delay=2.0))
    result = check(frames[0], VerifierOptions(llm_judge=judge_for(openai_server, tmp_path, timeout=0.2)))
    assert result.verdict is Verdict.UNDECIDED
    assert "timed out" in result.reason and "after 2 attempts" in result.reason
    assert len(openai_server.chat_requests) == 2


def test_unreachable_service_is_undecided_with_a_clear_reason(frames: list[Frame], tmp_path: Path) -> None:
    port = free_port()
    judge = LlmJudge(f"http://127.0.0.1:{port}/v1", "m", cache_dir=tmp_path, timeout=0.5, max_retries=1,
                     backoff=0.01)
    result = check(frames[0], VerifierOptions(llm_judge=judge))
    assert result.verdict is Verdict.UNDECIDED
    assert f"127.0.0.1:{port}" in result.reason and "could not be reached" in result.reason


def test_cache_second_check_sends_nothing_even_from_a_new_judge(openai_server: OpenAITestServer,
                                                                frames: list[Frame], tmp_path: Path) -> None:
    openai_server.push(YES)
    assert check(frames[0], VerifierOptions(llm_judge=judge_for(openai_server, tmp_path))).yes
    again = check(frames[0], VerifierOptions(llm_judge=judge_for(openai_server, tmp_path)))
    assert again.yes and again.details["cached"] is True
    assert len(openai_server.chat_requests) == 1


def test_api_key_stays_out_of_results(openai_server: OpenAITestServer, frames: list[Frame],
                                      tmp_path: Path) -> None:
    openai_server.push(YES, Reply(status=401, text=f"bad key {SECRET}"))
    judge = judge_for(openai_server, tmp_path, api_key=SECRET)
    options = VerifierOptions(llm_judge=judge)
    results = [check(frames[0], options), check(frames[1], options)]
    assert [r.verdict for r in results] == [Verdict.YES, Verdict.UNDECIDED]
    shown_results = [json.dumps(r.to_dict(), ensure_ascii=False) for r in results]
    for shown in (repr(judge), repr(options), *shown_results):
        assert SECRET not in shown
    assert (tmp_path / "cache").exists()
    assert all(SECRET not in p.read_text("utf-8") for p in (tmp_path / "cache").rglob("*.json"))


def test_no_llm_and_missing_screenshot_are_undecided(openai_server: OpenAITestServer, tmp_path: Path) -> None:
    bare = Frame(0, task_description=TASK)
    assert "no LLM configured" in check(bare, VerifierOptions()).reason
    assert check(bare, None).verdict is Verdict.UNDECIDED
    result = check(bare, VerifierOptions(llm_judge=judge_for(openai_server, tmp_path)))
    assert result.verdict is Verdict.UNDECIDED and "no screenshot" in result.reason
    broken = Frame(1, image_path=tmp_path / "missing.png")
    result = check(broken, VerifierOptions(llm_judge=judge_for(openai_server, tmp_path)))
    assert result.verdict is Verdict.UNDECIDED and "missing.png" in result.reason
    assert openai_server.chat_requests == []


@pytest.mark.parametrize(("answer", "expected_true", "verdict"), [
    (True, True, Verdict.YES), (False, True, Verdict.NO), (True, False, Verdict.NO),
    (False, False, Verdict.YES), (None, True, Verdict.UNDECIDED), ("yes", True, Verdict.UNDECIDED),
])
def test_mobiflow_callable(frames: list[Frame], answer: Any, expected_true: bool, verdict: Verdict) -> None:
    seen: list[dict[str, Any]] = []

    def llm(ctx: dict[str, Any]) -> Any:
        seen.append(ctx)
        return answer

    options = VerifierOptions(llm=llm)
    result = check(frames[0], options, prompt="任务{task_description}完成了吗？", expected_true=expected_true)
    assert result.verdict is verdict
    assert seen[0]["frame"] is frames[0] and seen[0]["options"] is options
    assert seen[0]["params"]["prompt"] == f"任务{TASK}完成了吗？"


def test_callable_that_raises_is_undecided(frames: list[Frame]) -> None:
    def llm(ctx: dict[str, Any]) -> bool:
        raise RuntimeError("model server down")

    result = check(frames[0], VerifierOptions(llm=llm))
    assert result.verdict is Verdict.UNDECIDED and "model server down" in result.reason


def test_validation_wants_a_prompt() -> None:
    checker = get_checker("llm")
    assert checker.reads == "screen" and checker.cost >= 50
    assert checker.validate({"prompt": "ok?"}) == []
    assert "non-empty 'prompt'" in checker.validate({"prompt": "  "})[0]


def test_verify_a_trace_with_an_llm_node(openai_server: OpenAITestServer, frames: list[Frame],
                                         tmp_path: Path) -> None:
    from droidpilot.verify.engine import verify
    from droidpilot.verify.rule import Condition, Node, Task

    task = Task(task_id="search", description=TASK, nodes=[
        Node(id="searched", condition=Condition(type="llm", params={
            "prompt": "根据任务描述`{{task_description}}`，该步骤是否展示了搜索结果？"}))])
    openai_server.push(NO, YES)  # frame 0: not yet; frame 1: results shown
    result = verify(task, frames, VerifierOptions(llm_judge=judge_for(openai_server, tmp_path)))
    assert result.ok and not result.manual_review_needed
    assert [m.node_id for m in result.matched] == ["searched"]
    assert all(TASK in "\n".join(r.texts()) for r in openai_server.chat_requests)

    down = LlmJudge(f"http://127.0.0.1:{free_port()}/v1", "m", cache_dir=tmp_path / "other", timeout=0.3,
                    max_retries=0)
    offline = verify(task, frames, VerifierOptions(llm_judge=down))
    assert not offline.ok and offline.manual_review_needed


def test_escalate_reaches_the_llm_when_cheap_checks_fail(openai_server: OpenAITestServer,
                                                         frames: list[Frame], tmp_path: Path) -> None:
    params = {"text": {"any": ["no such words"]}, "llm": {"prompt": "该步是否执行了搜索？"}}
    options = VerifierOptions(llm_judge=judge_for(openai_server, tmp_path))
    openai_server.push(YES)
    result = get_checker("escalate").run(frames[0], params, options)
    assert result.verdict is Verdict.YES
    assert any(child.checker == "llm" and child.yes for child in result.children)
    assert len(openai_server.chat_requests) == 1


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """The CLI configures the root logger; put it back for the tests that follow."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("restore_logging")
def test_cli_verify_with_an_llm_endpoint(openai_server: OpenAITestServer, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from droidpilot.cli import _discover, app
    from droidpilot.verify.examples import example_dir

    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(tmp_path / "cache"))
    rule = tmp_path / "rule.yaml"
    rule.write_text(
        "task_id: cart-llm\nnodes:\n"
        "  - id: results\n    next: [confirmed]\n    condition:\n      type: xml_text_match\n"
        "      params: {any: [\"Results for wireless earbuds\"]}\n"
        "  - id: confirmed\n    condition:\n      type: llm\n"
        "      params: {prompt: \"Does the screen confirm that the task {task_description} is done?\"}\n",
        encoding="utf-8")
    answers: list[str] = []

    def answer(request: Any) -> str:
        answers.append(request.body["model"])
        return YES if len(answers) >= 2 else NO

    openai_server.responder = answer
    _discover()
    out = CliRunner().invoke(app, ["verify", str(rule), str(example_dir() / "trace"), "--json",
                                   "--llm-base-url", openai_server.base_url, "--llm-model", "test-model"])
    assert out.exit_code == 0, out.output
    verdict = json.loads(out.output)
    assert verdict["ok"] and not verdict["manual_review_needed"]
    assert set(answers) == {"test-model"} and len(answers) >= 2
    trace_task = "Search for wireless earbuds and add the Budget Buds to the cart"  # from actions.json
    assert all(trace_task in "\n".join(r.texts()) for r in openai_server.chat_requests)
    assert all(len(r.image_urls()) in (1, 2) for r in openai_server.chat_requests)
