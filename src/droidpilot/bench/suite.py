"""Benchmark suites as data: one YAML file per task, loaded and validated with errors naming file and field.

A task file holds ``id``, ``scenario``, ``level`` (1-3), ``apps``, ``instruction``, ``reference`` (the
shortest human way, as Mobile-Agent actions; an item may be ``{action: ..., choose: N}`` to say which of
several same-text candidates a person would tap), ``oracle`` (a predicate over SimPhone's ``state()``,
see ``droidpilot.bench.oracle``) and ``rule`` (a milestone DAG in MobiFlow's format, verified by
``droidpilot.verify``). Optional: ``seed``, ``max_steps``, ``lang``, ``notes``.
"""

from __future__ import annotations

import difflib
import textwrap
from pathlib import Path
from typing import Any

import yaml

from droidpilot import yamlfast
from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.task import BenchTask, RefOp, Suite, SuiteError
from droidpilot.datalimits import DataLimitError, check_yaml
from droidpilot.errors import InputError
from droidpilot.verify.problems import RuleError, RuleProblem
from droidpilot.verify.rule import Task
from droidpilot.verify.spec import load_rule_text

SUITES_DIR = Path(__file__).parent / "suites"
REQUIRED = ("id", "scenario", "level", "apps", "instruction", "reference", "oracle", "rule")
OPTIONAL = ("seed", "max_steps", "lang", "notes")
LEVELS = (1, 2, 3)

# The data types live in bench.task (bench.world needs them without this loader); callers may import
# them from here as before.
__all__ = ["BenchTask", "RefOp", "Suite", "SuiteError", "available_suites", "load_suite", "load_task",
           "suite_folder"]


