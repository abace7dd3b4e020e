"""Text entry on SimPhone: typing into the focused field, backspace, and Enter (submit or newline)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from droidpilot.device.sim.appmodel import actions
from droidpilot.device.sim.draw.launcher import visible_apps

if TYPE_CHECKING:
    from droidpilot.device.sim.world import View, World


class TextInput:
    """Mixed into SimDevice: what the keyboard and ``type_text`` do to the focused field."""

    _world: World
    if TYPE_CHECKING:
        def view(self) -> View: ...

        def launch(self, name: str) -> None: ...

    def _insert(self, text: str) -> None:
        w = self._world
        stack = w.stack()
        if w.overlay:
            return
        if stack is None:
            if w.launcher_focus:
                w.launcher_query += text
            return
        top = stack[-1]
        if top.focus is not None:
            top.fields[top.focus] = str(top.fields.get(top.focus, "")) + text

    def _backspace(self) -> None:
        w = self._world
        stack = w.stack()
        if stack is None:
            w.launcher_query = w.launcher_query[:-1]
        elif stack[-1].focus is not None:
            top = stack[-1]
            top.fields[top.focus] = str(top.fields.get(top.focus, ""))[:-1]

    def _enter(self) -> None:
        w = self._world
        stack = w.stack()
        if stack is None:
            if w.launcher_focus:
                found = visible_apps([w.catalog[n] for n in w.installed], w.launcher_query)
                if found:
                    self.launch(found[0].name)
            return
        view = self.view()
        focused = view.focused
        if focused is None or focused.tap is None:
            return
        top = stack[-1]
        if focused.tap.multiline:  # a multi-line field's Enter key types a newline, as on Android
            top.fields[top.focus or ""] = str(top.fields.get(top.focus or "", "")) + "\n"
        elif focused.tap.actions and focused.tap.ctx is not None:  # the IME's Go/Search/Send action
            top.focus = None
            actions.run(self, focused.tap.actions, focused.tap.ctx)
        else:  # the IME's Next action: the next field of the screen, or Done after the last one
            fields = [n.tap.arg for n in view.targets
                      if n.cls == "android.widget.EditText" and n.tap is not None and n.tap.kind == "focus"]
            later = fields[fields.index(top.focus) + 1:] if top.focus in fields else []
            top.focus = later[0] if later else None


