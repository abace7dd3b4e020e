"""The rule (task spec) model: a milestone DAG in MobiFlow's format.

``deps`` is AND (every listed node first); ``next`` is OR (any listed successor may follow, and a node
reached through several ``next`` parents needs only one of them). ``success`` names the nodes that end
the task (``any_of`` or ``all_of``); without it, any sink node does. ``none_of`` names forbidden nodes:
a run in which one of them is met (after its parents) fails, whatever else it reached. Fields the
verifier does not use are kept in ``model_extra`` because they describe the task. Loading and
validation live in ``verify.spec``.

Plain dataclasses, as MobiFlow's own spec types are: a cold ``droidpilot verify`` builds one rule, and
importing a validation library for it cost more than reading a screenshot (about 0.08 s). The checks a
rule file needs, with file, line and node, are ``verify.spec``'s; ``model_validate`` only guards shapes.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar

from droidpilot.datalimits import brief_number, finite_number


class RuleShapeError(ValueError):
    """A value of the wrong type for a rule field; ``errors()`` lists ``{"loc": path, "msg": text}``."""

    def __init__(self, problems: list[dict[str, Any]], model: str = "") -> None:
        self._problems = problems
        where = [".".join(map(str, (model, *p["loc"]) if model else p["loc"])) for p in problems]
        super().__init__("; ".join(f"{w}: {p['msg']}" for w, p in zip(where, problems, strict=True)))

    def errors(self) -> list[dict[str, Any]]:
        return list(self._problems)


class SpecModel:
    """Keyword-only construction with defaults; keys that are not fields are kept in ``model_extra``."""

    EXCLUDED: ClassVar[tuple[str, ...]] = ()  # fields ``model_dump`` leaves out (where a rule came from)
    SHAPES: ClassVar[dict[str, Any]] = {}  # field -> check(value, loc, problems), which may convert it

    def __init__(self, **values: Any) -> None:
        problems: list[dict[str, Any]] = []
        for f in fields(self):  # type: ignore[arg-type]
            if f.name in values:
                value = self.SHAPES[f.name](values.pop(f.name), (f.name,), problems)
            elif f.default is not MISSING:
                value = f.default
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            else:
                problems.append({"loc": (f.name,), "msg": "required"})
                value = None
            setattr(self, f.name, value)
        if problems:
            raise RuleShapeError(problems, type(self).__name__)
        self.model_extra: dict[str, Any] = values

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        mine = [getattr(self, f.name) for f in fields(self)]  # type: ignore[arg-type]
        theirs = [getattr(other, f.name) for f in fields(other)]  # type: ignore[arg-type]
        return mine == theirs and self.model_extra == other.model_extra  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def model_dump(self, mode: str = "python", exclude_none: bool = False) -> dict[str, Any]:
        """The fields (nested models as dicts, lists copied) and the extra keys, as a plain dict."""
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name not in self.EXCLUDED:
                out[f.name] = _dump(getattr(self, f.name), mode, exclude_none)
        out.update({k: _dump(v, mode, exclude_none) for k, v in self.model_extra.items()})
        return {k: v for k, v in out.items() if v is not None} if exclude_none else out

    @classmethod
    def model_validate(cls, data: Any) -> Any:
        """A model from a plain dict (nested dicts become models); RuleShapeError for a wrong shape."""
        problems: list[dict[str, Any]] = []
        model = _build(cls, data, (), problems)
        if problems:
            raise RuleShapeError(problems)
        return model


def _dump(value: Any, mode: str, exclude_none: bool) -> Any:
    if isinstance(value, SpecModel):
        return value.model_dump(mode, exclude_none)
    if isinstance(value, list):
        return [_dump(v, mode, exclude_none) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v, mode, exclude_none) for k, v in value.items()}
    if isinstance(value, Path) and mode == "json":
        return str(value)
    return value


def _build(cls: type[SpecModel], data: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
    """``cls`` from ``data`` (a model of it, or a dict); problems are added with their place under ``loc``."""
    if isinstance(data, cls):
        return data
    if not isinstance(data, dict):
        problems.append({"loc": loc, "msg": f"expected a mapping, not {type(data).__name__}"})
        return None
    try:
        return cls(**{str(k): v for k, v in data.items()})
    except RuleShapeError as exc:
        problems.extend({"loc": (*loc, *p["loc"]), "msg": p["msg"]} for p in exc.errors())
        return None


def _text(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
    if not isinstance(value, str):
        problems.append({"loc": loc, "msg": f"expected text, not {type(value).__name__}"})
    return value


def _texts(optional: bool = False) -> Any:
    def check(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
        if value is None and optional:
            return None
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            problems.append({"loc": loc, "msg": f"expected a list of texts, not {value!r}"})
            return value
        return list(value)

    return check


def _mapping(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
    if not isinstance(value, dict):
        problems.append({"loc": loc, "msg": f"expected a mapping, not {type(value).__name__}"})
    return value


def _score(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
    if not finite_number(value):
        problems.append({"loc": loc, "msg": f"expected a finite number, not {brief_number(value)}"})
        return value
    return float(value)


def _line(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        problems.append({"loc": loc, "msg": f"expected a line number, not {value!r}"})
    return value


def _optional(cls: type[SpecModel]) -> Any:
    def check(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
        return None if value is None else _build(cls, value, loc, problems)

    return check


def _nodes(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
    if not isinstance(value, (list, tuple)):
        problems.append({"loc": loc, "msg": f"expected a list of nodes, not {type(value).__name__}"})
        return value
    return [_build(Node, v, (*loc, i), problems) for i, v in enumerate(value)]


def _path(value: Any, loc: tuple[Any, ...], problems: list[dict[str, Any]]) -> Any:
    if value is None or isinstance(value, Path):
        return value
    if isinstance(value, str):
        return Path(value)
    problems.append({"loc": loc, "msg": f"expected a path, not {type(value).__name__}"})
    return value


@dataclass(init=False, eq=False, repr=True)
class Condition(SpecModel):
    """``{type, params}``: which checker decides this milestone, with what parameters."""

    SHAPES: ClassVar[dict[str, Any]] = {"type": _text, "params": _mapping}

    type: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(init=False, eq=False, repr=True)
class Node(SpecModel):
    """One milestone. ``condition`` None means the node passes through at its parents' event."""

    EXCLUDED: ClassVar[tuple[str, ...]] = ("line",)
    SHAPES: ClassVar[dict[str, Any]] = {"id": _text, "name": _text, "deps": _texts(), "next": _texts(),
                                        "condition": _optional(Condition), "score": _score, "line": _line}

    id: str
    name: str = ""
    deps: list[str] = field(default_factory=list)
    next: list[str] = field(default_factory=list)
    condition: Condition | None = None
    score: float = 10.0
    line: int | None = None  # source line of the node, if known


