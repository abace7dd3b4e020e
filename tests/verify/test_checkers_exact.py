"""``exact`` on the screen checkers: a typed value must be a whole line (an element's label, an OCR line),
so a longer text that contains it is a near miss, while case, spacing and a final full stop do not count."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.verify.checkers import Verdict, get_checker
from droidpilot.verify.frame import Frame
from droidpilot.verify.options import VerifierOptions


def dump(*labels: str) -> str:
    nodes = "".join(f'<node index="{i}" text="{t}" class="android.widget.TextView" package="p" '
                    f'content-desc="" bounds="[0,{i * 50}][500,{i * 50 + 40}]" />'
                    for i, t in enumerate(labels))
    return f'<hierarchy rotation="0">{nodes}</hierarchy>'


@pytest.mark.parametrize(("labels", "verdict"), [
    (["New contact", "Paige Parker"], Verdict.YES),
    (["New contact", "paige  parker."], Verdict.YES),           # case, spacing, final stop folded
    (["New contact", "Paige Parkerson"], Verdict.NO),            # autocomplete lengthened it
    (["New contact", "Paige Parker and co"], Verdict.NO),        # words added
    (["New contact", "Ms Paige Parker"], Verdict.NO),
    (["Paige", "Parker"], Verdict.NO),                           # never joined across elements
])
def test_xml_exact_wants_a_whole_label(labels: list[str], verdict: Verdict) -> None:
    frame = Frame(index=0, xml_text=dump(*labels))
    result = get_checker("xml_text_match").run(frame, {"exact": ["Paige Parker"]}, None)
    assert result.verdict is verdict, result.reason


@pytest.mark.parametrize(("line", "verdict"), [
    ("晚上一起吃饭吧", Verdict.YES), ("晚上一起吃饭吧。", Verdict.YES), ("晚上一起吃饭吧了", Verdict.NO),
])
def test_exact_cjk_has_no_word_boundaries_to_hide_behind(line: str, verdict: Verdict) -> None:
    frame = Frame(index=0, xml_text=dump("王芳", line))
    assert get_checker("xml").run(frame, {"exact": "晚上一起吃饭吧"}, None).verdict is verdict


def test_exact_combines_with_keywords() -> None:
    frame = Frame(index=0, xml_text=dump("Rename recording", "Museum meetings"))
    params = {"all": ["Rename recording"], "exact": ["Museum meeting"]}
    result = get_checker("xml").run(frame, params, None)
    assert result.verdict is Verdict.NO and "Museum meeting" in result.reason
    assert get_checker("xml").run(Frame(index=0, xml_text=dump("Rename recording", "Museum Meeting")),
                                  params, None).yes


def test_ocr_exact_reads_whole_lines(tmp_path: Path) -> None:
    shot = tmp_path / "1.png"
    shot.write_bytes(b"\x89PNG\r\n\x1a\n")  # the callable reads no pixels
    lines = {"now": "Sounds good and I love you\n12:01", "right": "Sounds good.\n12:01", "o": "Atlanta 2O24",
             "wrapped": "New note\nInterview charger dentist\nmeeting printer holiday\n1",
             "cut": "Sounds good and\nI love you", "cursor": "Dec 10]\nMuseum meetingl\nPaige Parker|"}
    checker = get_checker("ocr_match")

    def run(key: str, exact: str) -> Verdict:
        options = VerifierOptions(ocr=lambda f: lines[key])
        return checker.run(Frame(index=0, image_path=shot), {"exact": exact}, options).verdict

    assert run("now", "Sounds good") is Verdict.NO
    assert run("right", "Sounds good") is Verdict.YES
    assert run("o", "Atlanta 2024") is Verdict.YES  # an OCR confusion in a number is folded
    assert run("wrapped", "Interview charger dentist meeting printer holiday") is Verdict.YES  # wrapped lines
    assert run("wrapped", "charger dentist meeting") is Verdict.NO  # a run of whole lines, not a part
    assert run("cut", "Sounds good") is Verdict.NO
    for typed in ("Dec 10", "Museum meeting", "Paige Parker"):  # a text cursor read at the end of a field
        assert run("cursor", typed) is Verdict.YES
    assert run("cursor", "Museum meetings") is Verdict.NO


@pytest.mark.parametrize(("checker", "params", "problem"), [
    ("xml", {"exact": []}, "'exact' names no text"),
    ("xml", {"exact": ["ok", " "]}, "'exact' contains an empty text"),
    ("ocr", {"exact": ""}, "'exact' contains an empty text"),
])
def test_exact_is_validated(checker: str, params: dict, problem: str) -> None:
    assert any(problem in p for p in get_checker(checker).validate(params))


def test_exact_alone_is_a_valid_check() -> None:
    assert get_checker("xml").validate({"exact": ["Paige Parker"]}) == []
    assert get_checker("ocr").validate({"exact": ["Paige Parker"]}) == []
