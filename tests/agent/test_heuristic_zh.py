"""The heuristic brain reads Chinese labels: CJK text has no spaces, so a label is named wherever the
instruction holds it (the cause of its 0/4 on mobiflow-zh: it never saw 微聊 on the home screen)."""

from __future__ import annotations

import pytest
from PIL import Image

from droidpilot.agent.brains.base import BrainRequest, HistoryEntry
from droidpilot.agent.brains.heuristic import HeuristicBrain
from droidpilot.agent.brains.heuristic_plan import make_plan, names_label
from droidpilot.agent.replies import parse_reply
from droidpilot.agent.screen import ScreenView
from droidpilot.perception.types import OcrLine

SIZE = (1080, 2400)
HOME = [("Settings", 700), ("Notes", 700), ("Mail", 700), ("微聊", 1000), ("星视频", 1000)]


@pytest.mark.parametrize(("instruction", "label", "named"), [
    ("在微聊中给张伟发送消息：明天见", "微聊", True),
    ("在微聊中给张伟发送消息：明天见", "张伟", True),
    ("在微聊中给张伟发送消息：明天见", "李娜", False),
    ("用Chat给妈妈发消息", "Chat", True),  # a Latin name between CJK characters
    ("用Chats给妈妈发消息", "Chat", False),
    ("Open Notes and write", "Notes", True),
    ("Open Keynotes", "Notes", False),  # Latin names keep their word boundaries
])
def test_names_label(instruction: str, label: str, named: bool) -> None:
    assert names_label(instruction, label) is named


def _decide(instruction: str, texts: list[tuple[str, int]], history: list[HistoryEntry]) -> str:
    lines = [OcrLine(t, (100, y, 100 + 40 * len(t), y + 50), 0.99) for t, y in texts]
    request = BrainRequest(kind="operate", instruction=instruction, prompt="",  # type: ignore[arg-type]
                           screen=ScreenView(Image.new("RGB", SIZE), lines=lines), step=len(history) + 1,
                           history=history)
    return parse_reply(HeuristicBrain().decide(request).text).action.format()


def test_opens_the_chinese_app_the_instruction_names() -> None:
    assert _decide("在微聊中给张伟发送消息：明天见", HOME, []) == "open App (微聊)"
    assert _decide("在星视频搜索西湖的视频", HOME, []) == "open App (星视频)"


def test_taps_the_named_contact_not_the_goal_button_first() -> None:
    opened = [HistoryEntry(1, "open App (微聊)", result="done", change=0.9)]
    chats = [("微聊", 150), ("发送", 300), ("张伟", 500), ("李娜", 700)]
    assert _decide("在微聊中给张伟发送消息：明天见", chats, opened) == "click text (张伟)"


def test_plan_reads_chinese_content_goals_and_search() -> None:
    plan = make_plan("在微聊的通讯录里找到陈杰，给他发消息：你好")
    assert plan.texts_to_type == ["你好"] and ["发送"] in plan.goals
    search = make_plan("在星视频搜索西湖的视频，打开后评论：太美了")
    assert search.query == "西湖" and search.has_search_verb and search.texts_to_type == ["太美了"]


def test_after_a_search_the_result_holding_the_query_is_tapped_not_the_echo() -> None:
    history = [HistoryEntry(1, "open App (星视频)", result="done", change=0.9),
               HistoryEntry(2, "click text (搜索视频)", result="done", change=0.2),
               HistoryEntry(3, "type (库里)", result="done", change=0.01),
               HistoryEntry(4, "enter", result="done", change=0.5)]
    results = [("库里", 180), ("综合", 330), ("库里生涯三分球集锦", 600), ("篮球时刻", 660)]
    assert _decide("在星视频搜索库里的视频并点赞", results, history) == "click text (库里生涯三分球集锦)"
