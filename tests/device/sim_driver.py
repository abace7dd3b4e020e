"""Drive a SimDevice the way an XML-reading agent would: find widgets in the uiautomator dump by text,
content-desc or resource-id, and tap the centre of their bounds. Importable as ``tests.device.sim_driver``."""

from __future__ import annotations

from droidpilot.device.sim.phone import SimDevice
from droidpilot.verify.frame import UiElement, parse_ui_xml


class Driver:
    """Find-and-tap helpers over one SimDevice."""

    def __init__(self, device: SimDevice) -> None:
        self.d = device

    def elements(self) -> list[UiElement]:
        return parse_ui_xml(self.d.ui_xml())

    def texts(self) -> list[str]:
        return [e.text for e in self.elements() if e.text]

    def find(self, text: str | None = None, *, rid: str | None = None, desc: str | None = None) -> UiElement:
        """The last element (deepest content wins over toolbars) matching every given criterion."""
        for el in reversed(self.elements()):
            if text is not None and el.text != text:
                continue
            if rid is not None and el.resource_id.rsplit("/", 1)[-1] != rid:
                continue
            if desc is not None and el.content_desc != desc:
                continue
            return el
        wanted = ", ".join(f"{k}={v!r}" for k, v in (("text", text), ("rid", rid), ("desc", desc)) if v)
        raise AssertionError(f"no element with {wanted} on {self.d.state()['foreground']}: {self.texts()}")

    def has(self, text: str) -> bool:
        return any(text == e.text or text == e.content_desc for e in self.elements())

    def tap(self, text: str | None = None, *, rid: str | None = None, desc: str | None = None) -> None:
        el = self.find(text, rid=rid, desc=desc)
        assert el.bounds is not None
        x1, y1, x2, y2 = el.bounds
        self.d.tap((x1 + x2) // 2, (y1 + y2) // 2)

    def type_into(self, rid: str, text: str, submit: bool = False) -> None:
        self.tap(rid=rid)
        self.d.type_text(text)
        if submit:
            self.d.key("enter")

    def screen(self) -> str:
        return self.d.state()["foreground"]["screen"]
