"""The inspector's calls, on a live phone's current screen or on one frame of a recorded trace.

A live call reads the screen and the UI dump together under the phone's lock, so the tree always belongs to
the pixels; a trace call reads ``N.jpg`` and ``N.xml`` of the frame (a frame without a dump gets no tree,
and says so). Selectors are run by ``inspect`` (uiautomator2, XPath) or grounded by ``inspect_words``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from droidpilot.device.base import DeviceError
from droidpilot.studio.errors import StudioError
from droidpilot.studio.files import file_problem, load_json, read_jsonl, read_text
from droidpilot.studio.inputs import shown, text_field
from droidpilot.studio.inspect import UiTree
from droidpilot.studio.inspect_words import find_words, is_words, perception, words_at
from droidpilot.studio.review import image_path

OcrFactory = Callable[[], Any] | None


def _ocr(factory: OcrFactory) -> Any:
    return factory() if factory else None


def _point(body: dict[str, Any], size: tuple[int, int]) -> tuple[int, int]:
    """(x, y) device pixels from a request, inside a screen of ``size`` (StudioError otherwise)."""
    x, y = body.get("x"), body.get("y")
    for key, value in (("x", x), ("y", y)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise StudioError(f"field {key!r} must be a number of device pixels, got {shown(value)}")
    px, py = int(x), int(y)  # type: ignore[arg-type]
    if not (0 <= px < size[0] and 0 <= py < size[1]):
        raise StudioError(f"point ({px}, {py}) is outside the {size[0]}x{size[1]} screen")
    return px, py


def _tree_json(tree: UiTree | None, size: tuple[int, int], note: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"size": list(size), "nodes": tree.to_json()["nodes"] if tree else []}
    if note:
        out["note"] = note
    return out


def _find(selector: Any, image: Image.Image, tree: UiTree | None, ocr: OcrFactory) -> dict[str, Any]:
    if not isinstance(selector, str):
        raise StudioError(f"field 'selector' must be text, got {shown(selector)}")
    if is_words(selector):
        return find_words(selector, image, _ocr(ocr), tree)
    if tree is None:
        raise StudioError("this screen has no UI dump: only droidpilot's words (click text (...)) can be "
                          "searched on it")
    return {"nodes": tree.find(selector)}


# -- a live phone -------------------------------------------------------------------------------------
def _live(session: Any) -> tuple[Image.Image, UiTree | None, str]:
    with session.device.lock:
        image = session.device.screenshot()
        try:
            xml = session.device.ui_xml()
        except DeviceError as exc:
            return image, None, f"the phone gives no UI dump: {exc}"
    return image, UiTree.parse(xml, f"{session.pid}'s UI dump"), ""


def live_tree(session: Any) -> dict[str, Any]:
    """The current screen's UI tree (with selectors)."""
    image, tree, note = _live(session)
    return _tree_json(tree, image.size, note)


def live_find(session: Any, body: dict[str, Any]) -> dict[str, Any]:
    """The nodes a selector finds on the current screen (droidpilot words: where the agent would tap)."""
    image, tree, _ = _live(session)
    return _find(body.get("selector"), image, tree, session.ocr)


def live_words(session: Any, body: dict[str, Any]) -> dict[str, Any]:
    """droidpilot's words for a tap at (x, y) on the current screen."""
    image, _, _ = _live(session)
    return words_at(image, _point(body, image.size), _ocr(session.ocr))


# -- a trace frame ------------------------------------------------------------------------------------
def _frame(body: dict[str, Any]) -> tuple[Path, int, Image.Image, UiTree | None, str]:
    path = text_field(body, "path")
    image_file = image_path(path, body.get("n"))
    with Image.open(image_file) as img:
        image = img.convert("RGB")
    n = int(image_file.stem)
    xml_file = image_file.with_name(f"{n}.xml")
    if file_problem(xml_file) is not None:
        return image_file.parent, n, image, None, f"frame {n} has no UI dump ({n}.xml)"
    return image_file.parent, n, image, UiTree.parse(read_text(xml_file), str(xml_file)), ""


def frame_tree(body: dict[str, Any]) -> dict[str, Any]:
    """Frame n's UI tree."""
    _, _, image, tree, note = _frame(body)
    return _tree_json(tree, image.size, note)


def frame_find(body: dict[str, Any], ocr: OcrFactory) -> dict[str, Any]:
    _, _, image, tree, _ = _frame(body)
    return _find(body.get("selector"), image, tree, ocr)


def frame_words(body: dict[str, Any], ocr: OcrFactory) -> dict[str, Any]:
    _, _, image, _, _ = _frame(body)
    return words_at(image, _point(body, image.size), _ocr(ocr))


def _tap_point(folder: Path, n: int) -> tuple[int, int] | None:
    """Where step n tapped (actions.json's position of action n), if it tapped."""
    actions = load_json(folder / "actions.json") or {}
    items = actions.get("actions", []) if isinstance(actions, dict) else []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("action_index") == n:
            x, y = item.get("position_x"), item.get("position_y")
            if isinstance(x, (int, float)) and isinstance(y, (int, float)) and x >= 0 and y >= 0:
                return int(x), int(y)
    return None


def _grounding_candidates(folder: Path, n: int) -> list[dict[str, Any]]:
    """The grounding candidates the step on frame n weighed (steps.jsonl), with the one chosen marked."""
    steps = read_jsonl(folder / "steps.jsonl") if file_problem(folder / "steps.jsonl") is None else []
    for step in steps:
        grounding = step.get("grounding") if step.get("frame") == n else None
        if isinstance(grounding, dict) and isinstance(grounding.get("candidates"), list):
            chosen = grounding.get("chosen")
            return [{"box": c["box"], "text": str(c.get("text") or c.get("description") or ""),
                     "chosen": chosen == i or len(grounding["candidates"]) == 1}
                    for i, c in enumerate(grounding["candidates"], start=1)
                    if isinstance(c, dict) and isinstance(c.get("box"), list) and len(c["box"]) == 4]
    return []


def frame_perception(body: dict[str, Any], ocr: OcrFactory) -> dict[str, Any]:
    """Frame n's OCR lines and icon candidates, its step's grounding candidates, and the node its tap hit."""
    folder, n, image, tree, _ = _frame(body)
    return {**perception(image, _ocr(ocr), tree, _tap_point(folder, n)),
            "candidates": _grounding_candidates(folder, n)}
