"""A scripted phone agent written only against uiautomator2's public API, as MobiAgent's runner is.

Run as ``python u2_agent.py SERIAL TASK_ID OUT_DIR`` with ``ANDROID_ADB_SERVER_PORT`` set; it knows nothing
about SimPhone. Its device class mirrors the runner's Android device (start app, screenshot, click by
coordinates, input through the ADBKeyboard broadcast, swipe by direction, key events, dump), and it writes
the runner's trace folder: ``N.jpg`` and ``N.xml`` before action N, ``actions.json`` and ``react.json``.
"""

from __future__ import annotations

import base64
import json
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import uiautomator2 as u2

# each plan: (reasoning, function name, parameters); "click" parameters name the text to click
PLANS: dict[str, dict[str, object]] = {
    "notes-1": {"app": "com.simphone.notes", "task": "Create a new note in Notes.", "steps": [
        ("The notes list is open; the plus button makes a new note.", "click",
         {"target_element": "New note"}),
        ("The editor is open; write the note.", "input", {"text": "Shopping list"}),
        ("Save the note with the arrow at the top right.", "click", {"target_element": "Save"}),
    ]},
    "store-1": {"app": "com.simphone.store", "task": "Download WhatsApp in Store.", "steps": [
        ("Search the store for WhatsApp.", "click", {"target_element": "Search apps & games"}),
        ("The search box has focus.", "input", {"text": "WhatsApp"}),
        ("Submit the search.", "keyevent", {"key": "enter"}),
        ("WhatsApp Messenger is in the results.", "click", {"target_element": "WhatsApp Messenger"}),
        ("Its page has an Install button.", "click", {"target_element": "Install"}),
    ]},
    "browser-1": {"app": "com.simphone.browser", "task": "Search result for today's Lakers game.", "steps": [
        ("The start page has a search box.", "click", {"target_element": "Search or type web address"}),
        ("The search box has focus; type the query.", "input", {"text": "Lakers game"}),
        ("Submit the search.", "keyevent", {"key": "enter"}),
    ]},
}


class AndroidDevice:
    """The runner's Android device: uiautomator2 underneath, nothing else."""

    def __init__(self, serial: str) -> None:
        self.d = u2.connect(serial)

    def app_start(self, package_name: str) -> None:
        self.d.app_start(package_name, stop=True)
        if not self.d.app_wait(package_name, timeout=10):
            raise RuntimeError(f"failed to start package '{package_name}'")

    def screenshot(self, path: str) -> None:
        self.d.screenshot(path)

    def click(self, x: int, y: int) -> None:
        self.d.click(x, y)

    def input(self, text: str) -> None:
        current_ime = self.d.current_ime()
        self.d.shell(["settings", "put", "secure", "default_input_method", "com.android.adbkeyboard/.AdbIME"])
        b64 = base64.b64encode(text.encode("utf-8")).decode("utf-8")
        self.d.shell(["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", b64])
        self.d.shell(["settings", "put", "secure", "default_input_method", current_ime])

    def swipe(self, direction: str, scale: float = 0.5) -> None:
        self.d.swipe_ext(direction=direction, scale=scale)

    def keyevent(self, key: str) -> None:
        self.d.keyevent(key)

    def dump_hierarchy(self) -> str:
        return self.d.dump_hierarchy()


def find_bounds(xml: str, text: str) -> list[int]:
    """[x1, y1, x2, y2] of the first node whose text or content-desc is ``text``."""
    for node in ET.fromstring(xml.encode("utf-8")).iter("node"):
        if text in (node.get("text"), node.get("content-desc")):
            nums = node.get("bounds", "").replace("][", ",").strip("[]").split(",")
            return [int(v) for v in nums]
    raise LookupError(f"no element shows {text!r}")


def run(serial: str, task_id: str, out: Path) -> None:
    """Carry out the task's plan, recording the runner's trace folder in ``out``."""
    plan = PLANS[task_id]
    out.mkdir(parents=True, exist_ok=True)
    dev = AndroidDevice(serial)
    dev.app_start(str(plan["app"]))
    time.sleep(0.2)
    actions: list[dict[str, object]] = []
    reacts: list[dict[str, object]] = []
    steps = [*plan["steps"], ("The task is complete.", "done", {})]  # type: ignore[misc]
    for index, (reasoning, name, params) in enumerate(steps, start=1):
        xml = dev.dump_hierarchy()
        dev.screenshot(str(out / f"{index}.jpg"))
        (out / f"{index}.xml").write_text(xml, encoding="utf-8")
        action: dict[str, object] = {"type": name, "action_index": index}
        if name == "click":
            x1, y1, x2, y2 = find_bounds(xml, params["target_element"])
            x, y = (x1 + x2) // 2, (y1 + y2) // 2
            action.update(position_x=x, position_y=y, bounds=[x1, y1, x2, y2])
            dev.click(x, y)
        elif name == "input":
            action["text"] = params["text"]
            dev.input(params["text"])
        elif name == "swipe":
            action["direction"] = params["direction"]
            dev.swipe(params["direction"])
        elif name == "keyevent":
            action["key"] = params["key"]
            dev.keyevent(params["key"])
        else:
            action["status"] = "success"
        actions.append(action)
        reacts.append({"reasoning": reasoning, "function": {"name": name, "parameters": params},
                       "action_index": index})
    (out / "actions.json").write_text(json.dumps({
        "app_name": plan["app"], "task_description": plan["task"], "action_count": len(actions),
        "actions": actions}, ensure_ascii=False, indent=1), encoding="utf-8")
    (out / "react.json").write_text(json.dumps(reacts, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], Path(sys.argv[3]))
