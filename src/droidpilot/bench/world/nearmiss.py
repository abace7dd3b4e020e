"""Near-miss cases: a task instance's own reference with edits, replayed through the agent loop and judged.

Real agents are almost right, so judges are measured on almost-right runs: each case names a template
and seed, edits the instance's reference (placeholders filled from its drawn parameters, so a case keeps
its meaning when the template's data changes), says whether the run must ``pass`` or ``fail`` and, for a
wrong one, ``why`` (the mistake a real agent makes that it stands for). The case file is YAML::

    cases:
      - id: bank-send-ten-times
        template: bank-send
        seed: 0
        expect: fail
        why: one zero too many ($820 for $82)
        edits: [{at: "type ({amount})", with: ["type ({amount}0)"]}]
    known_failures:
      - {case: bank-send-ten-times, judges: [oracle], reason: the amount is a substring match}

Edits apply in order: ``{at: OP, with: [OPS]}`` replaces the first operation equal to OP (``nth: N`` the
Nth), ``{after: OP, add: [OPS]}`` / ``{before: OP, add: [OPS]}`` insert, ``{answer: TEXT}`` replaces the
final ``answer``, ``{append: [OPS]}`` adds at the end, ``{only: [OPS]}`` replaces them all. An operation
is an action, ``ACTION @choose N`` (the Nth candidate when grounding finds several) or ``@scroll TEXT``
(scroll down until TEXT shows; ``@scrollup TEXT`` up). Placeholders name the instance's parameters
or ``{answer}`` (its reference reply) and take filters, ``{p|digits}`` (see ``FILTERS``); ``when: [{value:
"{p}", matches: REGEX}]`` or ``{value: "{p}", differs: "{q}"}`` guards what a case relies on.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from droidpilot import yamlfast
from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.bench.task import BenchTask, RefOp
from droidpilot.bench.world.fill import lookup
from droidpilot.bench.world.instance import instantiate
from droidpilot.bench.world.template import Template, load_templates
from droidpilot.errors import InputError
from droidpilot.regexguard import PatternTimeout, guarded

JUDGES = ("oracle", "rule", "rule_ocr")
WORLD_FOLDER = Path(__file__).parents[1] / "suites" / "world"  # the shipped suite (bench.suite sits above)
EXPECT = ("pass", "fail")
SCROLL = "@scroll "
SCROLL_UP = "@scrollup "
CHOOSE = " @choose "


class NearMissError(InputError):
    """A case file or case that cannot be used; the message names the file, the case and the fix."""


def _twelve_hour(text: str) -> str:
    hours, minutes = (int(p) for p in text.split(":"))
    return f"{(hours % 12) or 12}:{minutes:02d} {'AM' if hours < 12 else 'PM'}"


def _parenthesised(text: str) -> str:
    digits = re.sub(r"\D", "", text)
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


FILTERS = {
    "digits": lambda s: re.sub(r"\D", "", s),  # 555-392-7824 -> 5553927824
    "paren": _parenthesised,  # 555-392-7824 -> (555) 392-7824
    "nocomma": lambda s: s.replace(",", ""),  # 1,204.10 -> 1204.10
    "nocents": lambda s: re.sub(r"\.0+$", "", s),  # 65.00 -> 65
    "12h": _twelve_hour,  # 13:00 -> 1:00 PM
    "nolead0": lambda s: re.sub(r"^0(\d)", r"\1", s),  # 08:15 -> 8:15
    "lower": str.lower,
    "upper": str.upper,
    "first": lambda s: s.split()[0],
    "last": lambda s: s.split()[-1],
    "plus1": lambda s: str(int(s) + 1),
    "minus1": lambda s: str(int(s) - 1),
    "bumplast": lambda s: s[:-1] + str((int(s[-1]) + 1) % 10),  # 555-131-2698 -> 555-131-2699
    "cents": lambda s: f"{float(s.replace(',', '')):.2f}",  # 65 -> 65.00
}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][\w]*(?:\.[\w-]+)*)((?:\|[\w]+)*)\}")


def fill_text(text: str, params: dict[str, Any], where: str) -> str:
    """``text`` with ``{param}`` / ``{param.field|filter|...}`` replaced from the instance's parameters."""

    def one(m: re.Match[str]) -> str:
        value = str(lookup(params, m.group(1), where))
        for name in filter(None, m.group(2).split("|")):
            if name not in FILTERS:
                raise NearMissError(f"{where}: unknown filter |{name} (known: {', '.join(FILTERS)})")
            try:
                value = FILTERS[name](value)
            except (ValueError, IndexError) as exc:
                raise NearMissError(f"{where}: filter |{name} cannot take {value!r} ({exc})") from None
        return value

    return _PLACEHOLDER.sub(one, text)