def available_suites() -> list[str]:
    """The suites shipped with droidpilot (folders under ``bench/suites``)."""
    return sorted(p.name for p in SUITES_DIR.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def suite_folder(name_or_path: str) -> Path:
    """A shipped suite's folder by name, or a folder path; SuiteError when neither exists."""
    candidate = Path(name_or_path)
    if candidate.is_dir():
        return candidate
    shipped = SUITES_DIR / name_or_path
    if shipped.is_dir():
        return shipped
    raise SuiteError(f"no suite {name_or_path!r}: not a folder, and not one of the shipped suites "
                     f"({', '.join(available_suites())})")


def load_suite(name_or_path: str, *, seed: int = 0, instances: int = 1, templates: str | None = None,
               tier: str | None = None) -> Suite:
    """Load every ``*.yaml`` task file of a suite (sorted by file name); SuiteError lists every problem.
    A template suite (``_suite.yaml``: ``type: templates``) is instantiated for ``seed``: ``instances``
    per template, only templates matching ``templates`` (comma-separated globs) and ``tier``."""
    folder = suite_folder(name_or_path)
    from droidpilot.bench.world.template import is_template_suite

    if is_template_suite(folder):
        from droidpilot.bench.world import load_world

        return load_world(folder, seed=seed, instances=instances, patterns=templates, tier=tier)
    given = [flag for flag, used in (("--instances", instances != 1), ("--templates", templates is not None),
                                     ("--tier", tier is not None)) if used]
    if given:
        verb = "applies" if len(given) == 1 else "apply"
        raise SuiteError(f"{' and '.join(given)} only {verb} to template suites such as world; {folder.name} "
                         f"is a suite of fixed tasks: choose its tasks with --tasks ID,... instead")
    files = sorted(p for p in folder.glob("*.yaml") if not p.name.startswith("_"))
    if not files:
        raise SuiteError(f"{folder}: no task files (*.yaml) in the suite folder")
    tasks: list[BenchTask] = []
    problems: list[str] = []
    for path in files:
        try:
            tasks.append(load_task(path, suite=folder.name))
        except InputError as exc:
            problems.append(str(exc))
    seen: dict[str, Path] = {}
    for task in tasks:
        if task.id in seen:
            problems.append(f"{task.path}: field 'id': {task.id!r} is also the id of {seen[task.id]}; "
                            f"ids must be unique in a suite")
        seen[task.id] = task.path
    if problems:
        raise SuiteError("\n".join(problems))
    return Suite(folder.name, folder, tasks)


def _node_at(node: yaml.Node, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def _line(root: yaml.Node | None, key: str) -> int | None:
    if root is None:
        return None
    if isinstance(root, yaml.MappingNode):
        for k, _ in root.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k.start_mark.line + 1
    return root.start_mark.line + 1


class _Loader:
    """Validates one task file, raising SuiteError at the first problem with ``file:line: field``."""

    def __init__(self, path: Path, suite: str) -> None:
        self.path, self.suite = path, suite
        try:
            self.text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise SuiteError(f"{path}: cannot read the task file ({exc})") from None
        try:
            check_yaml(self.text)
        except DataLimitError as exc:
            where = f"{path}:{exc.line}" if exc.line else str(path)
            raise SuiteError(f"{where}: too large: {exc.bare}") from None
        try:
            self.root = yaml.compose(self.text, Loader=yamlfast.SafeLoader)
            self.data = yamlfast.safe_load(self.text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
            raise SuiteError(f"{where}: not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
        except ValueError as exc:  # a whole number of more than 4,300 digits
            raise SuiteError(f"{path}: cannot read the task file ({exc}); write smaller numbers") from None

    def fail(self, key: str, message: str, fix: str = "") -> SuiteError:
        """The error for field ``key`` (``reference[2]`` style), with the line it is on."""
        top, _, rest = key.split(".")[0].partition("[")
        line = _line(self.root, top)
        value = _node_at(self.root, top) if self.root is not None else None
        if rest and isinstance(value, yaml.SequenceNode) and rest.rstrip("]").isdigit():
            index = int(rest.rstrip("]"))
            if index < len(value.value):
                line = value.value[index].start_mark.line + 1
        where = f"{self.path}:{line}" if line else str(self.path)
        return SuiteError(f"{where}: field '{key}': {message}" + (f" — {fix}" if fix else ""))

    def load(self) -> BenchTask:
        """Validate every field and build the task."""
        data = self.data
        if not isinstance(data, dict):
            raise SuiteError(f"{self.path}: a task file must be a YAML mapping with the fields "
                             f"{', '.join(REQUIRED)}")
        for key in data:
            if key not in REQUIRED + OPTIONAL:
                close = difflib.get_close_matches(str(key), REQUIRED + OPTIONAL, n=1)
                fix = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(REQUIRED + OPTIONAL)}"
                raise self.fail(str(key), "unknown field", fix)
        for key in REQUIRED:
            if key not in data:
                raise SuiteError(f"{self.path}: missing field '{key}' (a task needs {', '.join(REQUIRED)})")
        tid = data["id"]
        if not isinstance(tid, str) or not tid.strip() or any(c.isspace() or c in "/\\" for c in tid):
            raise self.fail("id", f"{tid!r} is not a usable id", "use letters, digits, '-' and '_'")
        if self.path.stem != tid:
            raise self.fail("id", f"{tid!r} differs from the file name {self.path.name}",
                            f"name the file {tid}.yaml")
        if data["level"] not in LEVELS:
            raise self.fail("level", f"{data['level']!r} is not 1, 2 or 3")
        apps = data["apps"]
        if not isinstance(apps, list) or not apps or not all(isinstance(a, str) and a for a in apps):
            raise self.fail("apps", "expected a non-empty list of SimPhone app names")
        for key in ("instruction", "scenario"):
            if not isinstance(data[key], str) or not data[key].strip():
                raise self.fail(key, "expected non-empty text")
        for key in ("seed", "max_steps"):
            value = data.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise self.fail(key, f"expected a whole number >= 0, got {data[key]!r}")
        if data.get("lang", "en") not in ("en", "zh"):
            raise self.fail("lang", f"{data['lang']!r} is not en or zh")
        reference = self._reference(data["reference"])
        try:
            oracle_lang.validate(data["oracle"], "oracle")
        except oracle_lang.OracleError as exc:
            raise self.fail("oracle", str(exc)) from None
        rule, rule_text = self._rule()
        return BenchTask(id=tid, suite=self.suite, path=self.path, scenario=data["scenario"],
                         level=int(data["level"]), apps=list(apps), instruction=data["instruction"].strip(),
                         reference=reference, oracle=data["oracle"], rule=rule, rule_text=rule_text,
                         seed=int(data.get("seed", 0)), max_steps=data.get("max_steps"),
                         lang=data.get("lang", "en"), notes=str(data.get("notes") or ""))

    def _reference(self, items: Any) -> list[RefOp]:
        if not isinstance(items, list) or not items:
            raise self.fail("reference", "expected a non-empty list of Mobile-Agent actions")
        ops: list[RefOp] = []
        for i, item in enumerate(items):
            choose = None
            if isinstance(item, dict):
                extra = set(item) - {"action", "choose"}
                if extra or "action" not in item:
                    raise self.fail(f"reference[{i}]", "an item is an action, or {action: ..., choose: N}")
                choose = item.get("choose")
                if choose is not None and (isinstance(choose, bool) or not isinstance(choose, int)
                                           or not 1 <= choose <= 4):
                    raise self.fail(f"reference[{i}].choose", "expected a candidate number 1-4")
                item = item["action"]
            if not isinstance(item, str):
                raise self.fail(f"reference[{i}]", f"expected an action as text, got {type(item).__name__}")
            try:
                action = parse_action(item)
            except ActionParseError as exc:
                raise self.fail(f"reference[{i}]", f"{item!r} is not an action: {exc}") from None
            if action.name == "stop":
                raise self.fail(f"reference[{i}]", "'stop' is implied at the end; leave it out")
            ops.append(RefOp(action.format(), choose))
        return ops

    def _rule(self) -> tuple[Task, str]:
        """Validate the embedded rule from its own text, so problems point at lines of this file."""
        node = _node_at(self.root, "rule") if self.root is not None else None
        if not isinstance(node, yaml.MappingNode) or node.flow_style:
            raise self.fail("rule", "expected a block mapping holding a MobiFlow rule (task_id, nodes, ...)")
        first = node.start_mark
        lines = self.text.splitlines()[first.line:node.end_mark.line + 1]
        lines[0] = " " * first.column + lines[0][first.column:]
        if node.end_mark.line < len(self.text.splitlines()) and node.end_mark.column == 0:
            lines = lines[:-1] if len(lines) > 1 else lines
        text = textwrap.dedent("\n".join(lines)) + "\n"
        try:
            task = load_rule_text(text, source="<rule>")
        except RuleError as exc:
            shifted = [RuleProblem(str(self.path), None if p.line is None else p.line + first.line,
                                   p.node, f"rule: {p.message}", p.fix) for p in exc.problems]
            raise SuiteError(str(RuleError(shifted))) from None
        task.source = self.path
        return task, text


def load_task(path: str | Path, suite: str = "") -> BenchTask:
    """Load and validate one task file."""
    path = Path(path)
    return _Loader(path, suite or path.parent.name).load()
