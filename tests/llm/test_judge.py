"""LlmJudge: strict answer parsing, prompts from package data, the answer cache, failures as undecided."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from tests.support.openai_server import OpenAITestServer, Reply, openai_server_fixture

from droidpilot.llm.judge import AnswerFormatError, LlmJudge, load_prompts, parse_judgement, pick_language

openai_server = openai_server_fixture()

YES = '{"result": "yes", "reason": "the cart shows 1 item"}'
NO = '{"result": "no", "reason": "still on the home screen"}'


def screen_png(label: str, size: tuple[int, int] = (240, 480)) -> bytes:
    image = Image.new("RGB", size, "white")
    ImageDraw.Draw(image).text((40, 60), label, fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def make_judge(server: OpenAITestServer, cache_dir: Path, **kw: object) -> LlmJudge:
    # A generous timeout: the loopback server answers at once, but a loaded machine (the suite runs on
    # every core) can take more than 0.3 s to schedule it; no test here waits for a timeout.
    settings: dict[str, object] = {"timeout": 5.0, "max_retries": 1, "backoff": 0.01}
    settings.update(kw)
    return LlmJudge(server.base_url, "test-model", None, 512, cache_dir, **settings)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "expected"), [
    (YES, (True, "the cart shows 1 item")),
    ('  {"result": "NO", "reason": "x"}\n', (False, "x")),
    ('```json\n{"result": "yes", "reason": "fenced"}\n```', (True, "fenced")),
    ('{"result": "no"}', (False, "")),
    ('{"result": "yes", "reason": "r", "confidence": 0.9}', (True, "r")),
])
def test_parse_accepts_the_asked_json(text: str, expected: tuple[bool, str]) -> None:
    assert parse_judgement(text) == expected


@pytest.mark.parametrize(("text", "problem"), [
    ("Yes, it is.", "not a JSON object"),
    ('Sure! {"result": "yes", "reason": "r"}', "not a JSON object"),
    ('```\n{"result": "yes"}\n```', "not a JSON object"),
    ('{"result": "maybe", "reason": "r"}', '"result" must be'),
    ('{"result": true}', '"result" must be'),
    ('{"result": "yes", "reason": 3}', '"reason" must be'),
    ('{"result": "yes", "result": "no"}', "repeats a key"),
    ('["yes"]', "not an object"),
    ("", "empty"),
])
def test_parse_rejects_everything_else(text: str, problem: str) -> None:
    with pytest.raises(AnswerFormatError, match=problem):
        parse_judgement(text)


def test_prompts_come_from_files_in_both_languages() -> None:
    for language in ("en", "zh"):
        prompts = load_prompts(language)
        assert '"result"' in prompts["system"].template
    assert pick_language("该步是否执行了搜索？", "auto") == "zh"
    assert pick_language("Did the step search?", "auto") == "en"
    assert pick_language("Did the step search?", "zh") == "zh"


def test_messages_hold_task_question_images_note_and_action(tmp_path: Path) -> None:
    judge = LlmJudge("http://127.0.0.1:9/v1", "m", cache_dir=tmp_path)
    system, user = judge.build_messages("任务`{task_description}`的商品是否已加入购物车？", 2,
                                        task_description="买一杯拿铁", action='{"type": "click"}')
    assert "JSON" in system["content"]
    assert "买一杯拿铁" in user["content"] and "{task_description}" not in user["content"]
    assert "图 2" in user["content"] and '{"type": "click"}' in user["content"]
    _, english = judge.build_messages("Is the cart open?", 1)
    assert "image 2" not in english["content"].lower() and "no task description" in english["content"]


def test_yes_and_no_answers(openai_server: OpenAITestServer, tmp_path: Path) -> None:
    openai_server.push(YES, NO)
    judge = make_judge(openai_server, tmp_path)
    first = judge.ask("Is an item in the cart?", [screen_png("cart: 1")], task_description="add milk")
    second = judge.ask("Is an item in the cart?", [screen_png("home")], task_description="add milk")
    assert (first.answer, first.reason, first.cached) == (True, "the cart shows 1 item", False)
    assert (second.answer, second.reason) == (False, "still on the home screen")
    assert first.prompt_tokens and first.attempts == 1
    request = openai_server.chat_requests[0]
    assert request.body["temperature"] == 0.0
    assert len(request.image_urls()) == 1 and any("add milk" in t for t in request.texts())


def test_unreadable_answer_is_repaired_once_then_undecided(openai_server: OpenAITestServer,
                                                           tmp_path: Path) -> None:
    openai_server.push("I think so.", YES, "Probably yes", "Definitely!")
    judge = make_judge(openai_server, tmp_path)
    repaired = judge.ask("Q?", [screen_png("a")])
    assert repaired.answer is True and repaired.attempts == 2
    follow_up = openai_server.chat_requests[1].messages()
    assert follow_up[-2] == {"role": "assistant", "content": "I think so."}
    assert "could not be read" in follow_up[-1]["content"]
    assert len(openai_server.chat_requests[1].image_urls()) == 1
    failed = judge.ask("Q?", [screen_png("b")])
    assert failed.answer is None and failed.error == "unparseable"
    assert "not the JSON asked for" in failed.reason and "Definitely!" in failed.reason
    assert failed.to_details()["raw"] == "Definitely!"


def test_unparseable_answers_are_not_cached(openai_server: OpenAITestServer, tmp_path: Path) -> None:
    openai_server.push("nope", YES)
    judge = make_judge(openai_server, tmp_path, format_retries=0)
    assert judge.ask("Q?", [screen_png("a")]).answer is None
    assert judge.ask("Q?", [screen_png("a")]).answer is True
    assert len(openai_server.chat_requests) == 2


def test_cache_in_memory_and_across_instances(openai_server: OpenAITestServer, tmp_path: Path) -> None:
    openai_server.push(YES)
    images = [screen_png("before"), screen_png("after")]
    judge = make_judge(openai_server, tmp_path)
    assert judge.ask("Q?", images, task_description="t").answer is True
    again = judge.ask("Q?", images, task_description="t")
    fresh = make_judge(openai_server, tmp_path).ask("Q?", images, task_description="t")
    assert again.cached and fresh.cached and fresh.answer is True and fresh.reason == "the cart shows 1 item"
    assert len(openai_server.chat_requests) == 1
    assert list((tmp_path / "llm-answers").rglob("*.json"))
    assert not list((tmp_path / "llm-answers").rglob("*.tmp"))


def test_cache_key_covers_model_prompt_and_images(openai_server: OpenAITestServer, tmp_path: Path) -> None:
    openai_server.push(YES, NO, NO, YES)
    judge = make_judge(openai_server, tmp_path)
    judge.ask("Q?", [screen_png("a")])
    assert judge.ask("Q?", [screen_png("b")]).answer is False          # other image
    assert judge.ask("Other question?", [screen_png("a")]).answer is False  # other prompt
    other_model = LlmJudge(openai_server.base_url, "other-model", cache_dir=tmp_path, timeout=5.0)
    assert other_model.ask("Q?", [screen_png("a")]).answer is True
    assert len(openai_server.chat_requests) == 4


def test_cache_dir_from_environment(openai_server: OpenAITestServer, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(tmp_path / "env-cache"))
    openai_server.push(YES)
    judge = LlmJudge(openai_server.base_url, "test-model", timeout=5.0)
    assert judge.ask("Q?", [screen_png("a")]).answer is True
    assert list((tmp_path / "env-cache" / "llm-answers").rglob("*.json"))


def test_service_failures_are_undecided(openai_server: OpenAITestServer, tmp_path: Path) -> None:
    openai_server.push(Reply(status=500), Reply(status=502))
    judgement = make_judge(openai_server, tmp_path).ask("Q?", [screen_png("a")])
    assert judgement.answer is None and judgement.error == "unreachable"
    assert "HTTP 502" in judgement.reason and "after 2 attempts" in judgement.reason


def test_bad_image_is_undecided_not_a_crash(openai_server: OpenAITestServer, tmp_path: Path) -> None:
    judgement = make_judge(openai_server, tmp_path).ask("Q?", [b"not a png"])
    assert judgement.answer is None and judgement.error == "bad_input"
    assert "not a readable image" in judgement.reason
    assert openai_server.chat_requests == []
