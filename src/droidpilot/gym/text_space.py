"""A Gymnasium ``Text`` space that holds any Unicode text, and vector-env shared memory for it.

Gymnasium's ``Text`` accepts only characters of a fixed charset (alphanumerics by default) and keeps text
in shared memory as charset indices, so an instruction with punctuation or Chinese fails ``contains`` and
comes back from an ``AsyncVectorEnv`` with characters dropped. ``UnicodeText`` accepts any string of the
allowed length and is stored as code points; samples still come from the printable ASCII charset.
"""

from __future__ import annotations

import multiprocessing as mp
import string
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Text
from gymnasium.spaces.utils import flatdim, flatten, flatten_space, unflatten
from gymnasium.vector.utils.shared_memory import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

SAMPLE_CHARSET = string.ascii_letters + string.digits + string.punctuation + " "


class UnicodeText(Text):
    """Any ``str`` of ``min_length..max_length`` characters (code points); sampled from printable ASCII."""

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        """Any string of an allowed length, whatever its characters."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, UnicodeText) and self.min_length == other.min_length
                and self.max_length == other.max_length)

    __hash__ = None  # type: ignore[assignment]


def encode_text(space: UnicodeText, text: str) -> np.ndarray:
    """``text`` as ``max_length`` int32s: each code point + 1, then zeros (so U+0000 survives too)."""
    if len(text) > space.max_length:
        raise ValueError(f"text of {len(text)} characters is longer than the space's {space.max_length}")
    out = np.zeros(space.max_length, dtype=np.int32)
    if text:
        out[: len(text)] = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int32) + 1
    return out


def decode_text(codes: np.ndarray) -> str:
    """The inverse of ``encode_text``."""
    used = codes[codes > 0] - 1
    return used.astype(np.uint32).tobytes().decode("utf-32-le")


@create_shared_memory.register(UnicodeText)
def _create(space: UnicodeText, n: int = 1, ctx: Any = mp) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


class SharedTexts(Sequence[str]):
    """The texts of ``n`` environments, read from shared memory when looked at.

    ``AsyncVectorEnv`` reads its shared observation buffer once, when it starts, and relies on arrays
    being live views of it; a tuple of str read then would stay empty forever. This is the live view for
    text: indexing decodes the buffer as it is now, and a deep copy (what the vector env returns) is a
    plain tuple of the current texts.
    """

    def __init__(self, data: np.ndarray) -> None:
        self._data = data

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(decode_text(row) for row in self._data[index])
        return decode_text(self._data[index])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)


@read_from_shared_memory.register(UnicodeText)
def _read(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, space.max_length)))


@write_to_shared_memory.register(UnicodeText)
def _write(space: UnicodeText, index: int, value: str, shared_memory: Any) -> None:
    size = space.max_length
    destination = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    np.copyto(destination[index * size: (index + 1) * size], encode_text(space, value))


@flatten.register(UnicodeText)
def _flatten(space: UnicodeText, x: str) -> np.ndarray:
    return encode_text(space, x)


@unflatten.register(UnicodeText)
def _unflatten(space: UnicodeText, x: np.ndarray) -> str:
    return decode_text(np.asarray(x, dtype=np.int32))


@flatdim.register(UnicodeText)
def _flatdim(space: UnicodeText) -> int:
    return space.max_length


@flatten_space.register(UnicodeText)
def _flatten_space(space: UnicodeText) -> Any:
    from gymnasium.spaces import Box

    return Box(low=0, high=0x110000, shape=(space.max_length,), dtype=np.int32)
