"""Apps a client installs with `adb install`: SimPhone has no code to run for them, so each becomes an app
with one empty screen, on the launcher under the label its APK gives. Mixed into SimDevice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.appmodel.model import App
from droidpilot.device.sim.draw import icon_styles

if TYPE_CHECKING:
    from droidpilot.device.sim.world import World

SIDELOAD_ORDER = 900  # after SimPhone's own apps in the launcher; marks an app as sideloaded
SIDELOAD_GLYPH = "info"
EMPTY_TEXT = "Installed with adb. SimPhone has no screens for this app."


class Sideload:
    """``install_apk`` / ``uninstall_apk``: the launcher side of `pm install` and `pm uninstall`."""

    _world: World
    if TYPE_CHECKING:
        def _changed(self) -> None: ...

        def _go_home(self) -> None: ...

        def _close_task(self, name: str) -> None: ...

    def install_apk(self, package: str, label: str) -> None:
        """Put ``package`` on the launcher as ``label`` (an update replaces the label, keeping its task)."""
        w = self._world
        existing = next((a for a in w.catalog.values() if a.package == package), None)
        if existing is not None and existing.order != SIDELOAD_ORDER:
            raise DeviceError(f"{package} is an app of SimPhone's system image; it cannot be replaced")
        title = label if "{" not in label and "}" not in label else ""  # braces would be read as templates
        app = App.model_validate({
            "name": package, "package": package, "label": label, "order": SIDELOAD_ORDER,
            "icon": {"glyph": SIDELOAD_GLYPH, "color": "#5F6368"}, "home": "main",
            "screens": {"main": {"title": title, "widgets": [
                {"kind": "text", "text": EMPTY_TEXT, "style": "dim", "align": "center"}]}}})
        w.catalog = {**w.catalog, package: app}  # a copy: the loaded catalog is shared by every phone
        w.states.setdefault(package, {})
        w.data.setdefault(package, {})
        w.icon_styles[package] = icon_styles.choose(w.seed, package, None, w.varied_icons)
        if package not in w.installed:
            w.installed.append(package)
        self._changed()

    def sideloaded(self, package: str) -> bool:
        """Whether ``package`` was put on the phone by ``install_apk`` (not one of SimPhone's own apps)."""
        app = self._world.catalog.get(package)
        return app is not None and app.order == SIDELOAD_ORDER

    def uninstall_apk(self, package: str) -> None:
        """Take a sideloaded ``package`` off the phone: its task closes and its icon goes."""
        w = self._world
        if not self.sideloaded(package):
            raise DeviceError(f"{package} was not installed with adb")
        if w.foreground == package:
            self._go_home()
        self._close_task(package)
        w.catalog = {k: v for k, v in w.catalog.items() if k != package}
        for table in (w.states, w.data, w.icon_styles):
            table.pop(package, None)
        if package in w.installed:
            w.installed.remove(package)
        self._changed()
