"""What an app's actions may ask of the phone (``appmodel.actions.Host``): open, replace and close screens,
toasts and notifications, launching apps, focus, and the shared file system. Mixed into SimDevice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.draw.screen import Entry
from droidpilot.device.sim.storage import FileSystem
from droidpilot.device.sim.world import TOAST_SECONDS

if TYPE_CHECKING:
    from droidpilot.device.sim.world import World


class AppHost:
    """The ``actions.Host`` side of SimDevice, over its ``World``."""

    _world: World
    if TYPE_CHECKING:
        def _back(self, keyboard_first: bool = True) -> None: ...

        def _go_home(self) -> None: ...

        def _entered(self) -> None: ...

        def _changed(self) -> None: ...

    def push(self, screen: str, params: dict[str, Any]) -> None:
        """Open ``screen`` of the foreground app on top of its back stack."""
        stack = self._world.stack()
        if stack is not None:
            stack[-1].focus = None
            app = self._world.catalog[self._world.foreground or ""]
            stack.append(Entry(screen, dict(params), focus=app.screens[screen].autofocus))
            self._entered()

    def replace(self, screen: str, params: dict[str, Any]) -> None:
        """Replace the top screen of the foreground app."""
        stack = self._world.stack()
        if stack is not None:
            app = self._world.catalog[self._world.foreground or ""]
            stack[-1] = Entry(screen, dict(params), focus=app.screens[screen].autofocus)
            self._entered()

    def pop(self, count: int) -> None:
        """Close ``count`` screens (as Back, without its extras)."""
        for _ in range(count):
            self._back(keyboard_first=False)

    def go_home(self) -> None:
        """Show the home screen; the app keeps its task."""
        self._go_home()

    def show_toast(self, text: str) -> None:
        """Show ``text`` as a toast for a few virtual seconds."""
        self._world.toast = (text, self._world.time + TOAST_SECONDS)
        self._changed()  # the next dump and screenshot show it

    def post_notification(self, title: str, text: str, app: str | None = None) -> None:
        """Post a notification (heads-up banner, then in the shade)."""
        self._world.notify(title, text, app or self._world.foreground)

    def launch(self, name: str) -> None:
        """Bring ``name`` to the foreground, resuming its task or starting it at its home screen."""
        w = self._world
        if name not in w.installed:
            raise DeviceError(f"app {name!r} is not installed; installed apps: {', '.join(w.installed)}")
        w.overlay, w.launcher_focus, w.launcher_query = None, False, ""
        if name not in w.tasks:
            home = w.catalog[name].home
            w.tasks[name] = [Entry(home, focus=w.catalog[name].screens[home].autofocus)]
            w.foreground = name
            self._entered()
            for screen, params in w.launch_dialogs.pop(name, []):  # seeded first-launch distractors
                self.push(screen, params)
        w.foreground = name
        w.processes.ensure(name)  # a task kept in Recents whose process was killed starts a new one
        if name in w.recents:
            w.recents.remove(name)
        w.recents.insert(0, name)

    def set_focus(self, field: str | None) -> None:
        """Focus a text field of the top screen (None hides the keyboard)."""
        stack = self._world.stack()
        if stack is not None:
            stack[-1].focus = field

    def file_system(self) -> FileSystem:
        """The shared file system over the apps' live state (Files' documents, photos, recordings)."""
        return FileSystem(self._world.states)

    def open_screen(self, app: str, screen: str, params: dict[str, Any]) -> None:
        """Open ``screen`` of ``app`` on top of its task (opening a file in the app that shows it)."""
        if app not in self._world.catalog or screen not in self._world.catalog[app].screens:
            raise DeviceError(f"cannot open {app!r} screen {screen!r}: no such app or screen")
        self.launch(app)
        self.push(screen, params)
