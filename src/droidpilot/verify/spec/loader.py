"""Loading and validating rules (task specs) in MobiFlow's format, from YAML or JSON.

``load_rule(path)`` / ``load_rule_text(text)`` return a ``Task`` whose nodes know their source line, or
raise ``RuleError`` listing every problem found (file, line, node, what is wrong, how to fix it).
Suspicious but usable structure is reported in ``Task.warnings`` and logged at WARNING.
"""

from __future__ import annotations

import logging
import math
import re
import sys
from pathlib import Path
from typing import Any

from droidpilot.datalimits import brief_number, finite_number
from droidpilot.pathcheck import file_problem
from droidpilot.verify.problems import RuleError, RuleProblem, closest, did_you_mean
from droidpilot.verify.rule import RuleShapeError, Task
from droidpilot.verify.spec.condition import PERCEPTION_TYPES, ConditionChecks
from droidpilot.verify.spec.graph import graph_problems, graph_warnings
from droidpilot.verify.spec.params import kind_of as _kind
from droidpilot.verify.spec.yaml_text import LineDict, SyntaxProblemError, load_json, load_yaml
from droidpilot.verify.spec.yaml_text import key_line as _key_line
from droidpilot.verify.spec.yaml_text import line_of as _line

__all__ = ["PERCEPTION_TYPES", "RuleError", "RuleProblem", "load_rule", "load_rule_text", "validate_task"]

log = logging.getLogger("droidpilot.verify.spec")

TOP_FIELDS = ("task_id", "app_id", "task_type", "description", "nodes", "success")
NODE_FIELDS = ("id", "name", "deps", "next", "condition", "score")