@dataclass
class NearMiss:
    """One case: which instance, the edits to its reference, the verdict it must get and why."""

    id: str
    template: str
    seed: int
    expect: str
    why: str
    edits: list[dict[str, Any]]
    when: list[dict[str, str]] = field(default_factory=list)
    known: dict[str, str] = field(default_factory=dict)  # judge -> why it is judged wrongly today
    where: str = ""


_EDIT_KEYS = ({"at", "with"}, {"at", "with", "nth"}, {"after", "add"}, {"before", "add"}, {"answer"},
              {"append"}, {"only"})


def _check_case(raw: Any, where: str) -> NearMiss:
    if not isinstance(raw, dict):
        raise NearMissError(f"{where}: a case is a mapping with id, template, seed, expect, why, edits")
    missing = [k for k in ("id", "template", "seed", "expect", "edits") if k not in raw]
    if missing:
        raise NearMissError(f"{where}: missing {', '.join(missing)}")
    unknown = set(raw) - {"id", "template", "seed", "expect", "why", "edits", "when"}
    if unknown:
        raise NearMissError(f"{where}: unknown keys {sorted(unknown)}")
    if raw["expect"] not in EXPECT:
        raise NearMissError(f"{where}: expect must be pass or fail, not {raw['expect']!r}")
    if raw["expect"] == "fail" and not str(raw.get("why") or "").strip():
        raise NearMissError(f"{where}: a wrong completion needs `why`: the mistake a real agent makes")
    if not isinstance(raw["edits"], list) or not raw["edits"]:
        raise NearMissError(f"{where}: edits must be a non-empty list")
    for i, edit in enumerate(raw["edits"]):
        if not isinstance(edit, dict) or set(edit) not in _EDIT_KEYS:
            raise NearMissError(f"{where}: edits[{i}] {edit!r} is not one of: {{at, with[, nth]}}, "
                                "{after, add}, {before, add}, {answer}, {append}, {only}")
    return NearMiss(str(raw["id"]), str(raw["template"]), int(raw["seed"]), raw["expect"],
                    str(raw.get("why") or ""), raw["edits"], list(raw.get("when") or []), where=where)


