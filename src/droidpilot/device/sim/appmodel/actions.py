"""Running an app's actions (what a tap or Enter does) against the phone: navigation and state effects."""

from __future__ import annotations

import copy
from typing import Any, Protocol

from droidpilot.device.sim.appmodel.expr import assign, condition, lookup, path_of, render
from droidpilot.device.sim.appmodel.model import FILE_OPS, Action
from droidpilot.device.sim.storage import FileSystem
from droidpilot.errors import InputError


class Host(Protocol):
    """What actions may ask of the phone."""

    def push(self, screen: str, params: dict[str, Any]) -> None: ...
    def replace(self, screen: str, params: dict[str, Any]) -> None: ...
    def pop(self, count: int) -> None: ...
    def go_home(self) -> None: ...
    def show_toast(self, text: str) -> None: ...
    def post_notification(self, title: str, text: str, app: str | None = None) -> None: ...
    def start_install(self, app: str) -> None: ...
    def launch(self, app: str) -> None: ...
    def set_focus(self, field: str | None) -> None: ...
    def file_system(self) -> FileSystem: ...
    def open_screen(self, app: str, screen: str, params: dict[str, Any]) -> None: ...


_WRITABLE = ("state", "field", "params")
# shared providers an app may write into: the Gallery's photos, which the Camera adds to, and the
# documents of Files, which Music's playlist export adds to
_SHARED_WRITABLE = ("sys.photos", "sys.documents")


def _target(ctx: dict[str, Any], path: str) -> str:
    root = path.split(".", 1)[0]
    if root not in _WRITABLE or "." not in path:
        raise InputError(f"actions may only change state.*, field.* or params.*, not {path!r}"
                         f" (shared lists, {', '.join(_SHARED_WRITABLE)}, take only append and remove)")
    return path


def _list_at(ctx: dict[str, Any], path: str) -> list[Any]:
    path = path_of(ctx, path)
    current = lookup(ctx, path if path in _SHARED_WRITABLE else _target(ctx, path))
    if current is None:
        current = []
        assign(ctx, path, current)
    if not isinstance(current, list):
        raise InputError(f"{path!r} is not a list (it holds {type(current).__name__})")
    return current


def run(host: Host, actions: list[Action], ctx: dict[str, Any]) -> None:
    """Run ``actions`` in order with template context ``ctx`` (state, field, params, item, ...)."""
    for act in actions:
        if not condition(ctx, act.when):
            continue
        for path, value in act.set.items():
            assign(ctx, _target(ctx, path), copy.deepcopy(render(value, ctx)))
        if act.toggle:
            assign(ctx, _target(ctx, act.toggle), not bool(lookup(ctx, act.toggle)))
        if act.clear:
            for path in [act.clear] if isinstance(act.clear, str) else act.clear:
                assign(ctx, _target(ctx, path), "")
        if act.append is not None:
            _list_at(ctx, act.append["to"]).append(copy.deepcopy(render(act.append["value"], ctx)))
        if act.toggle_in is not None:
            items = _list_at(ctx, act.toggle_in["list"])
            value = render(act.toggle_in["value"], ctx)
            if value in items:
                items.remove(value)
            else:
                items.append(copy.deepcopy(value))
        if act.remove is not None:
            items = _list_at(ctx, act.remove["from"])
            items[:] = [it for i, it in enumerate(items)
                        if not condition({**ctx, "item": it, "index": i}, act.remove["where"])]
        if act.file is not None:
            _file_op(host, render(act.file, ctx), ctx)
        if act.update is not None:
            _update(_list_at(ctx, act.update["in"]), act.update, ctx)
        if act.install:
            host.start_install(str(render(act.install, ctx)))
        if act.notify:
            note = render(act.notify, ctx)
            host.post_notification(str(note.get("title", "")), str(note.get("text", "")), note.get("app"))
        if act.toast:
            host.show_toast(str(render(act.toast, ctx)))
        if act.focus is not None:
            host.set_focus(act.focus or None)
        if act.back:
            host.pop(int(act.back))
        if act.home:
            host.go_home()
        if act.go:
            host.push(act.go, render(act.with_, ctx))
        if act.replace:
            host.replace(act.replace, render(act.with_, ctx))
        if act.open_app:
            host.launch(str(render(act.open_app, ctx)))
        if act.stop:
            return


def _file_op(host: Host, spec: dict[str, Any], ctx: dict[str, Any]) -> None:
    """One operation on the shared file system; the resulting name is ``field.file_result`` for a toast."""
    fs = host.file_system()
    op, file = spec["op"], spec["file"]
    if op not in FILE_OPS:
        raise InputError(f"file: op {op!r} is not one of {', '.join(FILE_OPS)}")
    if op == "move":
        ctx.setdefault("field", {})["file_result"] = fs.move(file, str(spec["to"]))
    elif op == "copy":
        ctx.setdefault("field", {})["file_result"] = fs.copy(file, str(spec["to"]))
    elif op == "delete":
        fs.delete(file)
    else:
        host.open_screen(*fs.opener(file))


def _update(items: list[Any], spec: dict[str, Any], ctx: dict[str, Any]) -> None:
    """Set ``spec['set']`` fields on the records ``where`` picks, keeping their other fields (a note
    moved to a folder keeps its to-do flag); ``last: true`` moves them to the end, as an app that lists
    the last modified first does."""
    picked = [i for i, it in enumerate(items)
              if isinstance(it, dict) and condition({**ctx, "item": it, "index": i}, spec["where"])]
    values = render(spec["set"], ctx)
    for i in picked:
        items[i].update(copy.deepcopy(values))
    if spec.get("last"):
        moved = [items[i] for i in picked]
        items[:] = [it for i, it in enumerate(items) if i not in picked] + moved
