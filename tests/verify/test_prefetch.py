"""The verify command's guess of whether a verification will read screenshots by OCR (and so should start
loading the models first): from the rule's words and the trace folder's files alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.verify.prefetch import needs_ocr

ESCALATE = "nodes:\n  - id: a\n    condition: {type: escalate, params: {xml: {all: [A]}, ocr: {all: [A]}}}\n"
OCR_ONLY = "nodes:\n  - id: a\n    condition: {type: ocr_match, params: {any: [A]}}\n"
TEXT_ONLY = "nodes:\n  - id: a\n    condition: {type: text_match, params: {any: [\"ocr\u00e9\", socrates]}}\n"


def _trace(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "trace"
    folder.mkdir()
    for name in names:
        (folder / name).write_bytes(b"x")
    return folder


def _rule(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rule.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("rule_text", [ESCALATE, OCR_ONLY, '{"nodes": [{"condition": {"type": "OCR"}}]}'])
def test_an_ocr_rule_on_screenshots_without_ui_dumps_will_read_them(tmp_path, rule_text) -> None:
    assert needs_ocr(_rule(tmp_path, rule_text), _trace(tmp_path, "1.jpg", "2.PNG", "actions.json"))


def test_ui_dumps_let_the_escalation_stop_before_ocr(tmp_path) -> None:
    assert not needs_ocr(_rule(tmp_path, ESCALATE), _trace(tmp_path, "1.jpg", "1.xml", "actions.json"))


def test_a_rule_without_ocr_checks_reads_no_screens(tmp_path) -> None:
    assert not needs_ocr(_rule(tmp_path, TEXT_ONLY), _trace(tmp_path, "1.jpg"))


def test_a_trace_without_screenshots_or_not_a_folder_reads_none(tmp_path) -> None:
    rule = _rule(tmp_path, OCR_ONLY)
    assert not needs_ocr(rule, _trace(tmp_path, "actions.json"))
    frames = tmp_path / "frames.json"
    frames.write_text("[]", encoding="utf-8")
    assert not needs_ocr(rule, frames)


def test_unreadable_inputs_are_left_to_the_loaders(tmp_path) -> None:
    assert not needs_ocr(tmp_path / "missing.yaml", tmp_path)
    assert not needs_ocr(tmp_path, tmp_path)  # a folder given as the rule


@pytest.mark.parametrize("looping", ["2.png", "1.xml", "actions.json", "react.json"])
def test_a_looping_link_in_the_trace_is_skipped_not_raised(tmp_path, looping) -> None:
    folder = _trace(tmp_path, *(n for n in ("1.png", "2.png", "actions.json") if n != looping))
    (folder / looping).symlink_to(folder / looping)
    # the guess goes on from the other files (1.png is a screenshot); the loader reports the loop
    assert needs_ocr(_rule(tmp_path, OCR_ONLY), folder)


def test_a_looping_trace_folder_or_rule_and_nul_bytes_are_a_no(tmp_path) -> None:
    rule = _rule(tmp_path, OCR_ONLY)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert not needs_ocr(rule, loop)
    assert not needs_ocr(loop, _trace(tmp_path, "1.png"))
    assert not needs_ocr(Path(f"{rule}\0x"), tmp_path / "trace")
    assert not needs_ocr(rule, Path(f"{tmp_path}/trace\0x"))
