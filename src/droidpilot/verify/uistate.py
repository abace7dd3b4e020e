"""The ``ui`` state of a recorded frame, read from its UI dump: what the screen shows about its widgets.

The one definition of ``ui``, used wherever the verifier runs (``droidpilot verify``, the benchmark, the
batch verifier, the studio): ``Frame.ui_state()`` merges what this module derives from the frame's
uiautomator XML with any ``ui`` object the trace gives explicitly (explicit keys win). ``checked`` maps
the label of every checkable widget (a switch row's title, an icon button's description) to whether it
is on, and ``package`` names the foreground app. A switch's state is drawn, not written, so OCR alone
cannot see it; the dump can.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

_STATE_WORDS = {"on", "off", "true", "false", ""}


def _label(node: ET.Element) -> str:
    for attr in ("text", "content-desc"):
        value = (node.get(attr) or "").strip()
        if value.lower() not in _STATE_WORDS:
            return value
    for child in node.iter():
        if child is node:
            continue
        value = (child.get("text") or "").strip()
        if value.lower() not in _STATE_WORDS:
            return value
    return ""


def ui_from_xml(xml_text: str | None) -> dict[str, Any]:
    """``{"checked": {label: bool}, "package": str}`` from a uiautomator dump ({} when there is none)."""
    if not xml_text or "hierarchy_dump_failed" in xml_text[:200]:
        return {}
    try:
        root = ET.fromstring(xml_text.encode("utf-8") if xml_text.lstrip().startswith("<?xml") else xml_text)
    except ET.ParseError:
        return {}
    checked: dict[str, bool] = {}
    package = ""
    for node in root.iter("node"):
        package = package or (node.get("package") or "")
        if node.get("checkable") != "true":
            continue
        label = _label(node)
        if label and label not in checked:
            checked[label] = node.get("checked") == "true"
    return {"checked": checked, "package": package}
