"""Everything SimPhone remembers between calls (apps' state, back stacks, installs, notifications,
virtual time) and how one frame is composed from it: the windows, draw ops and tap targets."""

from __future__ import annotations

import copy
import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any

from droidpilot.device.sim.appmodel.model import App
from droidpilot.device.sim.draw import icon_styles, launcher
from droidpilot.device.sim.draw.canvas import BASE_WIDTH, Canvas, Node
from droidpilot.device.sim.draw.chrome import NAV_H, STATUS_H, clip_menu, heads_up, nav_bar, toast
from droidpilot.device.sim.draw.keyboard import KEYBOARD_H, keyboard
from droidpilot.device.sim.draw.screen import Entry, PageInfo, compose_page, make_ctx
from droidpilot.device.sim.draw.shade import shade
from droidpilot.device.sim.draw.theme import palette
from droidpilot.device.sim.processes import Processes
from droidpilot.device.sim.storage import FileSystem
from droidpilot.errors import InputError

TOAST_SECONDS = 2.5
HEADS_UP_SECONDS = 3.0
INSTALL_SECONDS = 1.0


@dataclass
class World:
    """The phone's mutable state; ``reset`` rebuilds it from the app catalog and a seed."""

    catalog: dict[str, App]
    clock: str = "10:30"
    date: str = "2026-11-22"
    battery: int = 85
    seed: int = 0
    states: dict[str, dict[str, Any]] = field(default_factory=dict)
    data: dict[str, dict[str, Any]] = field(default_factory=dict)
    installed: list[str] = field(default_factory=list)
    installing: dict[str, float] = field(default_factory=dict)
    tasks: dict[str, list[Entry]] = field(default_factory=dict)
    recents: list[str] = field(default_factory=list)
    foreground: str | None = None
    overlay: str | None = None
    launcher_query: str = ""
    launcher_focus: bool = False
    shift: bool = False
    toast: tuple[str, float] | None = None
    notifications: list[dict[str, Any]] = field(default_factory=list)
    heads_up_until: float = -1.0
    time: float = 0.0
    scheduled: list[dict[str, Any]] = field(default_factory=list)
    launch_dialogs: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    keyboard_over: set[str] = field(default_factory=set)  # apps whose window the keyboard covers
    date_before_setup: str | None = None  # the phone's own date while a task's setup moved today
    clipboard: str = ""  # one clipboard for every app (clipboard.py)
    clip_menu: dict[str, Any] | None = None  # the open Copy / Paste menu: its items and where it stands
    processes: Processes = field(default_factory=Processes)  # apps' live processes (kept over resets)

    def move_today(self, date: str) -> None:
        """Make ``date`` today for one task (its setup); the next ``reset`` gives the phone its date back."""
        if self.date_before_setup is None:
            self.date_before_setup = self.date
        self.date = date
    icon_styles: dict[str, str] = field(default_factory=dict)  # app -> how its glyphs are drawn
    varied_icons: bool = False  # apps without their own icon_style draw in a style picked from the seed

    def reset(self, seed: int, dark: bool) -> None:
        """Fresh state for ``seed``: apps' initial state, seeded data order, launcher in front."""
        self.seed = seed
        if self.date_before_setup is not None:
            self.date, self.date_before_setup = self.date_before_setup, None
        rng = random.Random(seed)
        self.states = {name: copy.deepcopy(app.state) for name, app in self.catalog.items()}
        self.data = {}
        for name, app in self.catalog.items():
            data = copy.deepcopy(app.data)
            for key in app.shuffle:
                if isinstance(data.get(key), list):
                    rng.shuffle(data[key])
            self.data[name] = data
        if "settings" in self.states:
            self.states["settings"]["dark_mode"] = dark
        self.installed = [n for n, a in self.catalog.items() if a.preinstalled]
        self.installing, self.tasks, self.recents = {}, {}, []
        self.foreground = self.overlay = None
        self.launcher_query, self.launcher_focus, self.shift = "", False, False
        self.toast, self.notifications, self.heads_up_until, self.time = None, [], -1.0, 0.0
        self.scheduled, self.launch_dialogs, self.keyboard_over = [], {}, set()
        self.clipboard, self.clip_menu = "", None
        self.processes.end_all()
        self.icon_styles = {}
        for name, app in self.catalog.items():
            try:
                self.icon_styles[name] = icon_styles.choose(seed, name, app.icon_style, self.varied_icons)
            except InputError as exc:
                raise InputError(f"app {name!r}: icon_style: {exc}") from None

    # -- derived ------------------------------------------------------------------------------
    def app_named(self, name: str) -> str | None:
        """The catalog name of the app ``name`` calls (its name, package or label, in any case), or None."""
        key = name.strip().lower()
        return next((a.name for a in self.catalog.values()
                     if key in (a.name.lower(), a.package.lower(), a.label.lower())), None)

    def gesture_time(self, duration_ms: float) -> None:
        """A gesture longer than the second every event takes costs the rest of its duration in virtual
        time (a 2 s swipe takes 2 s of the phone's clock)."""
        extra = max(0.0, float(duration_ms) / 1000 - 1.0)
        if extra:
            self.advance(extra)

    @property
    def settings(self) -> dict[str, Any]:
        """The Settings app's state: the system settings."""
        return self.states.get("settings", {})

    @property
    def dark(self) -> bool:
        """Whether the dark theme is on."""
        return bool(self.settings.get("dark_mode"))

    def sysinfo(self) -> dict[str, Any]:
        """What templates see as ``sys``: clock, date, settings, installs."""
        progress = self.install_progress()
        storage = FileSystem(self.states)
        day = dt.date.fromisoformat(self.date)
        days = ["Today"] + [(day + dt.timedelta(days=i)).strftime("%a") for i in range(1, 7)]
        return {"clock": self.clock, "date": self.date, "battery": self.battery, "settings": self.settings,
                "installed": list(self.installed), "installing": progress, "dark": self.dark,
                "notification_glyphs": [self.catalog[n["app"]].icon.glyph if n["app"] in self.catalog
                                        else "bell" for n in self.notifications],
                "date_long": day.strftime("%A, %B %-d, %Y"), "month_day": day.strftime("%B %-d"),
                "day_short": day.strftime("%b %-d"),
                "weekday": day.strftime("%A"), "days": days, "year": day.year,
                "date_zh": f"{day.year}年{day.month}月{day.day}日", "seed": self.seed,
                # the shared contacts provider: the people of Contacts, whom Phone and Messages know too
                "contacts": self.states.get("contacts", {}).get("contacts", []),
                # the shared media store: Gallery's photos, which the Camera's shutter adds to
                "photos": self.states.get("gallery", {}).get("photos", []),
                # the one file system Files browses: its documents, Gallery's photos, Recorder's recordings
                "files": storage.listing(), "folders": storage.folders(),
                # Files' own documents, which an app that saves a file (Music's playlist export) adds to
                "documents": self.shared_documents()}

    def shared_documents(self) -> list[dict[str, Any]]:
        """Files' own documents (``files.files``), the part of the file system an app may append a saved file
        to (``{name, folder, size}``); created when Files has none, so a write lands."""
        return self.states.setdefault("files", {}).setdefault("files", [])

    def install_progress(self) -> dict[str, int]:
        """Percent shown for each app being installed."""
        return {n: min(99, int(40 + 60 * (self.time - t) / INSTALL_SECONDS))
                for n, t in self.installing.items()}

    def time_shown(self) -> tuple[Any, ...]:
        """Everything on screen that virtual time alone can change (install progress, notifications, the
        heads-up banner, the toast): equal before and after time passes means the same picture."""
        banner = bool(self.notifications) and self.time < self.heads_up_until
        return (tuple(sorted(self.install_progress().items())), tuple(self.installed),
                len(self.notifications), banner, self.toast, len(self.scheduled))

    def stack(self) -> list[Entry] | None:
        """The foreground app's back stack (None on the launcher)."""
        return self.tasks.get(self.foreground) if self.foreground else None

    def keyboard_up(self) -> bool:
        """Whether a text field has focus, so the keyboard shows."""
        if self.overlay:
            return False
        stack = self.stack()
        if stack is None:
            return self.launcher_focus
        return stack[-1].focus is not None

    def advance(self, seconds: float) -> None:
        """Let virtual time pass: finish installs (posting their notification), expire toasts."""
        self.time += seconds
        for name, started in sorted(self.installing.items()):
            if self.time - started >= INSTALL_SECONDS:
                del self.installing[name]
                if name not in self.installed:
                    self.installed.append(name)
                label = self.catalog[name].label
                self.notify(f"{label} installed", "Download complete. Tap to open.", name,
                            at=started + INSTALL_SECONDS)
        while self.scheduled and self.time >= self.scheduled[0]["at"]:  # seeded mid-task notifications
            note = self.scheduled.pop(0)
            self.notify(note["title"], note["text"], note.get("app"), at=note["at"])
        if self.toast and self.time >= self.toast[1]:
            self.toast = None

    def notify(self, title: str, text: str, app: str | None, at: float | None = None) -> None:
        """Post a notification (posted at virtual time ``at``, now by default) with a heads-up banner."""
        when = self.time if at is None else at
        self.notifications.append({"title": title, "text": text, "app": app or "", "time": when})
        self.heads_up_until = when + HEADS_UP_SECONDS

    def contexts(self, app: App, stack: list[Entry]) -> list[dict[str, Any]]:
        """Template contexts for every entry of ``stack``."""
        sysinfo = self.sysinfo()
        return [make_ctx(app, self.states[app.name], self.data[app.name], e, sysinfo) for e in stack]


