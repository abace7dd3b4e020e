"""ocr_match on rendered screenshots read by the real RapidOCR engine: any / all / pattern / ignore_case,
fuzzy keywords, the MobiFlow-style ocr callable, undecided answers, and OCR done once per screenshot."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.synth import font
from droidpilot.perception.types import OcrLine
from droidpilot.verify.checkers import Verdict, get_checker
from droidpilot.verify.checkers.ocr import OCR_LINES_KEY, frame_ocr_lines
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions

SCREEN_LINES = [("确认订单", True), ("提交订单", True), ("合计 ¥25.00", True), ("Payment method", False),
                ("Notifications", False)]


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every OCR of this module goes to a fresh cache directory."""
    path = tmp_path_factory.mktemp("ocr-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DROIDPILOT_CACHE_DIR", str(path))
        yield path


@pytest.fixture(scope="module")
def engine() -> RapidOcrEngine:
    return RapidOcrEngine()


@pytest.fixture(scope="module")
def shot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An order-confirmation screen (Chinese and English lines) saved as a PNG."""
    img = Image.new("RGB", (420, 330), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for i, (text, cjk) in enumerate(SCREEN_LINES):
        draw.text((20, 20 + i * 60), text, font=font(30, cjk=cjk), fill=(20, 20, 20))
    path = tmp_path_factory.mktemp("shots") / "order.png"
    img.save(path)
    return path


def check(shot: Path, engine: RapidOcrEngine, params: dict, frame: Frame | None = None):
    options = VerifierOptions(ocr_engine=engine)
    return get_checker("ocr").run(frame or Frame(index=0, image_path=shot), params, options)


@pytest.mark.parametrize(("params", "verdict"), [
    ({"all": ["确认订单", "提交订单"]}, Verdict.YES),
    ({"all": ["确认订单", "去结算"]}, Verdict.NO),
    ({"any": ["去结算", "提交订单"]}, Verdict.YES),
    ({"any": "去结算"}, Verdict.NO),
    ({"pattern": r"合计\s*[¥￥]\s*\d+\.\d{2}"}, Verdict.YES),
    ({"pattern": r"退款"}, Verdict.NO),
    ({"all": ["提交订单"], "pattern": r"退款"}, Verdict.NO),  # every given constraint must hold
    ({"any": ["payment METHOD"]}, Verdict.YES),  # case-insensitive by default
    ({"any": ["payment METHOD"], "ignore_case": False}, Verdict.NO),
    ({"any": ["Notifcations"]}, Verdict.YES),  # a misspelt long keyword still matches
    ({"any": ["订车"]}, Verdict.NO),  # two characters: exact only, never fuzzy
])
def test_keywords_and_patterns(shot: Path, engine: RapidOcrEngine, params: dict, verdict: Verdict) -> None:
    result = check(shot, engine, params)
    assert result.verdict is verdict, result.to_dict()
    assert result.checker == "ocr_match" and result.event == "screen"


def test_details_record_matched_and_unmatched_keywords(shot: Path, engine: RapidOcrEngine) -> None:
    result = check(shot, engine, {"all": ["提交订单", "去结算"], "any": ["Notifcations"]})
    details = result.details
    assert set(details["matched"]) == {"提交订单", "Notifcations"}
    assert details["matched"]["Notifcations"]["how"] == "fuzzy"
    assert details["matched"]["提交订单"]["text"] == "提交订单"
    assert details["unmatched"] == ["去结算"]
    assert details["source"] == "rapidocr" and details["lines"] == len(SCREEN_LINES)
    assert "去结算" in result.reason


class Counting:
    """The real engine, counting recognitions."""

    def __init__(self, engine: RapidOcrEngine) -> None:
        self.engine, self.name, self.calls = engine, engine.name, 0

    def settings_key(self) -> str:
        return self.engine.settings_key() + ";counted"

    def recognize(self, image: object) -> list[OcrLine]:
        self.calls += 1
        return self.engine.recognize(image)  # type: ignore[arg-type]


def test_a_screenshot_is_read_once_and_its_lines_are_kept_on_the_frame(shot: Path, engine: RapidOcrEngine
                                                                      ) -> None:
    counting = Counting(engine)
    options = VerifierOptions(ocr_engine=counting)
    frame = Frame(index=3, image_path=shot)
    checker = get_checker("ocr_match")
    assert checker.run(frame, {"any": ["提交订单"]}, options).yes
    assert checker.run(frame, {"all": ["确认订单"]}, options).yes
    lines = frame_ocr_lines(frame, options)
    assert lines is not None and lines[0].text == "确认订单"
    assert frame.extra[OCR_LINES_KEY]  # other screen checkers (icons) reuse these
    fresh = Frame(index=3, image_path=shot)  # another run over the same trace: answered from disk
    assert checker.run(fresh, {"any": ["提交订单"]}, options).yes
    assert counting.calls == 1


def test_mobiflow_style_ocr_callable(shot: Path) -> None:
    seen = []

    def ocr(frame: Frame) -> str:
        seen.append(frame.index)
        return "支付成功\n订单号 123"

    checker = get_checker("ocr")
    frame = Frame(index=7, image_path=shot)
    assert checker.run(frame, {"all": ["支付成功"]}, VerifierOptions(ocr=ocr)).yes
    assert checker.run(frame, {"pattern": r"订单号\s*\d+"}, VerifierOptions(ocr=ocr)).yes
    assert seen == [7, 7]
    unreadable = checker.run(frame, {"any": ["x"]}, VerifierOptions(ocr=lambda f: None))
    assert unreadable.undecided


def test_undecided_without_engine_or_screenshot(shot: Path, engine: RapidOcrEngine, tmp_path: Path) -> None:
    checker = get_checker("ocr_match")
    none = checker.run(Frame(index=0, image_path=shot), {"any": ["订单"]}, VerifierOptions())
    assert none.undecided and "no OCR engine configured" in none.reason
    blind = checker.run(Frame(index=0), {"any": ["订单"]}, VerifierOptions(ocr_engine=engine))
    assert blind.undecided and "no screenshot" in blind.reason
    gone = checker.run(Frame(index=2, image_path=tmp_path / "gone.png"), {"any": ["订单"]},
                       VerifierOptions(ocr_engine=engine))
    assert gone.undecided and "gone.png" in gone.reason


def test_engine_given_by_name(shot: Path) -> None:
    checker = get_checker("ocr_match")
    frame = Frame(index=0, image_path=shot)
    assert checker.run(frame, {"any": ["提交订单"]}, VerifierOptions(ocr_engine="rapidocr")).yes
    wrong = checker.run(frame, {"any": ["提交订单"]}, VerifierOptions(ocr_engine="easyocr"))
    assert wrong.undecided and "unknown OCR engine" in wrong.reason


def test_declaration_and_validation() -> None:
    checker = get_checker("ocr")
    assert checker.name == "ocr_match" and checker.reads == "screen"
    assert checker.cost > get_checker("text_match").cost
    assert set(checker.params_spec) == {"any", "all", "pattern", "ignore_case", "whole_numbers", "value",
                                         "exact"}
    assert checker.validate({"any": ["订单"]}) == []
    assert checker.validate({"pattern": "(unclosed"})[0].startswith("ocr_match: invalid regular expression")
    assert "needs 'any', 'all', 'pattern', 'exact' or a typed 'value'" in checker.validate({})[0]
    assert "empty keyword" in checker.validate({"all": ["ok", ""]})[0]


@pytest.fixture(scope="module")
def dense_shot(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A full-size settings list (titles and longer summaries: several recognition batches), as a PNG."""
    from droidpilot.perception.synth import render_list_screen

    screen = render_list_screen(size=(1080, 2400), theme="light", lang="en", seed=5, scale=1.0)
    path = tmp_path_factory.mktemp("dense") / "list.png"
    screen.image.save(path)
    return path, [label.text for label in screen.labels]


