"""Task templates as data: one YAML file per app under a template suite folder, validated on load.

A file holds ``app`` (the app its templates are filed under) and ``templates``, a list of mappings:
``id``, ``kind`` (see ``KINDS``), ``instruction`` (``{param}`` placeholders), ``params`` (name -> spec, see
``droidpilot.bench.params``; ``pick`` / ``absent`` / ``count`` / ``sum`` reach into earlier list params),
``reference`` (Mobile-Agent actions with placeholders), ``oracle`` (a predicate over ``state()``),
``checkpoints`` (the screens a run must show, in order, each a list of texts, or of typed values such as
``{type: duration, between: ["{lo}", "{hi}"]}`` for a value a screen must show inside a range: the
generated rule's milestones), and optionally ``apps``, ``lang``, ``setup`` (start state:
``state: {app.key: value}``), ``answer`` (the true reply of a retrieval task), ``answer_type`` (what
that reply is, see ``ANSWER_TYPES``; required on retrieval tasks), ``static`` (why the task cannot vary by
seed), ``variants`` (a list of mappings, each its own template with those values as constant parameters
and ``id`` appended), ``distractors`` (false to opt out), ``effects`` (the changes to the state the task
allows, ``bench/effects.py``), ``any_order`` and ``forbid`` (the generated rule's checkpoint sets and
forbidden milestones, ``ruleshape.py``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from droidpilot import limits, yamlfast
from droidpilot.bench.effects import EffectsError, validate_effects
from droidpilot.bench.params import ParamError, check_numbers
from droidpilot.bench.task import SuiteError
from droidpilot.bench.world import template_cache
from droidpilot.bench.world.ruleshape import ShapeProblem, check_any_order, check_forbid
from droidpilot.datalimits import DataLimitError, check_yaml

KINDS = ("settings", "data-entry", "search", "navigation", "multi-app", "retrieval", "infeasible", "edit")
REQUIRED = ("id", "kind", "instruction", "reference", "checkpoints")
OPTIONAL = (
    "oracle",
    "params",
    "apps",
    "lang",
    "setup",
    "answer",
    "answer_type",
    "static",
    "variants",
    "distractors",
    "notes",
    "effects",
    "any_order",
    "forbid",
)
ANSWER_TYPES = (
    "count",
    "number",
    "money",
    "time",
    "date",
    "duration",
    "phone",
    "name",
    "place",
    "text",
    "set",
)
_TYPE_KEYS = {"text": {"type", "aliases"}, "set": {"type", "of"}}
SUITE_FILE = "_suite.yaml"
# libyaml's parser when present: the world suite loads in 0.3 s instead of 1.7 s
_Loader = yamlfast.SafeLoader


@dataclass
class Template:
    """One validated task template (a variant is a template of its own)."""

    id: str
    app: str
    kind: str
    apps: list[str]
    instruction: str
    params: dict[str, Any]
    reference: list[Any]
    oracle: dict[str, Any]
    checkpoints: list[list[str | dict[str, Any]]]  # texts, or typed values shown (rulegen.screen_params)
    path: Path
    line: int
    lang: str = "en"
    setup: dict[str, Any] = field(default_factory=dict)
    answer: str | None = None
    distractors: bool = True
    answer_type: dict[str, Any] = field(default_factory=dict)
    static: str | None = None
    effects: dict[str, Any] = field(default_factory=dict)
    any_order: list[list[int]] = field(default_factory=list)
    forbid: list[dict[str, Any]] = field(default_factory=list)

    @property
    def where(self) -> str:
        """``file:line`` of the template, for error messages."""
        return f"{self.path}:{self.line}"


def is_template_suite(folder: Path) -> bool:
    """Whether ``folder`` holds templates (a ``_suite.yaml`` saying ``type: templates``)."""
    marker = folder / SUITE_FILE
    if not marker.is_file():
        return False
    data = _read_yaml(marker, "the suite file")[0]
    return isinstance(data, dict) and data.get("type") == "templates"


def _read_yaml(path: Path, what: str) -> tuple[Any, yaml.Node | None]:
    """The data and node tree of a YAML file, checked for depth and alias size first; SuiteError with
    the file (and line) when it cannot be read, is not YAML, or is too large."""
    try:
        size = path.stat().st_size
        if size > limits.TEMPLATE_FILE_BYTES:
            raise SuiteError(f"{path}: {size:,} bytes, over the limit of {limits.TEMPLATE_FILE_BYTES:,} for "
                             f"one file of a suite (the shipped ones are under 10 KB); split it into several "
                             f"files")
        text = path.read_text(encoding="utf-8")
        check_yaml(text)
        loader = _Loader(text)  # one parse gives both the node tree (for lines) and the data
        try:
            root = loader.get_single_node()
            return (loader.construct_document(root) if root is not None else None), root
        finally:
            loader.dispose()
    except DataLimitError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise SuiteError(f"{where}: too large: {exc.bare}") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError) as exc:
        raise SuiteError(f"{path}: cannot read {what} ({exc})") from None
    except ValueError as exc:  # a whole number of more than 4,300 digits
        raise SuiteError(f"{path}: cannot read {what} ({exc}); write smaller numbers") from None


def _lines(root: yaml.Node | None) -> list[int]:
    """Line (1-based) of each item of the ``templates`` list."""
    if not isinstance(root, yaml.MappingNode):
        return []
    for key, value in root.value:
        if getattr(key, "value", None) == "templates" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


def _fail(path: Path, line: int, tid: str, key: str, message: str, fix: str = "") -> SuiteError:
    return SuiteError(
        f"{path}:{line}: template {tid!r} field '{key}': {message}" + (f" — {fix}" if fix else "")
    )


def _answer_type(raw: dict[str, Any], path: Path, line: int, tid: str) -> dict[str, Any]:
    """``answer_type`` normalised to a mapping ``{type: ...}``; a retrieval task must declare it."""
    names = ", ".join(ANSWER_TYPES)
    if raw["kind"] != "retrieval":
        if "answer_type" in raw:
            raise _fail(path, line, tid, "answer_type", "only a retrieval task has an answer", "remove it")
        return {}
    if "answer_type" not in raw:
        raise _fail(
            path, line, tid, "answer_type", "missing", f"add `answer_type: NAME` after `kind:` ({names})"
        )
    value = raw["answer_type"]
    spec = {"type": value} if isinstance(value, str) else value
    if not isinstance(spec, dict) or spec.get("type") not in ANSWER_TYPES:
        got = spec.get("type") if isinstance(spec, dict) else spec
        raise _fail(path, line, tid, "answer_type", f"{got!r} is not an answer type", f"use one of {names}")
    extra = set(spec) - _TYPE_KEYS.get(spec["type"], {"type"})
    if extra:
        raise _fail(
            path,
            line,
            tid,
            "answer_type",
            f"unknown key(s) {sorted(extra)} for type {spec['type']!r}",
            "text takes `aliases: [...]`, set takes `of: TYPE`, the others take only `type`",
        )
    aliases = spec.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, (str, int, float)) for a in aliases):
        raise _fail(path, line, tid, "answer_type", "aliases must be a list of texts", "e.g. [Ave, Avenue]")
    if spec["type"] == "set" and spec.get("of", "text") not in set(ANSWER_TYPES) - {"set"}:
        raise _fail(
            path, line, tid, "answer_type", f"set of {spec.get('of')!r}", f"`of:` is one of {names} but set"
        )
    out: dict[str, Any] = {"type": spec["type"]}
    if spec["type"] == "text" and aliases:
        out["aliases"] = [str(a) for a in aliases]
    if spec["type"] == "set":
        out["of"] = str(spec.get("of", "text"))
    return out


def _check(raw: Any, path: Path, line: int, app: str) -> list[Template]:
    tid = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(raw, dict) or not isinstance(tid, str) or not tid.strip():
        raise SuiteError(f"{path}:{line}: a template must be a mapping with an `id` (text)")
    for key in raw:
        if key not in REQUIRED + OPTIONAL:
            close = difflib.get_close_matches(str(key), REQUIRED + OPTIONAL, n=1)
            raise _fail(
                path,
                line,
                tid,
                str(key),
                "unknown field",
                f"did you mean '{close[0]}'?" if close else f"known: {', '.join(REQUIRED + OPTIONAL)}",
            )
    for key in REQUIRED:
        if key not in raw:
            raise _fail(path, line, tid, key, "missing", f"a template needs {', '.join(REQUIRED)}")
    if any(c.isspace() or c in "/\\" for c in tid):
        raise _fail(path, line, tid, "id", "not a usable id", "use letters, digits, '-' and '_'")
    if raw["kind"] not in KINDS:
        raise _fail(
            path, line, tid, "kind", f"{raw['kind']!r} is not a kind", f"use one of {', '.join(KINDS)}"
        )
    if not isinstance(raw["reference"], list) or not raw["reference"]:
        raise _fail(path, line, tid, "reference", "expected a non-empty list of actions")
    cps = raw["checkpoints"]
    if (
        not isinstance(cps, list)
        or not cps
        or not all(
            isinstance(c, list) and c and all(isinstance(t, (str, int, float)) or _shown_value(t) for t in c)
            for c in cps
        )
    ):
        raise _fail(
            path,
            line,
            tid,
            "checkpoints",
            "expected a list of screens, each a list of texts or typed values ({type: T, equals|in|between})",
            'e.g. [["Contacts", "Ava Smith"], ["{name}"]]',
        )
    if raw["kind"] not in ("retrieval", "infeasible") and not raw.get("oracle"):
        raise _fail(
            path, line, tid, "oracle", "missing", "only retrieval and infeasible tasks may leave it out"
        )
    if raw["kind"] == "retrieval" and "answer" not in raw:
        raise _fail(path, line, tid, "answer", "a retrieval task needs the true answer (with placeholders)")
    answer_type = _answer_type(raw, path, line, tid)
    try:
        any_order = check_any_order(raw.get("any_order"), len(cps))
        forbid = check_forbid(raw.get("forbid"), len(cps))
    except ShapeProblem as exc:
        raise _fail(path, line, tid, exc.key, str(exc), exc.fix) from None
    static = raw.get("static")
    if static is not None and (not isinstance(static, str) or not static.strip()):
        raise _fail(
            path, line, tid, "static", "expected the reason as text", 'e.g. static: "one About screen"'
        )
    try:
        validate_effects(raw.get("effects") or {}, "effects", values=False)
    except EffectsError as exc:
        raise _fail(path, line, tid, "effects", str(exc), "see `effects` in bench/README.md") from None
    params = raw.get("params") or {}
    if not isinstance(params, dict):
        raise _fail(path, line, tid, "params", "expected a mapping name -> parameter spec")
    odd = [k for k in params if not isinstance(k, str)]
    if odd:  # YAML reads an unquoted on/off/yes/no/true/1 key as a bool or number, not a name
        raise _fail(path, line, tid, "params", f"parameter name {odd[0]!r} is not text (YAML reads an "
                    "unquoted on, off, yes, no, true, false or number as a value)",
                    "rename it or quote it: \"on\":")
    try:
        check_numbers(params, "params")
    except ParamError as exc:
        raise _fail(path, line, tid, "params", str(exc)) from None
    variants = raw.get("variants") or [{}]
    if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants):
        raise _fail(path, line, tid, "variants", "expected a list of mappings (each with an id)")
    if len(variants) > limits.TEMPLATES:
        raise _fail(path, line, tid, "variants", f"{len(variants):,} variants, over the limit of "
                    f"{limits.TEMPLATES:,} templates in a suite", "split the suite into several folders")
    out = []
    for i, var in enumerate(variants):
        vid = var.get("id")
        if len(variants) > 1 and not isinstance(vid, str):
            raise _fail(path, line, tid, f"variants[{i}]", "each variant needs an `id`")
        merged = {
            **{k: {"type": "const", "value": v} for k, v in var.items() if k not in ("id", "apps")},
            **params,
        }
        out.append(
            Template(
                id=f"{tid}-{vid}" if vid else tid,
                app=app,
                kind=raw["kind"],
                apps=list(var.get("apps") or raw.get("apps") or [app]),
                instruction=str(raw["instruction"]),
                params=merged,
                reference=list(raw["reference"]),
                oracle=raw.get("oracle") or {},
                checkpoints=[[dict(t) if isinstance(t, dict) else str(t) for t in c] for c in cps],
                path=path,
                line=line,
                lang=str(raw.get("lang", "en")),
                setup=dict(raw.get("setup") or {}),
                answer=None if raw.get("answer") is None else str(raw["answer"]),
                distractors=bool(raw.get("distractors", True)),
                answer_type=dict(answer_type),
                static=static,
                effects=dict(raw.get("effects") or {}),
                any_order=any_order,
                forbid=forbid,
            )
        )
    return out


def load_templates(folder: Path, on_file: Callable[[int], None] | None = None) -> list[Template]:
    """Every template of a template suite folder, in file order; SuiteError lists every problem, and
    refuses a suite of more than ``limits.TEMPLATES`` templates (variants counted). ``on_file(1)`` is
    called after each file (progress). A folder whose files were read before in this process comes from
    ``template_cache`` (the callers' copies are their own to change)."""
    files = sorted(p for p in folder.glob("*.yaml") if not p.name.startswith("_"))
    if not files:
        raise SuiteError(f"{folder}: no template files (*.yaml) in the suite folder")
    try:
        small = all(p.stat().st_size <= limits.TEMPLATE_FILE_BYTES for p in files)
    except OSError:
        small = False
    if not small:  # read uncached, so that _read_yaml reports the file that is too large or unreadable
        return _read_templates(folder, files, on_file)
    fresh: list[bool] = []

    def read() -> list[Template]:
        fresh.append(True)
        return _read_templates(folder, files, on_file)

    templates = template_cache.cached_folder(folder, files, read)
    if on_file is not None and not fresh:
        on_file(len(files))  # progress completes at once when nothing had to be parsed
    return templates


def _read_templates(folder: Path, files: list[Path], on_file: Callable[[int], None] | None) -> list[Template]:
    """Parse and validate ``files`` (load_templates without the cache)."""
    templates: list[Template] = []
    problems: list[str] = []
    for path in files:
        if on_file is not None:
            on_file(1)
        try:
            data, root = _read_yaml(path, "the template file")
        except SuiteError as exc:
            problems.append(str(exc))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("templates"), list) or not data.get("app"):
            problems.append(f"{path}: a template file is a mapping with `app` and a `templates` list")
            continue
        for raw, line in zip(data["templates"], _lines(root), strict=False):
            try:
                templates.extend(_check(raw, path, line, str(data["app"])))
            except SuiteError as exc:
                problems.append(str(exc))
            if len(templates) > limits.TEMPLATES:
                raise SuiteError(f"{path}:{line}: {folder} holds more than {limits.TEMPLATES:,} templates "
                                 f"(variants counted), the limit of one suite; split it into several folders")
    seen: dict[str, str] = {}
    for t in templates:
        if t.id in seen:
            problems.append(
                f"{t.where}: template id {t.id!r} is also used at {seen[t.id]}; ids must be unique"
            )
        seen[t.id] = t.where
    if problems:
        raise SuiteError("\n".join(problems))
    return templates


def _shown_value(item: Any) -> bool:
    """Whether a checkpoint item is a typed value a screen shows: ``type`` and one way to give the right
    value (checked whole once its placeholders are filled, ``instance.py``)."""
    return (isinstance(item, dict) and isinstance(item.get("type"), str)
            and sum(k in item for k in ("equals", "in", "between")) == 1)