@dataclass(init=False, eq=False, repr=True)
class Success(SpecModel):
    SHAPES: ClassVar[dict[str, Any]] = {"any_of": _texts(optional=True), "all_of": _texts(optional=True),
                                        "none_of": _texts(optional=True)}

    any_of: list[str] | None = None
    all_of: list[str] | None = None
    none_of: list[str] | None = None  # forbidden nodes: meeting one fails the run


@dataclass(init=False, eq=False, repr=True)
class Task(SpecModel):
    """A whole rule: the task's description fields plus the DAG."""

    EXCLUDED: ClassVar[tuple[str, ...]] = ("source", "warnings")
    SHAPES: ClassVar[dict[str, Any]] = {"task_id": _text, "app_id": _text, "task_type": _text,
                                        "description": _text, "nodes": _nodes, "success": _optional(Success),
                                        "source": _path, "warnings": _texts()}

    task_id: str = ""
    app_id: str = ""
    task_type: str = ""
    description: str = ""
    nodes: list[Node] = field(default_factory=list)
    success: Success | None = None
    source: Path | None = None
    warnings: list[str] = field(default_factory=list)

    def node(self, node_id: str) -> Node:
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(node_id)

    @property
    def node_ids(self) -> list[str]:
        return [n.id for n in self.nodes]

    def next_parents(self, node_id: str) -> list[str]:
        """Ids of the nodes that name ``node_id`` in their ``next`` (its OR-parents)."""
        return [n.id for n in self.nodes if node_id in n.next]

    def sinks(self) -> list[str]:
        """Nodes nobody depends on and with no successors (forbidden nodes are never success)."""
        depended = {d for n in self.nodes for d in n.deps}
        forbidden = set(self.forbidden())
        return [n.id for n in self.nodes if not n.next and n.id not in depended and n.id not in forbidden]

    def forbidden(self) -> list[str]:
        """The ids in ``success.none_of``: nodes whose being met fails the run."""
        return list(self.success.none_of or []) if self.success is not None else []

    def success_targets(self) -> tuple[str, list[str]]:
        """``("any", ids)`` or ``("all", ids)``: what the verdict needs (sinks when no success given)."""
        if self.success is not None and self.success.all_of:
            return "all", list(self.success.all_of)
        if self.success is not None and self.success.any_of:
            return "any", list(self.success.any_of)
        return "any", self.sinks()