def load_rule(path: str | Path) -> Task:
    """Load and validate the rule file at ``path`` (``.json`` as JSON, anything else as YAML)."""
    path = Path(path)
    problem = file_problem(path)  # before reading: a FIFO or a link to /dev/zero would never end
    if problem == "does not exist":
        raise RuleError([RuleProblem(str(path), None, None, "rule file not found", "check the path")])
    if problem is not None:
        raise RuleError([RuleProblem(str(path), None, None, f"the rule file {problem}",
                                     "give the path of a readable YAML or JSON rule file")])
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RuleError([RuleProblem(str(path), None, None, "rule file not found",
                                     "check the path")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError([RuleProblem(str(path), None, None, f"cannot read the rule file: {exc}",
                                     "make it a readable UTF-8 text file")]) from None
    task = load_rule_text(text, source=str(path))
    task.source = path
    return task


def load_rule_text(text: str, source: str = "<string>") -> Task:
    """Load and validate a rule given as text; ``source`` names it in messages (a ``.json`` name
    selects JSON parsing)."""
    try:
        data = load_json(text) if source.lower().endswith(".json") else load_yaml(text)
    except SyntaxProblemError as exc:
        p = exc.problem
        raise RuleError([RuleProblem(source, p.line, None, p.message, p.fix)]) from None
    task = _Validator(source, text).run(data)
    if source != "<string>":
        task.source = Path(source)
    return task


def validate_task(task: Task) -> Task:
    """Validate a Task built in Python (not loaded from a file); returns it with ``warnings`` filled."""
    source = str(task.source) if task.source else "<task>"
    data = task.model_dump(mode="python", exclude_none=False)
    checked = _Validator(source, "").run(data)
    task.warnings = checked.warnings
    return task


def _id_list(value: Any) -> list[str] | None:
    """A list of node ids, numbers read as text as a numeric ``id: 7`` is; None for anything else."""
    if not isinstance(value, list):
        return None
    if not all(isinstance(v, str) or (isinstance(v, int | float) and not isinstance(v, bool)) for v in value):
        return None
    return [v if isinstance(v, str) else str(v) for v in value]


class _Validator(ConditionChecks):
    """Collects every problem of one rule in a single pass, then builds the Task."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.text = text
        self.problems: list[RuleProblem] = []
        self.warnings: list[RuleProblem] = []

    def problem(self, line: int | None, node: str | None, message: str, fix: str = "") -> None:
        self.problems.append(RuleProblem(self.source, line, node, message, fix))

    def warn(self, line: int | None, node: str | None, message: str, fix: str = "") -> None:
        self.warnings.append(RuleProblem(self.source, line, node, message, fix))

    # -- the whole rule ------------------------------------------------------------------------
    def run(self, data: Any) -> Task:
        if data is None:
            self.problem(1, None, "the rule is empty",
                         "write a mapping with task_id, nodes: [...] and success: {any_of: [...]}")
            raise RuleError(self.problems)
        if not isinstance(data, dict):
            self.problem(_line(data) or 1, None, f"the top level is a {_kind(data)}, not a mapping",
                         "start the file with keys such as task_id:, nodes: and success:")
            raise RuleError(self.problems)
        data = dict(data) if not isinstance(data, LineDict) else data
        self._duplicate_keys(data, None)
        for key in ("task_id", "app_id", "task_type", "description"):
            self._scalar_text(data, key, None)
        self._near_misses(data, TOP_FIELDS, None, "the rule")
        nodes = self._nodes(data)
        ids = [n["id"] for n in nodes if isinstance(n.get("id"), str)]
        self._success(data, ids)
        if nodes:
            graph_problems(self, nodes, ids)
        if self.problems:
            raise RuleError(self.problems)
        task = self._build(data, nodes)
        if task.nodes:
            graph_warnings(self, task)
        task.warnings = [str(w) for w in self.warnings]
        for warning in task.warnings:
            log.warning("%s", warning)
        return task

    def _build(self, data: dict[str, Any], nodes: list[dict[str, Any]]) -> Task:
        plain = _plain(data)
        plain["nodes"] = []
        for raw in nodes:
            node = _plain(raw)
            node["line"] = _line(raw)
            plain["nodes"].append(node)
        try:
            return Task.model_validate(plain)
        except RuleShapeError as exc:  # a shape the checks above did not foresee
            for err in exc.errors():
                where = ".".join(str(p) for p in err["loc"])
                self.problem(_line(data), None, f"{where}: {err['msg']}", "fix the value's type")
            raise RuleError(self.problems) from None

    # -- top-level fields -------------------------------------------------------------------------
    def _scalar_text(self, mapping: dict[str, Any], key: str, node: str | None) -> None:
        value = mapping.get(key)
        if value is None or isinstance(value, str):
            return
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            mapping[key] = str(value)
            return
        self.problem(_key_line(mapping, key), node, f"'{key}' must be text, not a {_kind(value)}",
                     f"write {key}: \"...\"")

    def _near_misses(self, mapping: dict[str, Any], fields: tuple[str, ...], node: str | None,
                     what: str) -> None:
        for key in mapping:
            if isinstance(key, str) and key not in fields:
                guess = closest(key, fields, cutoff=0.75)
                if guess and guess not in mapping:
                    self.warn(_key_line(mapping, key), node,
                              f"{what} has an unknown key '{key}' (kept as description; did you mean "
                              f"'{guess}'?)", f"rename it to '{guess}' if that was meant")

    def _duplicate_keys(self, mapping: Any, node: str | None) -> None:
        for key, line in getattr(mapping, "duplicate_keys", []):
            self.problem(line, node, f"key '{key}' is given twice (the later value would silently win)",
                         "keep one of them")

    def _nodes(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        raw = data.get("nodes")
        if raw is None or raw == []:
            self.problem(_key_line(data, "nodes") or 1, None, "the rule has no nodes",
                         "add nodes: [{id: ..., condition: {type: ..., params: {...}}}, ...]")
            return []
        if not isinstance(raw, list):
            self.problem(_key_line(data, "nodes"), None, f"'nodes' must be a list, not a {_kind(raw)}",
                         "write each node as a '- id: ...' item under nodes:")
            return []
        nodes: list[dict[str, Any]] = []
        first_line: dict[str, int | None] = {}
        item_lines = getattr(raw, "item_lines", [])
        for i, item in enumerate(raw):
            line = item_lines[i] if i < len(item_lines) else None
            if not isinstance(item, dict):
                self.problem(line, None, f"nodes[{i}] is a {_kind(item)}, not a mapping",
                             "write the node as '- id: ...' with its fields indented under it")
                continue
            nodes.append(item)
            node_id = self._node(item, i)
            if node_id is None:
                continue
            if node_id in first_line:
                where = f" (first at line {first_line[node_id]})" if first_line[node_id] else ""
                self.problem(_key_line(item, "id"), node_id, f"duplicate node id{where}",
                             "give every node a unique id")
            else:
                first_line[node_id] = _key_line(item, "id")
        self._score_total(nodes)
        return nodes

    def _score_total(self, nodes: list[dict[str, Any]]) -> None:
        """Scores are added up (total, best path): each may be finite while their sum is not."""
        total = 0.0
        for node in nodes:
            score = node.get("score", 0)
            if finite_number(score):
                total += score
                if not math.isfinite(total):
                    self.problem(_key_line(node, "score"), node.get("id") if isinstance(node.get("id"), str)
                                 else None, f"the scores add up to more than {sys.float_info.max:.3g}",
                                 "use smaller scores (they only need to compare)")
                    return

    # -- one node ---------------------------------------------------------------------------------
    def _node(self, node: dict[str, Any], index: int) -> str | None:
        node_id = node.get("id")
        label: str | None = None
        if node_id is None:
            self.problem(_line(node), None, f"nodes[{index}] has no id", "add id: <a unique name>")
        elif isinstance(node_id, (int, float)) and not isinstance(node_id, bool):
            node["id"] = node_id = str(node_id)
        elif not isinstance(node_id, str) or not node_id:
            self.problem(_key_line(node, "id"), None, f"nodes[{index}] has an invalid id {node_id!r}",
                         "use a non-empty name such as open_search")
        if isinstance(node_id, str) and node_id:
            label = node_id
        self._duplicate_keys(node, label)
        self._scalar_text(node, "name", label)
        self._near_misses(node, NODE_FIELDS, label, "the node")
        for key in ("deps", "next"):
            value = node.get(key)
            if value is None:
                continue
            if isinstance(value, str):
                self.problem(_key_line(node, key), label, f"'{key}' must be a list, not a string",
                             f"write {key}: [{value}]")
            elif (ids := _id_list(value)) is None:
                self.problem(_key_line(node, key), label, f"'{key}' must be a list of node ids",
                             f"write {key}: [node_a, node_b]")
            else:
                node[key] = ids
        if "score" in node:
            score = node["score"]
            if isinstance(score, bool) or not isinstance(score, (int, float)):
                self.problem(_key_line(node, "score"), label, f"score must be a number, not {score!r}",
                             "write score: 10 (or leave it out for the default 10)")
            elif not finite_number(score):
                self.problem(_key_line(node, "score"), label,
                             f"score must be a finite number, not {brief_number(score)}",
                             "write score: 10 (NaN, infinities and numbers beyond 1e308 cannot be added "
                             "up or printed as JSON)")
        self._condition(node, label)
        return label

    # -- success ----------------------------------------------------------------------------------
    def _success(self, data: dict[str, Any], ids: list[str]) -> None:
        success = data.get("success")
        if success is None:
            return
        line = _key_line(data, "success")
        if not isinstance(success, dict):
            self.problem(line, None, f"success must be a mapping, not a {_kind(success)}",
                         "write success: {any_of: [node_id]} or success: {all_of: [...]}")
            return
        for key in success:
            if key not in ("any_of", "all_of", "none_of"):
                self.problem(_key_line(success, key, line), None, f"success has an unknown key '{key}'"
                             f"{did_you_mean(str(key), ('any_of', 'all_of', 'none_of'))}",
                             "use any_of or all_of (and none_of for forbidden nodes)")
        if success.get("any_of") and success.get("all_of"):
            self.problem(line, None, "success gives both any_of and all_of",
                         "keep one: any_of (one node suffices) or all_of (every node)")
        for key in ("any_of", "all_of", "none_of"):
            value = success.get(key)
            if value is None:
                continue
            kline = _key_line(success, key, line)
            if (value := _id_list(value)) is None:
                self.problem(kline, None, f"success.{key} must be a list of node ids",
                             f"write {key}: [node_id]")
                continue
            success[key] = value
            if not value:
                self.problem(kline, None, f"success.{key} is empty", "name the node(s) that end the task")
            for target in value:
                if target not in ids:
                    self.missing_reference(kline, None, f"success.{key}", target, ids)
        self._forbidden(success, line)

    def _forbidden(self, success: dict[str, Any], line: int | None) -> None:
        """``none_of`` needs success nodes besides, and a node cannot be both wanted and forbidden."""
        forbidden = success.get("none_of")
        if not isinstance(forbidden, list) or not forbidden:
            return
        wanted = [t for key in ("any_of", "all_of") if isinstance(success.get(key), list)
                  for t in success[key]]
        kline = _key_line(success, "none_of", line)
        if not wanted:
            self.problem(kline, None, "success gives none_of without any_of or all_of",
                         "name the node(s) that end the task in any_of; none_of only forbids")
        for both in dict.fromkeys(t for t in forbidden if t in wanted):
            self.problem(kline, both, f"node '{both}' is both a success target and forbidden (none_of)",
                         "remove it from one of the two lists")

    def missing_reference(self, line: int | None, node: str | None, field: str, target: str,
                          ids: list[str]) -> None:
        """Report ``field`` naming a node that does not exist, with a did-you-mean and a hint."""
        guess = closest(target, ids)
        message = f"{field} names '{target}', which is not a node"
        commented = self._commented_out(target)
        if commented:
            message += f" (a node with that id is commented out at line {commented})"
        if commented:
            fix = f"uncomment that node or remove '{target}' from {field}"
        elif guess:
            fix = f"write '{guess}'"
        else:
            fix = f"add a node with id '{target}' or remove it from {field}"
        if guess and not commented:
            message += f" (did you mean '{guess}'?)"
        self.problem(line, node, message, fix)

    def _commented_out(self, node_id: str) -> int | None:
        pattern = re.compile(r"^\s*#\s*-?\s*id:\s*['\"]?" + re.escape(node_id) + r"['\"]?\s*$")
        for number, text in enumerate(self.text.splitlines(), start=1):
            if pattern.match(text):
                return number
        return None


def _plain(value: Any) -> Any:
    """LineDict / LineList trees as plain dicts and lists (lines are only needed while validating)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