def load_cases(path: Path) -> list[NearMiss]:
    """The cases of a near-miss file, each with the judges it is known to fool (``known_failures``)."""
    try:
        data = yamlfast.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise NearMissError(f"{path}: cannot read the near-miss file ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise NearMissError(f"{path}: expected a mapping with a `cases` list")
    cases = [_check_case(raw, f"{path}: cases[{i}]") for i, raw in enumerate(data["cases"])]
    by_id: dict[str, NearMiss] = {}
    for case in cases:
        if case.id in by_id:
            raise NearMissError(f"{case.where}: case id {case.id!r} is used twice")
        by_id[case.id] = case
    for i, known in enumerate(data.get("known_failures") or []):
        where = f"{path}: known_failures[{i}]"
        if not isinstance(known, dict) or known.get("case") not in by_id or not known.get("reason"):
            raise NearMissError(f"{where}: expected {{case: ID of a case, judges: [...], reason: ...}}")
        judges = known.get("judges") or list(JUDGES)
        bad = [j for j in judges if j not in JUDGES]
        if bad:
            raise NearMissError(f"{where}: unknown judges {bad}; use {', '.join(JUDGES)}")
        for judge in judges:
            by_id[known["case"]].known[judge] = str(known["reason"])
    return cases


@functools.cache
def _templates(folder: Path) -> dict[str, Template]:
    return {t.id: t for t in load_templates(folder)}


def case_task(case: NearMiss, folder: Path | None = None) -> BenchTask:
    """The task instance a case plays (instance 0 of its template for its seed)."""
    templates = _templates(folder or WORLD_FOLDER)
    if case.template not in templates:
        raise NearMissError(f"{case.where}: no template {case.template!r} in the suite")
    return instantiate(templates[case.template], case.seed)


def _line(op: RefOp, choose: bool = True) -> str:
    if op.until is not None:
        return (SCROLL_UP if op.action == "page up" else SCROLL) + op.until
    return op.action + (f"{CHOOSE}{op.choose}" if op.choose and choose else "")


def _op(text: str, where: str) -> RefOp:
    for prefix, action in ((SCROLL, "page down"), (SCROLL_UP, "page up")):
        if text.startswith(prefix):
            return RefOp(action, until=text[len(prefix):])
    text, _, choose = text.partition(CHOOSE)
    try:
        return RefOp(parse_action(text).format(), int(choose) if choose.strip().isdigit() else None)
    except ActionParseError as exc:
        raise NearMissError(f"{where}: {text!r} is not an action: {exc}") from None


def _find(ops: list[RefOp], text: str, nth: int, where: str) -> int:
    want = _op(text, where)  # without "@choose N", any candidate choice matches
    hits = [i for i, op in enumerate(ops) if _line(op, want.choose is not None) == _line(want)]
    if len(hits) < nth:
        raise NearMissError(f"{where}: {_line(want)!r} (occurrence {nth}) is not in the reference "
                            f"{[_line(o) for o in ops]}; the template changed: edit the case")
    return hits[nth - 1]


def case_ops(case: NearMiss, task: BenchTask) -> list[RefOp]:
    """The instance's reference with the case's edits applied."""
    from droidpilot.bench.world.blind import reference_answer

    params = {**task.params, "answer": reference_answer(task)}
    for i, guard in enumerate(case.when):
        where = f"{case.where}.when[{i}]"
        value = fill_text(str(guard.get("value", "")), params, where)
        if "differs" in guard:
            other = fill_text(str(guard["differs"]), params, where)
            holds, says = value != other, f"differs from {other!r}"
        else:
            pattern = str(guard.get("matches", ""))
            try:
                holds, says = guarded(pattern).search(value) is not None, f"matches {pattern!r}"
            except (re.error, PatternTimeout) as exc:
                raise NearMissError(f"{where}.matches: {exc}") from None
        if not holds:
            raise NearMissError(f"{where}: {value!r} no longer {says} for {task.id}; the case does not test "
                                "what it says any more: pick another seed or parameter")
    ops = list(task.reference)
    for i, edit in enumerate(case.edits):
        where = f"{case.where}.edits[{i}]"

        def new(items: Any, where: str = where) -> list[RefOp]:
            return [_op(fill_text(str(t), params, where), where) for t in items]

        if "at" in edit:
            at = _find(ops, fill_text(edit["at"], params, where), int(edit.get("nth", 1)), where)
            ops[at:at + 1] = new(edit["with"])
        elif "after" in edit or "before" in edit:
            anchor = _find(ops, fill_text(edit.get("after", edit.get("before")), params, where), 1, where)
            at = anchor + 1 if "after" in edit else anchor
            ops[at:at] = new(edit["add"])
        elif "answer" in edit:
            last = [j for j, op in enumerate(ops) if op.action.startswith("answer (")]
            reply = new([f"answer ({edit['answer']})"])
            if last:
                ops[last[-1]:last[-1] + 1] = reply
            else:
                ops += reply
        elif "append" in edit:
            ops += new(edit["append"])
        else:
            ops = new(edit["only"])
    return ops


@dataclass
class Played:
    """A case replayed: the oracle's and the rule's verdicts (UI dumps), and what the run did."""

    case: NearMiss
    task: BenchTask
    folder: Path
    oracle: bool
    rule: bool
    finished: bool
    termination: str
    answer: str | None
    broken: list[str] = field(default_factory=list)  # operations the replay could not carry out

    def right(self, judge: str, verdict: bool | None = None) -> bool:
        """Whether ``judge``'s verdict (given, or this run's for oracle / rule) is the expected one."""
        value = getattr(self, judge) if verdict is None else verdict
        return bool(value) == (self.case.expect == "pass")

    def describe(self) -> str:
        """One line for an assertion message: the case, what it stands for, how the run ended."""
        return (f"{self.case.id} ({self.task.id}, expect {self.case.expect}: {self.case.why or 'right'}); "
                f"run ended {self.termination}, answer {self.answer!r}, operations not carried out "
                f"{self.broken or '-'}, trace {self.folder}")


CARRIED_OUT = ("ok", "completed", "unchanged")  # "unchanged": done, the screen did not change (a wait)


def _broken_steps(folder: Path) -> list[str]:
    """The steps whose action was not carried out (not grounded, not executed): the case is then broken."""
    path = folder / "steps.jsonl"
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("outcome") not in CARRIED_OUT:
            action = (record.get("action") or {}).get("text")
            out.append(f"{record.get('step')}: {action} -> {record.get('outcome')}")
    return out


def play(case: NearMiss, device: Any, folder: Path, *, ocr_engine: Any, options: Any) -> Played:
    """Replay ``case`` through the agent loop on ``device`` into ``folder``; oracle and rule verdicts."""
    from droidpilot.bench.execute import run_task
    from droidpilot.bench.metrics import SUCCESS_TERMINATION
    from droidpilot.bench.reference import ReferenceBrain

    task = case_task(case)
    ops = case_ops(case, task)
    row = run_task(task, device, ReferenceBrain(ops), folder, ocr_engine=ocr_engine, options=options)
    ended = str(row.get("termination"))
    return Played(case, task, folder, bool(row.get("su_oracle")), bool(row.get("su")),
                  ended == SUCCESS_TERMINATION, ended, row.get("answer"), _broken_steps(folder))


def judge_ocr(played: Played, options: Any) -> bool:
    """The rule's verdict from the screenshots alone (UI dumps withheld), on the same terms as Su."""
    from droidpilot.bench.execute import verify_trace

    return played.finished and verify_trace(played.task, played.folder, options, use_xml=False).ok
