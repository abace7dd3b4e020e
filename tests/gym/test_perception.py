"""The perception list in the observation: off by default; the phone's labels or real OCR for the texts,
icons from the pixels, points in the space the agent acts in, built once per distinct frame."""

from __future__ import annotations

import re

import gymnasium
import pytest

import droidpilot.gym  # noqa: F401  (registers the environments)

TEMPLATE = "contacts-add"


def _make(**kwargs):
    return gymnasium.make("droidpilot/World-v0", templates=TEMPLATE, **kwargs).unwrapped


def _points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r" at \(([\d.]+), ([\d.]+)\)$", text, re.MULTILINE)]


def test_off_by_default():
    env = _make()
    obs, _ = env.reset(seed=1)
    assert "perception" not in obs and "perception" not in env.observation_space.spaces


def test_labels_list_the_screen_texts_and_icons_in_observation_pixels():
    env = _make(perception="labels", size="540x1200")
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    lines = obs["perception"].splitlines()
    assert lines[0].startswith("[1] text ")
    assert any(' text "Contacts" at ' in line for line in lines)
    assert any(" icon " in line for line in lines)  # the launcher's app icons, found in the pixels
    points = _points(obs["perception"])
    assert len(points) == len(lines)
    assert all(0 <= x < 540 and 0 <= y < 1200 for x, y in points) and max(y for _, y in points) > 1
    contacts = next(line for line in lines if ' text "Contacts" at ' in line)
    x, y = _points(contacts)[0]
    obs, *_ = env.step(f"Action: tap ({round(x)}, {round(y)})")  # the listed point opens the app
    assert env.device.current_app() == "com.simphone.contacts"
    assert "Search contacts" in obs["perception"]


def test_structured_actions_get_normalised_points_and_a_seen_frame_is_not_perceived_again():
    env = _make(perception="labels", action="structured")
    obs, _ = env.reset(seed=1)
    points = _points(obs["perception"])
    assert points and all(0 <= x <= 1 and 0 <= y <= 1 for x, y in points)
    back = {"action_type": 8, "coords": [0, 0, 0, 0], "text": ""}
    again, *_ = env.step(back)  # back on the home screen: nothing to close, the same frame
    assert again["perception"] is obs["perception"]


@pytest.mark.slow
def test_ocr_reads_the_screen_like_the_labels_do():
    env = _make(perception="ocr")
    obs, _ = env.reset(seed=1)
    texts = re.findall(r' text "([^"]*)" at ', obs["perception"])
    assert {"Contacts", "Settings", "Notes"} <= set(texts)


@pytest.mark.parametrize("mode", ["label", "OCR", ""])
def test_an_unknown_perception_mode_names_the_choices(mode):
    with pytest.raises(ValueError, match="is not one of: labels, ocr"):
        _make(perception=mode)
