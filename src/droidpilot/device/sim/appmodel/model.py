"""The schema of a SimPhone app as data: screens made of widgets, navigation, and state effects.

An app is one YAML file (``apps/<name>.yaml``) validated into ``AppSpec``. Widgets carry looks (text,
glyph, colour) and uiautomator attributes (class, resource-id, content-desc, checked...); actions say
what a tap or an Enter does (navigate, set or append state, toast, install...). Text fields are
``{path}`` templates (see ``expr``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

WidgetKind = Literal[
    "text", "header", "row", "switch", "input", "search", "button", "buttons", "chips", "image",
    "result", "divider", "spacer", "icon", "list", "bubble", "progress", "month", "group", "slider", "sketch",
    "board",
]

ACTION_KEYS = frozenset({
    "if", "go", "with", "replace", "back", "home", "set", "toggle", "append", "toggle_in", "toast",
    "notify", "install", "open_app", "clear", "focus", "stop", "remove", "file",
})


FILE_OPS = ("move", "copy", "delete", "open")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Action(_Strict):
    """One effect of a tap or Enter; runs only when ``if`` holds; ``stop`` ends the sequence after it."""

    when: str | None = Field(None, alias="if")
    go: str | None = None
    with_: dict[str, Any] = Field(default_factory=dict, alias="with")
    replace: str | None = None
    back: int | bool | None = None
    home: bool = False
    set: dict[str, Any] = Field(default_factory=dict)
    toggle: str | None = None
    append: dict[str, Any] | None = None
    toggle_in: dict[str, Any] | None = None
    remove: dict[str, Any] | None = None
    update: dict[str, Any] | None = None
    toast: str | None = None
    notify: dict[str, str] | None = None
    install: str | None = None
    open_app: str | None = None
    clear: str | list[str] | None = None
    focus: str | None = None
    stop: bool = False
    file: dict[str, Any] | None = None  # {op: move | copy | delete | open, file: a listed file, to: folder}

    @model_validator(mode="after")
    def _check_shapes(self) -> Action:
        if self.append is not None and not {"to", "value"} <= set(self.append):
            raise ValueError("append needs `to` (a state path) and `value`")
        if self.toggle_in is not None and not {"list", "value"} <= set(self.toggle_in):
            raise ValueError("toggle_in needs `list` (a state path) and `value`")
        if self.remove is not None and not {"from", "where"} <= set(self.remove):
            raise ValueError("remove needs `from` (a state path) and `where` (a condition on item)")
        if self.file is not None:
            op = self.file.get("op")
            if not (op in FILE_OPS or "{" in str(op)) or "file" not in self.file:
                raise ValueError(f"file needs `op` (one of {', '.join(FILE_OPS)}) and `file` (a listed file)")
            if op != "delete" and op != "open" and "to" not in self.file:
                raise ValueError(f"file {op} needs `to` (the destination folder)")
        if self.update is not None and (not {"in", "where", "set"} <= set(self.update)
                                        or not isinstance(self.update["set"], dict)):
            raise ValueError("update needs `in` (a state path), `where` (a condition on item) and "
                             "`set: {field: value}`; `last: true` moves the updated records to the end")
        return self


class Source(_Strict):
    """Where a list's items come from: a path, optionally searched by a query and filtered; when the
    query matches nothing, the ``fallback`` path's items (templates filled in) stand in."""

    path: str
    query: str | None = None
    fallback: str | None = None
    where: str | None = None
    limit: int = 0
    reverse: bool = False
    sort: list[str] = []  # item fields to order by, e.g. [date, time] (an agenda); text order, missing first