def test_a_yes_needs_only_part_of_the_screen_and_says_what_a_whole_read_says(
        dense_shot: tuple[Path, list[str]], engine: RapidOcrEngine) -> None:
    path, labels = dense_shot
    options = VerifierOptions(ocr_engine=engine)
    checker = get_checker("ocr_match")
    frame = Frame(index=0, image_path=path)
    early = checker.run(frame, {"any": [labels[0]]}, options)
    assert early.yes
    assert early.details["lines_read"] < early.details["lines_found"], early.details
    whole = frame_ocr_lines(frame, options)  # the same frame's reading, read to the end
    assert whole is not None and len(whole) > early.details["lines"]
    again = checker.run(Frame(index=0, image_path=path), {"any": [labels[0]]}, options)  # from the cache
    assert again.yes and "lines_read" not in again.details
    assert again.details["matched"] == early.details["matched"]


def test_lines_wide_enough_for_the_longest_all_keyword_are_read_first() -> None:
    from droidpilot.verify.checkers.ocr import early_yes, keyword_columns

    assert keyword_columns("Weekly sync") == 11 * 14 and keyword_columns("设置") == 2 * 28
    _, first = early_yes({"all": ["Inbox", "Weekly sync"]})  # type: ignore[misc]
    assert first == 10 * 14  # every all-keyword is needed: the longest ("weeklysync", as matched) decides
    _, first = early_yes({"any": ["Send email?", "Sent"]})  # type: ignore[misc]
    assert first == 4 * 14  # one any-keyword is enough: the shortest decides
    assert early_yes({"all": ["Inbox"], "pattern": "x"}) is None


