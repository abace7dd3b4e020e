"""Trace folders whose file names mislead, and paths that cannot name a file: each is a clear error (or,
written differently but right, still loads), never a hang, a silently dropped screen or a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from droidpilot.errors import InputError
from droidpilot.verify.spec import RuleError, load_rule
from droidpilot.verify.trace import load_trace

XML = "<hierarchy><node text='{}' bounds='[0,0][10,10]'/></hierarchy>"


def _folder(tmp_path: Path, shots: list[str], dumps: list[str], n_actions: int) -> Path:
    folder = tmp_path / "run"
    folder.mkdir(parents=True)
    for name in shots:
        Image.new("RGB", (20, 40), (90, 0, 0)).save(folder / name)
    for name in dumps:
        (folder / name).write_text(XML.format(name), encoding="utf-8")
    actions = [{"type": "click", "action_index": n} for n in range(1, n_actions + 1)]
    (folder / "actions.json").write_text(json.dumps({"task_description": "t", "actions": actions}))
    return folder


def _error(folder: Path) -> str:
    with pytest.raises(InputError) as info:
        load_trace(folder)
    return str(info.value)


def test_a_far_numbered_screenshot_is_a_gap_found_at_once(tmp_path: Path) -> None:
    # was a list of the 10**8 missing numbers (seconds and gigabytes) before the message
    folder = _folder(tmp_path, ["1.png", "2.png", "100000000.png"], [], 2)
    assert "screenshot 3.jpg or 3.png is missing" in _error(folder)
    assert "the last here is 100000000.png" in _error(folder)


def test_a_far_numbered_dump_is_refused_not_ignored(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["1.png", "2.png"], ["1.xml", "100000000.xml"], 2)
    message = _error(folder)
    assert "100000000.xml: this UI dump's number is beyond the frames present" in message
    assert "screenshots 1..2, so steps run 1..3 at most" in message


@pytest.mark.parametrize(("shots", "dumps", "expected"), [
    (["1.png", "1.jpg", "2.png"], [], "1.jpg and 1.png are both screenshot 1; keep one"),
    (["1.png", "01.png", "2.png"], [], "01.png and 1.png are both screenshot 1; keep one"),
    (["1.png"], ["1.xml", "001.XML"], "001.XML and 1.xml are both UI dump 1; keep one"),
    (["0.png", "1.png"], [], "0.png: screenshots are numbered from 1"),
    (["1.png"], ["0.xml"], "0.xml: UI dumps are numbered from 1"),
])
def test_two_files_for_one_step_or_a_step_zero_are_refused(tmp_path: Path, shots: list[str],
                                                            dumps: list[str], expected: str) -> None:
    assert expected in _error(_folder(tmp_path, shots, dumps, 1))  # each dropped a screen silently


def test_without_screenshots_the_dumps_are_the_screens(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [], ["1.xml", "2.xml", "3.xml"], 2)
    frames = load_trace(folder).frames  # the last dump (after the last action) was dropped
    assert [f.xml_text for f in frames] == [XML.format(f"{n}.xml") for n in (1, 2, 3)]
    assert frames[2].action is None
    gappy = _folder(tmp_path / "b", [], ["1.xml", "2.xml", "4.xml"], 4)
    assert [f.xml_text is not None for f in load_trace(gappy).frames] == [True, True, False, True]
    far = _folder(tmp_path / "c", [], ["1.xml", "9.xml"], 1)
    assert "9.xml: this UI dump's number is beyond the frames present (without screenshots the 2 UI " \
           "dumps are the screens, so steps run 1..3 at most)" in _error(far)


def test_paths_with_a_nul_byte_are_named_not_raised(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="has a NUL byte in its name"):
        load_trace(tmp_path / "run\0x")
    with pytest.raises(RuleError, match="has a NUL byte in its name"):
        load_rule(tmp_path / "rule\0.yaml")
    frames = tmp_path / "frames.json"
    for key in ("image", "xml"):
        frames.write_text(json.dumps([{"text": "a", key: "shot\0.png" if key == "image" else "d\0.xml"}]))
        with pytest.raises(InputError, match=f"frame 0: '{key}': .* has a NUL byte in its name"):
            load_trace(frames)


@pytest.mark.parametrize("kind", ["fifo", "devzero", "loop", "dangling", "folder"])
def test_a_rule_path_that_is_no_readable_file_is_named_for_what_it_is(tmp_path: Path, kind: str) -> None:
    rule = tmp_path / "rule.yaml"
    if kind == "fifo":
        os.mkfifo(rule)  # reading it blocked forever
        expected = "the rule file is a FIFO (named pipe), not a regular file"
    elif kind == "devzero":
        rule.symlink_to("/dev/zero")  # reading it never ended
        expected = "the rule file is a character device (a link to /dev/zero), not a regular file"
    elif kind == "loop":
        rule.symlink_to(rule)
        expected = "the rule file is a symbolic link that loops"
    elif kind == "dangling":
        rule.symlink_to(tmp_path / "gone.yaml")
        expected = "the rule file is a symbolic link to"
    else:
        rule.mkdir()
        expected = "the rule file is a folder, not a file"
    with pytest.raises(RuleError) as info:
        load_rule(rule)
    assert expected in str(info.value) and str(rule) in str(info.value)
    with pytest.raises(RuleError, match="rule file not found"):
        load_rule(tmp_path / "missing.yaml")


def test_a_looping_or_dangling_trace_link_in_a_batch_is_reported_not_left_out(tmp_path: Path) -> None:
    from droidpilot.verify.batch import find_traces

    batch = tmp_path / "traces"
    batch.mkdir()
    good = _folder(batch / "good", ["1.png"], [], 1)
    (batch / "looping").symlink_to(batch / "looping")
    (batch / "dangling").symlink_to(tmp_path / "moved-away")
    (batch / ".hidden").symlink_to(batch / ".hidden")
    (batch / "notes.txt").write_text("not a trace")
    found = find_traces([batch])  # the two links were skipped, so a batch of them "passed"
    assert found == [batch / "dangling", good.parent, batch / "looping"]
    with pytest.raises(InputError, match="symbolic link that loops"):
        load_trace(batch / "looping")
    loop_root = tmp_path / "loop-root"
    loop_root.symlink_to(loop_root)
    with pytest.raises(InputError, match=r"is not a folder of traces \(.* is a symbolic link that loops"):
        find_traces([loop_root])
    with pytest.raises(InputError, match=r"is not a folder of traces \(.*notes.txt is a file\)"):
        find_traces([batch / "notes.txt"])