class Widget(_Strict):
    """One element on a screen; ``kind`` picks its looks and its uiautomator class."""

    kind: WidgetKind = "text"
    text: str = ""
    sub: str = ""
    detail: str = ""  # a row's third line, under ``sub`` (a mail's snippet, an app's rating)
    trailing: str = ""
    hint: str = ""
    desc: str = ""
    id: str = ""
    glyph: str = ""
    color: str = ""
    thumb: str = ""
    size: int = 0
    height: int = 0
    bold: bool = False
    style: str = ""
    align: Literal["start", "center", "end"] = "start"
    bind: str = ""
    field: str = ""
    multiline: bool = False
    chevron: bool = False
    badge: str = ""
    value: str = ""
    checked: str | bool | None = None
    selected: str | bool | None = None
    when: str | None = Field(None, alias="if")
    on_tap: list[Action] = Field(default_factory=list)
    on_submit: list[Action] = Field(default_factory=list)
    on_long_press: bool | list[Action] = False
    on_stroke: list[Action] = Field(default_factory=list)  # a sketch pad's: after each stroke
    for_each: str | Source | None = None
    item: Widget | None = None
    empty: str = ""
    items: list[Widget] = Field(default_factory=list)
    at: tuple[int, int, int, int] | None = None

    @model_validator(mode="after")
    def _check_kind(self) -> Widget:
        if self.kind == "list" and (self.for_each is None or self.item is None):
            raise ValueError("a list widget needs `for_each` and `item`")
        if self.kind in ("input", "search") and not self.field:
            raise ValueError(f"a {self.kind} widget needs `field` (the form field it edits)")
        if self.kind in ("switch", "slider", "sketch", "board") and not self.bind:
            raise ValueError(f"a {self.kind} widget needs `bind` (the state path it sets)")
        return self


class Tab(_Strict):
    """One entry of a bottom navigation bar."""

    text: str
    glyph: str
    screen: str
    id: str = ""
    badge: str = ""


class Screen(_Strict):
    """A page, dialog or bottom sheet of an app."""

    title: str = ""
    appbar: bool = True
    up: bool | None = None
    actions: list[Widget] = Field(default_factory=list)
    widgets: list[Widget] = Field(default_factory=list)
    footer: list[Widget] = Field(default_factory=list)
    tabs: list[Tab] = Field(default_factory=list)
    fab: Widget | None = None
    presentation: Literal["page", "dialog", "sheet"] = "page"
    background: str = ""
    dark: bool = False
    pager: str | None = None
    on_enter: list[Action] = Field(default_factory=list)
    on_back: list[Action] = Field(default_factory=list)
    autofocus: str | None = None
    activity: str = ""


class Icon(_Strict):
    """A launcher icon: a glyph drawn in white on a coloured tile."""

    glyph: str
    color: str


class App(_Strict):
    """One app: identity, launcher icon, initial state, canned data, and screens."""

    name: str
    package: str
    label: str
    icon: Icon
    accent: str = "#1A73E8"
    icon_style: str | None = None  # how its glyphs are drawn (draw/icon_styles.yaml); None: from the seed
    preinstalled: bool = True
    order: int = 100
    lang: str = "en"
    state: dict[str, Any] = Field(default_factory=dict)
    data: dict[str, Any] = Field(default_factory=dict)
    shuffle: list[str] = Field(default_factory=list)
    home: str
    screens: dict[str, Screen]

    @model_validator(mode="after")
    def _check_links(self) -> App:
        if self.home not in self.screens:
            raise ValueError(f"home screen {self.home!r} is not among screens {sorted(self.screens)}")
        for name, screen in self.screens.items():
            for target in _targets(screen):
                if target not in self.screens:
                    raise ValueError(f"screen {name!r} links to unknown screen {target!r} "
                                     f"(screens: {', '.join(sorted(self.screens))})")
        return self


def _widget_actions(widget: Widget) -> list[Action]:
    held = widget.on_long_press if isinstance(widget.on_long_press, list) else []
    found = [*widget.on_tap, *widget.on_submit, *widget.on_stroke, *held]
    for child in [*widget.items, *([widget.item] if widget.item else [])]:
        found.extend(_widget_actions(child))
    return found


def _targets(screen: Screen) -> list[str]:
    widgets = [*screen.actions, *screen.widgets, *screen.footer, *([screen.fab] if screen.fab else [])]
    actions = [a for w in widgets for a in _widget_actions(w)] + list(screen.on_enter) + list(screen.on_back)
    found = [t for a in actions for t in (a.go, a.replace) if t]
    found.extend(tab.screen for tab in screen.tabs)
    return found
