"""One step of a recorded trace as the verifier sees it: the screen before an action, and the action.

A Frame is what checkers read. It loads its screenshot and parses its UI XML lazily and only once, and
it also behaves like the plain dict MobiFlow's checkers receive (``frame.get("text")``,
``frame["_index"]``), so checkers written for MobiFlow run unchanged.
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.errors import InputError
from droidpilot.verify.uistate import ui_from_xml

_BOUNDS_SEP = "]["


@dataclass(frozen=True)
class UiElement:
    """One node of a uiautomator dump; ``bounds`` is ``(x1, y1, x2, y2)`` in device pixels."""

    text: str
    content_desc: str
    cls: str
    resource_id: str
    bounds: tuple[int, int, int, int] | None
    clickable: bool
    checked: bool
    focused: bool
    selected: bool = False
    package: str = ""

    @property
    def label(self) -> str:
        """What a person reads on this element: its text, else its content description."""
        return self.text or self.content_desc


def parse_bounds(raw: str) -> tuple[int, int, int, int] | None:
    """Parse uiautomator's ``[x1,y1][x2,y2]``; None when absent or malformed."""
    raw = raw.strip()
    if not (raw.startswith("[") and raw.endswith("]") and _BOUNDS_SEP in raw):
        return None
    try:
        left, right = raw[1:-1].split(_BOUNDS_SEP)
        x1, y1 = (int(v) for v in left.split(","))
        x2, y2 = (int(v) for v in right.split(","))
    except ValueError:
        return None
    return (x1, y1, x2, y2)


def parse_ui_xml(xml_text: str, source: str = "<xml>") -> list[UiElement]:
    """Parse a uiautomator dump into elements. ``<hierarchy_dump_failed/>`` and empty text give []."""
    text = xml_text.strip()
    if not text or "hierarchy_dump_failed" in text[:200]:
        return []
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(f"{source}: not a valid UI XML dump ({exc})") from None

    def flag(node: ET.Element, name: str) -> bool:
        return node.get(name, "false").lower() == "true"

    return [
        UiElement(
            text=node.get("text", ""),
            content_desc=node.get("content-desc", ""),
            cls=node.get("class", ""),
            resource_id=node.get("resource-id", ""),
            bounds=parse_bounds(node.get("bounds", "")),
            clickable=flag(node, "clickable"),
            checked=flag(node, "checked"),
            focused=flag(node, "focused"),
            selected=flag(node, "selected"),
            package=node.get("package", ""),
        )
        for node in root.iter("node")
    ]


@dataclass(eq=False)
class Frame:
    """Step ``index`` of a trace (0-based): the screen before the action, the action, the agent's words.

    ``text`` is the free text text/regex checkers read (for traces from a runner, built from the agent's
    reasoning, the action and its parameters); ``action`` is MobiFlow's action dict (``type``,
    ``position_x``, ``text``, ``bounds``, ...). ``extra`` keeps every other key of the source record.
    """

    index: int
    image_path: Path | None = None
    xml_text: str | None = None
    action: dict[str, Any] | None = None
    reasoning: str = ""
    text: str = ""
    task_description: str = ""
    app: str = ""
    ui: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    next_frame: Frame | None = field(default=None, repr=False)
    _image_bytes: bytes | None = field(default=None, repr=False)
    _elements: list[UiElement] | None = field(default=None, repr=False)
    _ui_cache: tuple[str | None, dict[str, Any]] | None = field(default=None, repr=False)

    # -- screen --------------------------------------------------------------------------------
    def has_image(self) -> bool:
        return self.image_path is not None or self._image_bytes is not None

    def image_bytes(self) -> bytes:
        """The screenshot file's bytes, read once. Raises InputError naming the file when unreadable."""
        if self._image_bytes is None:
            if self.image_path is None:
                raise InputError(f"frame {self.index} has no screenshot")
            try:
                self._image_bytes = Path(self.image_path).read_bytes()
            except OSError as exc:
                raise InputError(f"frame {self.index}: cannot read screenshot {self.image_path}: "
                                 f"{exc.strerror or exc}") from None
        return self._image_bytes

    def image_hash(self) -> str:
        """SHA-256 of the screenshot bytes: the key for every cache of work done on this screen."""
        cached = self.extra.get("_image_sha256")
        if cached is None:
            cached = hashlib.sha256(self.image_bytes()).hexdigest()
            self.extra["_image_sha256"] = cached
        return cached

    def elements(self) -> list[UiElement]:
        """The UI XML's elements, parsed once ([] when the frame has no XML)."""
        if self._elements is None:
            self._elements = parse_ui_xml(self.xml_text or "", source=f"frame {self.index} XML")
        return self._elements

    def ui_state(self) -> dict[str, Any]:
        """The frame's ``ui`` state: derived from its UI XML (``uistate``), overlaid by the explicit ``ui``
        object of the trace. The same answer whether the benchmark, ``verify`` or the studio asks."""
        if self._ui_cache is None or self._ui_cache[0] is not self.xml_text:
            self._ui_cache = (self.xml_text, ui_from_xml(self.xml_text))
        derived = self._ui_cache[1]
        return {**derived, **self.ui} if derived else dict(self.ui)

    # -- MobiFlow's dict view -------------------------------------------------------------------
    _KEYS = ("text", "ui", "action", "reasoning", "task_description", "app", "xml_text")

    def _lookup(self, key: str) -> Any:
        if key in ("_index", "index"):
            return self.index
        if key == "xml":
            return self.xml_text
        if key in ("image", "screenshot", "image_path"):
            return str(self.image_path) if self.image_path else None
        if key == "ui":
            return self.ui_state()
        if key in self._KEYS:
            return getattr(self, key)
        return self.extra[key]

    def get(self, key: str, default: Any = None) -> Any:
        try:
            value = self._lookup(key)
        except KeyError:
            return default
        return default if value is None else value

    def __getitem__(self, key: str) -> Any:
        return self._lookup(key)

    def __setitem__(self, key: str, value: Any) -> None:
        if key in self._KEYS:
            setattr(self, key, value)
        else:
            self.extra[key] = value

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            return self._lookup(key) is not None
        except KeyError:
            return False

    def keys(self) -> Iterator[str]:
        yield from ("_index", *self._KEYS)
        yield from self.extra
