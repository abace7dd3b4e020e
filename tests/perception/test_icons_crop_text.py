"""Text written in an icon is read again from the candidate's enlarged crop, with the same RapidOCR
engine, only when the query names text and no OCR line of the screen reads it: the word asked is found,
a near-miss word ("LOVE" for "LIVE") is not, and the screen's own lines are used when they read it."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import pytest

from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.crop_text import _rapid, icon_text_boxes
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.types import OcrLine

W, H = 540, 1170
UNRELATED = [OcrLine("For You", (200, 80, 300, 110), 0.99)]  # the screen was read; nothing reads the word


def _screen(words: Sequence[tuple[str, tuple[int, int]]]) -> tuple[np.ndarray, list[Region]]:
    """A dark screen with small badges, each a word in white on a red rounded box (BGR), and its regions."""
    img = np.full((H, W, 3), 30, np.uint8)
    regions = []
    for word, (x, y) in words:
        cv2.rectangle(img, (x, y), (x + 40, y + 22), (40, 40, 220), -1)
        cv2.putText(img, word, (x + 3, y + 16), cv2.FONT_HERSHEY_DUPLEX, 0.42, (255, 255, 255), 1,
                    cv2.LINE_AA)
        regions.append(Region((x, y, x + 41, y + 23), "mask"))
    return img, regions


def _never(_: np.ndarray) -> list[OcrLine]:
    raise AssertionError("the crop was read though it need not be")


needs_rapid = pytest.mark.skipif(_rapid() is None, reason="rapidocr not installed")


@needs_rapid
def test_the_word_in_a_badge_is_read_from_its_crop_and_a_look_alike_word_is_not() -> None:
    img, regions = _screen([("LOVE", (300, 60)), ("LIVE", (24, 60))])
    found = icon_text_boxes(img, regions, parse_icon_query("LIVE icon, top left", names_ok=True), UNRELATED)
    assert found == [regions[1].box]
    read: list[str] = []

    def rapid_seen(crop: np.ndarray) -> list[OcrLine]:
        lines = list(_rapid()(crop))  # type: ignore[misc]
        read.extend(ln.text for ln in lines)
        return lines

    query = parse_icon_query("LIVE icon", names_ok=True)
    none = icon_text_boxes(img, regions[:1], query, UNRELATED, rapid_seen)
    assert none == [] and read  # the look-alike was read, and not taken for the word


def test_a_line_of_the_screen_reading_the_word_is_used_without_reading_crops() -> None:
    img, regions = _screen([("LIVE", (24, 60))])
    line = OcrLine("LIVE", (27, 64, 62, 80), 0.98)
    query = parse_icon_query("LIVE icon", names_ok=True)
    assert icon_text_boxes(img, regions, query, [*UNRELATED, line], reader=_never) == [line.box]


def test_crops_are_read_only_for_a_query_naming_text_on_a_screen_that_was_read() -> None:
    img, regions = _screen([("LIVE", (24, 60))])
    assert icon_text_boxes(img, regions, parse_icon_query("red heart", names_ok=True), UNRELATED,
                           reader=_never) == []
    live = parse_icon_query("LIVE icon", names_ok=True)
    assert icon_text_boxes(img, regions, live, [], reader=_never) == []


def test_only_a_few_icon_sized_candidates_in_the_asked_place_are_read() -> None:
    img, regions = _screen([("LIVE", (24 + 44 * k, 60)) for k in range(10)])
    regions += [Region((0, 600, 540, 700), "mask")]  # a card, not an icon
    read: list[tuple[int, int]] = []

    def counting(crop: np.ndarray) -> list[OcrLine]:
        read.append(crop.shape[:2])
        return []

    icon_text_boxes(img, regions, parse_icon_query("LIVE icon, top left", names_ok=True), UNRELATED, counting)
    assert 0 < len(read) <= 6 and all(h <= 108 for h, _ in read)
