"""UnicodeText: any text in the space, and code points that survive flattening and shared memory."""

from __future__ import annotations

import multiprocessing as mp

import numpy as np
import pytest
from gymnasium.spaces.utils import flatten, unflatten
from gymnasium.vector.utils.shared_memory import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

from droidpilot.gym.text_space import UnicodeText, decode_text, encode_text

TEXTS = ["在微聊中给张伟发送消息：我到了", "Tap 'Save' — then \"OK\"!\n", "\x00nul first", "", "emoji 🙂"]


@pytest.mark.parametrize("text", TEXTS)
def test_any_text_is_in_the_space_and_round_trips(text):
    space = UnicodeText(40)
    assert space.contains(text)
    assert decode_text(encode_text(space, text)) == text
    assert unflatten(space, flatten(space, text)) == text


def test_length_and_type_are_checked():
    space = UnicodeText(5, min_length=1)
    assert not space.contains("toolong")
    assert not space.contains("")
    assert not space.contains(b"bytes")
    with pytest.raises(ValueError, match="longer than the space's 5"):
        encode_text(space, "toolong")
    assert space.contains(space.sample())


def test_shared_memory_reads_what_was_written_last_not_what_was_there_at_the_start():
    space = UnicodeText(30)
    memory = create_shared_memory(space, n=2, ctx=mp.get_context("spawn"))
    view = read_from_shared_memory(space, memory, n=2)
    assert tuple(view) == ("", "")
    write_to_shared_memory(space, 1, TEXTS[0], memory)
    write_to_shared_memory(space, 0, "second", memory)
    assert view == ("second", TEXTS[0])
    import copy

    frozen = copy.deepcopy(view)
    write_to_shared_memory(space, 0, "third", memory)
    assert frozen == ("second", TEXTS[0]) and view[0] == "third" and isinstance(frozen, tuple)
    assert np.frombuffer(memory.get_obj(), dtype=np.int32).size == 60