@dataclass
class View:
    """One composed frame: draw ops (device px), windows for the dump, tap targets, page info."""

    ops: list[tuple[Any, ...]]
    windows: list[Node]
    targets: list[Node]
    info: PageInfo
    modal: Node | None = None
    focused: Node | None = None
    xml: str | None = None  # the uiautomator dump, made once per view (a dense reward reads it every step)


def compose(world: World, size: tuple[int, int]) -> View:
    """Compose the current frame of ``world`` at device ``size``."""
    scale = size[0] / BASE_WIDTH
    width, height = BASE_WIDTH, size[1] / scale
    c = Canvas(scale)
    pal = palette(world.dark)
    kb = world.keyboard_up()
    info = PageInfo()
    modal = None
    stack = world.stack()
    if world.overlay == "recents":  # (the shade is drawn over the screen below it, further down)
        tasks = []
        for name in world.recents[:4]:
            app = world.catalog[name]
            thumb = Canvas(scale * launcher.THUMB, world.icon_styles.get(name, icon_styles.DEFAULT))
            compose_page(thumb, pal, app, world.tasks[name], world.contexts(app, world.tasks[name]), width,
                         height, False)
            tasks.append((app, thumb.ops))
        windows = [launcher.recents(c, pal, width, height, tasks, world.sysinfo())]
    elif stack is None:
        apps = [world.catalog[n] for n in world.installed]
        apps.sort(key=lambda a: (a.order, a.name))
        windows = [launcher.home(c, pal, width, height, apps, world.sysinfo(), world.launcher_query,
                                 world.launcher_focus)]
    else:
        app = world.catalog[world.foreground or ""]
        # An app in ``keyboard_over`` does not resize for the keyboard (adjustNothing): its window keeps
        # its full height and the keyboard hides what lies under it, e.g. a form's bottom-pinned button.
        resize = kb and app.name not in world.keyboard_over
        with c.icon_style_as(world.icon_styles.get(app.name, icon_styles.DEFAULT)):
            root, info = compose_page(c, pal, app, stack, world.contexts(app, stack), width, height, resize)
        windows = [root]
        if app.screens[stack[-1].screen].presentation != "page":
            modal = root
    system: list[Node] = []
    if kb:
        system.extend(keyboard(c, pal, width, height - NAV_H - KEYBOARD_H, world.shift))
    dark_nav = stack is not None and world.catalog[world.foreground or ""].screens[stack[-1].screen].dark
    system.extend(nav_bar(c, pal, width, height, fg="#FFFFFF" if dark_nav else None,
                          bg="#000000" if dark_nav else None))
    if world.toast:
        bottom = height - NAV_H - (KEYBOARD_H if kb else 0)
        windows.append(toast(c, pal, width, height, world.toast[0], bottom))
    if world.notifications and world.time < world.heads_up_until:
        note = world.notifications[-1]
        icon_app = world.catalog.get(note["app"]) or world.catalog.get("store")
        icon = {"glyph": icon_app.icon.glyph, "color": icon_app.icon.color} if icon_app else \
            {"glyph": "bell", "color": "#1A73E8"}
        windows.append(heads_up(c, pal, width, note, icon))
    if world.overlay == "shade":
        icons = {n: {"glyph": a.icon.glyph, "color": a.icon.color} for n, a in world.catalog.items()}
        windows = [shade(c, pal, width, height, world.sysinfo(), world.notifications, icons)]
        modal = windows[0]
        system = nav_bar(c, pal, width, height)  # the navigation bar stays on top of the shade
    targets = [n for w in windows for n in w.walk()] + system
    focused = next((n for n in targets if n.focused), None)
    if world.clip_menu and stack is not None and not world.overlay:  # over everything, the keyboard too
        box = focused.bounds if focused is not None and world.clip_menu["field"] else world.clip_menu["box"]
        menu = clip_menu(c, pal, width, world.clip_menu["items"], box[1] / scale, box[3] / scale)
        windows.append(menu)
        targets.extend(menu.walk())
        modal = menu  # a touch outside closes it
    return View(c.ops, windows, targets, info, modal, focused)


__all__ = ["STATUS_H", "Entry", "View", "World", "compose"]
