"""SimDevice: SimPhone behind the ``Device`` protocol — screenshots, UI dumps, input, apps, and state.

Deterministic: the same seed and the same calls give the same pixels, XML and ``state()``. Virtual
time advances one second per input event and by ``wait(seconds)``; nothing ever sleeps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from droidpilot.device.base import DeviceError
from droidpilot.device.sim import links
from droidpilot.device.sim.apphost import AppHost
from droidpilot.device.sim.appmodel import actions
from droidpilot.device.sim.appmodel.catalog import APPS_DIR, load_catalog
from droidpilot.device.sim.appmodel.model import App
from droidpilot.device.sim.clipboard import open_menu
from droidpilot.device.sim.draw.canvas import BASE_WIDTH, Tap
from droidpilot.device.sim.draw.sketch import stroke_target
from droidpilot.device.sim.draw.slider import drag_target
from droidpilot.device.sim.draw.uixml import dump
from droidpilot.device.sim.frames import FrameCache, Shot
from droidpilot.device.sim.instance import apply_setup
from droidpilot.device.sim.sideload import Sideload
from droidpilot.device.sim.snapshot import snapshot
from droidpilot.device.sim.systemui import SystemVerbs
from droidpilot.device.sim.textinput import TextInput
from droidpilot.device.sim.validate import check_clock, parse_size
from droidpilot.device.sim.world import STATUS_H, View, World, compose
from droidpilot.errors import InputError

KEYS = ("back", "home", "enter", "app_switch", "del", "page_up", "page_down", "menu", "search")
LAUNCHER_PACKAGE = "com.simphone.launcher"


class SimDevice(TextInput, SystemVerbs, AppHost, Sideload):
    """A simulated Android phone whose apps are data files; implements ``droidpilot.device.base.Device``."""

    DEFAULT_SIZE = (1080, 2400)  # the phone bench runs use, for which task files' coordinates are written

    def __init__(self, serial: str = "simphone-1", size: tuple[int, int] | str = DEFAULT_SIZE,
                 theme: str = "light", seed: int = 0, clock: str = "10:30", date: str = "2026-11-22",
                 battery: int = 85, apps_dir: str | Path | None = None, icon_styles: str = "fixed") -> None:
        if theme not in ("light", "dark") or icon_styles not in ("fixed", "seeded"):
            raise DeviceError(f"theme {theme!r} / icon_styles {icon_styles!r}: "
                              "use light or dark / fixed or seeded")
        check_clock(clock, date)
        self.serial = serial
        self._size = parse_size(size if isinstance(size, str) else f"{size[0]}x{size[1]}")
        self._theme = theme
        try:
            catalog = load_catalog(str(apps_dir or APPS_DIR))
        except InputError as exc:
            raise DeviceError(str(exc)) from None
        self._world = World(catalog, clock=clock, date=date, battery=battery,
                            varied_icons=icon_styles == "seeded")
        self._view: View | None = None
        self._frames = FrameCache()
        self._event_s = 1.0  # virtual seconds an input event costs (0 when the wall clock drives time)
        self.reset(seed)

    # -- lifecycle and state ------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Back to the initial state for ``seed`` (the current seed when None): home screen, no tasks."""
        self._world.reset(self._world.seed if seed is None else int(seed), self._theme == "dark")
        self._changed()

    def set_clock(self, clock: str | None = None, date: str | None = None) -> None:
        """Set the status-bar clock ("HH:MM") and/or today's date ("YYYY-MM-DD")."""
        check_clock(clock or self._world.clock, date or self._world.date)
        if clock is not None:
            self._world.clock = clock
        if date is not None:
            self._world.date = date
        self._changed()

    def state(self) -> dict[str, Any]:
        """JSON-able snapshot of everything a task can change: one key per app, plus foreground/system."""
        return snapshot(self._world, self.current_app())

    def apply_setup(self, setup: dict[str, Any]) -> None:
        """Start a task instance from here (``instance.apply_setup``): state patches, distractors."""
        apply_setup(self._world, setup)
        self._changed()

    def apps(self) -> list[App]:
        """Every app SimPhone knows (installed or installable)."""
        return list(self._world.catalog.values())

    # -- screen ---------------------------------------------------------------------------------
    def size(self) -> tuple[int, int]:
        """(width, height) in device pixels."""
        return self._size

    def view(self) -> View:
        """The composed current frame (cached until the next input)."""
        if self._view is None:
            self._view = compose(self._world, self._size)
        return self._view

    def _shot(self) -> Shot:
        """The current frame from the cache (drawn on a miss)."""
        return self._frames.get(self.view().ops, self._size)

    def drop_frame_cache(self) -> None:
        """Forget rendered frames, so the next screenshot renders from scratch (used by benchmarks)."""
        self._frames.clear()
        self._view = None

    def screenshot(self) -> Image.Image:
        """The current screen, RGB, full resolution."""
        return self._shot().image.copy()

    def screenshot_array(self) -> np.ndarray:
        """The current screen as a read-only ``uint8`` (height, width, 3) array, cached per distinct frame
        (learning environments read every frame as an array; converting a repeated frame again is waste)."""
        return self._shot().pixels()

    def screenshot_png(self) -> bytes:
        """The current screen as PNG bytes (cached per distinct frame), for ``screencap -p``."""
        return self._shot().png_bytes()

    def ui_xml(self) -> str:
        """The uiautomator dump of the current screen (app window, dialogs, toasts, notifications)."""
        view = self.view()
        if view.xml is None:
            view.xml = dump(view.windows)
        return view.xml

    def labels(self) -> list[tuple[str, tuple[int, int, int, int]]]:
        """Every text drawn as a whole label with the box it was drawn in (what OCR must read back)."""
        return [((n.drawn or n.text).rstrip("…"), n.bounds) for w in self.view().windows for n in w.walk()
                if n.label and n.text]

    # -- input ----------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        """Touch (x, y): the topmost widget there acts; outside a dialog or sheet dismisses it."""
        self._touch(x, y, long=False)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        """Hold (x, y): a text field takes focus (keyboard up); a widget whose app data declares
        ``on_long_press`` acts; anything else ignores it, as on Android. Outside a dialog dismisses it."""
        self._touch(x, y, long=True)
        self._gesture_time(duration_ms)

    def _touch(self, x: int, y: int, long: bool) -> None:
        self._event()
        view = self.view()
        self._check_point(x, y)
        target = next((n for n in reversed(view.targets) if n.tap and n.contains(x, y)), None)
        if view.modal is not None and not view.modal.contains(x, y) and (target is None or target.in_xml):
            self._back()
        elif target is not None and target.tap is not None:
            tap, hold = target.tap, target.tap.hold
            if not long or tap.kind == "focus" or hold is True:
                self._run_tap(tap)
            elif hold and tap.ctx is not None:
                actions.run(self, list(hold), tap.ctx)
            if long and tap.kind == "focus":
                open_menu(self._world, view, target, x, y)
        elif not (long and open_menu(self._world, view, target, x, y)):
            return  # a touch on nothing: only time passed, and _event saw to that
        self._changed()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Scroll (or page a feed), pull the shade from the status bar, or go back from the left edge."""
        self._check_point(x1, y1)
        self._event()
        w = self._world
        scale = self._size[0] / BASE_WIDTH
        dx, dy = (x2 - x1) / scale, (y2 - y1) / scale
        stack = w.stack()
        if y1 / scale < STATUS_H and dy > 200 and w.overlay is None:
            w.overlay, w.launcher_focus = "shade", False
        elif w.overlay == "shade" and dy < -200:
            w.overlay = None
        elif w.overlay == "recents" and dy < -300:
            card = next((n for n in self.view().targets if n.tap and n.tap.arg.startswith("open:")
                         and n.contains(x1, y1)), None)
            if card is not None:  # swiping a task card up removes the task, as on Android
                self._close_task(card.tap.arg[5:])
        elif stack is None or w.overlay:
            pass
        elif x1 / scale < 40 and dx > 200 and abs(dy) < dx:
            self._back()
        elif (stroke := stroke_target(self.view().targets, x1, y1, x2, y2)) is not None:
            self._run_tap(stroke)  # a line drawn on a sketch pad
        elif abs(dx) > abs(dy) and (drag := drag_target(self.view().targets, x1, y1, x2)) is not None:
            self._run_tap(drag)  # a slider's thumb dragged sideways
        elif abs(dy) >= 20 and abs(dy) > abs(dx):
            self._scroll(-dy)
        self._gesture_time(duration_ms)
        self._changed()

    def _scroll(self, delta: float) -> None:
        stack = self._world.stack()
        if not stack:
            return
        info = self.view().info
        top = stack[-1]
        if info.pages > 1:
            if abs(delta) >= 150:
                top.page = max(0, top.page + (1 if delta > 0 else -1))
            return
        top.scroll = max(0.0, min(top.scroll + delta, info.max_scroll))

    def type_text(self, text: str) -> None:
        """Type into the focused field; as on Android, text typed with nothing focused goes nowhere."""
        self._event()
        self._insert("".join(ch for ch in text if not 0xD800 <= ord(ch) <= 0xDFFF))  # lone surrogates
        self._changed()

    def key(self, key: str) -> None:
        """Press back, home, enter, app_switch, del, page_up, page_down (menu and search do nothing)."""
        name = {"KEYCODE_BACK": "back", "KEYCODE_HOME": "home", "KEYCODE_ENTER": "enter",
                "KEYCODE_APP_SWITCH": "app_switch", "KEYCODE_DEL": "del", "backspace": "del"}.get(key, key)
        if name not in KEYS:
            raise DeviceError(f"unknown key {key!r}; SimPhone knows: {', '.join(KEYS)}")
        self._event()
        w = self._world
        if name == "back":
            self._back()
        elif name == "home":
            self._go_home()
        elif name == "app_switch":
            w.overlay = None if w.overlay == "recents" else "recents"
            w.launcher_focus = False
        elif name == "enter":
            self._enter()
        elif name == "del":
            self._backspace()
        elif name in ("page_up", "page_down"):
            info = self.view().info
            page = (info.viewport[1] - info.viewport[0]) * 0.8
            self._scroll(page if name == "page_down" else -page)
        self._changed()

    def open_app(self, name_or_package: str) -> None:
        """Launch an app by name, label or package (resuming its task if it has one)."""
        self._event()
        self.launch(self._resolve(name_or_package))
        self._changed()

    def open_url(self, url: str) -> None:
        """Open an http(s) ``url`` in the browser, as a VIEW intent does (DeviceError for other URLs)."""
        links.open_in_browser(self, url)

    def current_app(self) -> str:
        """The package in the foreground (the launcher on the home and recents screens)."""
        w = self._world
        if w.overlay == "recents" or w.foreground is None:
            return LAUNCHER_PACKAGE
        return w.catalog[w.foreground].package

    def virtual_time(self) -> float:
        """Virtual seconds since the last reset: one per input event (none after ``follow_wall_clock``), plus
        what ``wait`` let pass."""
        return self._world.time

    def follow_wall_clock(self) -> None:
        """Let only ``wait`` move the clock: inputs cost no virtual time of their own. For a front that
        passes the wall clock on (``--realtime``), which already holds a gesture's duration: counting it
        here too would run the phone's clock ahead of the wall."""
        self._event_s = 0.0

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass (installs finish, toasts fade); returns at once."""
        if seconds < 0:
            raise DeviceError(f"cannot wait a negative time ({seconds} s)")
        self._world.advance(float(seconds))
        self._changed()

    # -- internals ------------------------------------------------------------------------------
    def _entered(self) -> None:
        """Run the ``on_enter`` actions of the screen just opened in the foreground app."""
        w = self._world
        stack = w.stack()
        if stack:
            app = w.catalog[w.foreground or ""]
            todo = app.screens[stack[-1].screen].on_enter
            if todo:
                actions.run(self, todo, w.contexts(app, stack)[-1])

    def _changed(self) -> None:
        self._view = None

    def _event(self) -> None:
        """An input event takes a second of virtual time; the composed view stays when that second
        changes nothing shown (composing is most of a step's cost, and a tap composes to find its target)."""
        if not self._event_s:
            return
        shown = self._world.time_shown()
        self._world.advance(self._event_s)
        if self._world.time_shown() != shown:
            self._view = None

    def _gesture_time(self, duration_ms: float) -> None:
        if self._event_s:
            self._world.gesture_time(duration_ms)

    def _check_point(self, x: int, y: int) -> None:
        if not (0 <= x < self._size[0] and 0 <= y < self._size[1]):
            raise DeviceError(f"point ({x}, {y}) is outside the {self._size[0]}x{self._size[1]} screen")

    def _resolve(self, name: str) -> str:
        found = self._world.app_named(name)
        if found is not None:
            return found
        known = ", ".join(f"{a.name} ({a.label}, {a.package})" for a in self._world.catalog.values())
        raise DeviceError(f"unknown app {name!r}; SimPhone's apps are: {known}")

    def _back(self, keyboard_first: bool = True) -> None:
        w = self._world
        if w.overlay or w.clip_menu:  # Recents, the shade or the Copy / Paste menu closes first
            w.overlay, w.clip_menu = None, None
            return
        stack = w.stack()
        if stack is None:
            w.launcher_focus, w.launcher_query = False, ""
            return
        if keyboard_first and stack[-1].focus is not None:
            stack[-1].focus = None
            return
        app = w.catalog[w.foreground or ""]
        leaving = app.screens[stack[-1].screen]
        if keyboard_first and leaving.on_back:
            actions.run(self, leaving.on_back, w.contexts(app, stack)[-1])
        stack.pop()
        if not stack:
            del w.tasks[w.foreground or ""]
            w.processes.end(w.foreground or "")
            if w.foreground in w.recents:
                w.recents.remove(w.foreground or "")
            w.foreground = None

    def _run_tap(self, tap: Tap) -> None:
        w = self._world
        if tap.kind == "system":
            self._system(tap.arg)
        elif tap.kind == "focus":
            if tap.arg == "launcher_query":
                w.launcher_focus = True
            else:
                self.set_focus(tap.arg)
            w.shift = False
        elif tap.kind == "toggle":
            assert tap.ctx is not None
            actions.run(self, [actions.Action.model_validate({"toggle": tap.arg})], tap.ctx)
            actions.run(self, tap.actions, tap.ctx)
        else:
            assert tap.ctx is not None
            actions.run(self, tap.actions, tap.ctx)