def test_a_no_and_a_pattern_read_the_whole_screen(dense_shot: tuple[Path, list[str]],
                                                   engine: RapidOcrEngine) -> None:
    path, labels = dense_shot
    options = VerifierOptions(ocr_engine=engine)
    checker = get_checker("ocr_match")
    for params in ({"all": [labels[0], "Airplane mode is on"]}, {"pattern": re.escape(labels[0])}):
        frame = Frame(index=0, image_path=path.with_name("copy.png"))
        frame.image_path.write_bytes(path.read_bytes() + b"\0" * len(str(params)))  # a cache miss each
        result = checker.run(frame, params, options)
        assert result.verdict is (Verdict.NO if "all" in params else Verdict.YES)
        assert "lines_read" not in result.details  # decided on every line
        assert frame.extra[OCR_LINES_KEY]


def test_only_a_few_unfinished_readings_stay_open_and_a_dropped_one_starts_again(
        dense_shot: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    from droidpilot.verify.checkers import ocr as ocr_checker

    monkeypatch.setattr(ocr_checker, "MAX_OPEN", 2)
    path, labels = dense_shot
    options = VerifierOptions(ocr_engine=RapidOcrEngine())  # its line memory is empty: readings stay open
    checker = get_checker("ocr_match")
    frames = []
    for i in range(3):  # three screenshots the disk cache has not seen (same pixels, other bytes)
        copy = path.with_name(f"open-{i}.png")
        copy.write_bytes(path.read_bytes() + b"\0" * (100 + i))
        frames.append(Frame(index=i, image_path=copy))
    for frame in frames:  # each stops early and holds its screenshot's pixels
        assert checker.run(frame, {"any": [labels[0]]}, options).yes
    open_on = [any(not r.done for r in f.extra.get(ocr_checker.OCR_READING_KEY, {}).values()) for f in frames]
    assert open_on == [False, True, True], "the oldest unfinished reading was let go"
    again = checker.run(frames[0], {"all": [labels[0], "Airplane mode is on"]}, options)
    assert again.verdict is Verdict.NO and "lines_read" not in again.details  # started again, read to the end
