"""What taps on system UI do: navigation keys, app icons, tabs, keyboard keys, shade tiles and
notifications, clearing recents; and app lifecycle (install, force-stop, killing a background process).
Mixed into SimDevice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.clipboard import run_verb
from droidpilot.device.sim.draw.screen import Entry

if TYPE_CHECKING:
    from droidpilot.device.sim.world import World


class SystemVerbs:
    """Handles ``Tap("system", arg="verb:rest")`` targets."""

    _world: World
    if TYPE_CHECKING:
        def _back(self, keyboard_first: bool = True) -> None: ...

        def key(self, key: str) -> None: ...

        def launch(self, name: str) -> None: ...

        def _entered(self) -> None: ...

        def _backspace(self) -> None: ...

        def _enter(self) -> None: ...

        def _insert(self, text: str) -> None: ...

        def _resolve(self, name: str) -> str: ...

        def _event(self) -> None: ...

        def _changed(self) -> None: ...

        def current_app(self) -> str: ...

    def _system(self, arg: str) -> None:
        verb, _, rest = arg.partition(":")
        w = self._world
        if verb == "key":
            self._back() if rest == "back" else self.key(rest)
        elif verb == "open":
            if rest in w.installed:
                self.launch(rest)
        elif verb == "tab":
            stack = w.stack()
            if stack is not None and stack[-1].screen != rest:
                del stack[1:]
                stack[0] = Entry(rest)
                self._entered()
        elif verb == "tile":
            settings = w.settings
            settings[rest] = not settings.get(rest)
            if rest == "airplane_mode" and settings[rest]:
                settings["wifi"] = settings["bluetooth"] = False
        elif verb == "notification":
            w.overlay = None
            if rest in w.installed:
                self.launch(rest)
        elif verb == "clip":
            pasted = run_verb(w, rest)
            if pasted:
                self._insert(pasted)
        elif verb == "clear_notifications":
            w.notifications = []
        elif verb == "clear_recents":
            w.tasks, w.recents, w.overlay, w.foreground = {}, [], None, None
            w.processes.end_all()
        elif verb == "ime":
            if rest == "shift":
                w.shift = not w.shift
            elif rest == "backspace":
                self._backspace()
            elif rest == "enter":
                self._enter()
            elif rest.startswith("char:"):
                self._insert(rest[5:])
                w.shift = False

    def start_install(self, app: str) -> None:
        """Begin installing ``app``; it finishes one virtual second later with a notification."""
        w = self._world
        if app not in w.catalog:
            raise DeviceError(f"cannot install {app!r}: no such app (known: {', '.join(w.catalog)})")
        if app not in w.installed and app not in w.installing:
            w.installing[app] = w.time

    def stop_app(self, name_or_package: str) -> None:
        """End an app's task as `am force-stop` does: its screens and Recents card go, its data stays; the
        home screen shows if it was in front. An app that is not running is left as it is."""
        name = self._resolve(name_or_package)
        if name not in self._world.tasks and name not in self._world.recents:
            return
        self._event()
        if self._world.foreground == name:
            self._go_home()
        self._close_task(name)
        self._changed()

    def kill_background(self, name_or_package: str) -> bool:
        """End an app's process as `am kill` does: only when it is not in front (its task and Recents card
        stay; launching it again starts a new process). Whether a process ended."""
        name = self._resolve(name_or_package)
        w = self._world
        if name not in w.processes.live or self.current_app() == w.catalog[name].package:
            return False
        w.processes.end(name)
        return True

    def running_apps(self) -> dict[str, int]:
        """Packages with a live process -> the number of that process's start (a relaunch after the
        process ended has a new number), most recently started last."""
        w = self._world
        live = sorted(w.processes.live.items(), key=lambda item: item[1])
        return {w.catalog[name].package: start for name, start in live if name in w.catalog}

    def _close_task(self, name: str) -> None:
        w = self._world
        w.tasks.pop(name, None)
        w.processes.end(name)
        if name in w.recents:
            w.recents.remove(name)
        if w.foreground == name:
            w.foreground = None

    def _go_home(self) -> None:
        w = self._world
        stack = w.stack()
        if stack:
            stack[-1].focus = None
        w.foreground, w.overlay, w.launcher_focus, w.launcher_query = None, None, False, ""
