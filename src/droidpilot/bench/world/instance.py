"""Task instances: a template, a seed and an instance number give one concrete, reproducible task.

Parameters are drawn in order (later ones may pick from earlier lists), every placeholder is filled,
``open App`` of an app that is not on the launcher's first screen becomes the launcher search a person
would use, distractors are drawn, and the oracle and MobiFlow rule are completed for the kind.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.params import ParamError, draw
from droidpilot.bench.task import BenchTask, RefOp, SuiteError
from droidpilot.bench.world.derived import DERIVED, derive
from droidpilot.bench.world.distractors import add_distractors
from droidpilot.bench.world.effects_decl import answer_spec, drop_positional, task_effects
from droidpilot.bench.world.fill import fill
from droidpilot.bench.world.rulegen import build_rule, rule_document
from droidpilot.bench.world.template import Template
from droidpilot.errors import InputError
from droidpilot.typed import TypedSpecError, check_spec

TIERS = ("easy", "medium", "hard", "long")
LONG_STEPS, LONG_APPS = 20, 3  # issue 27's long tier: 20+ reference operations across 3+ apps
INFEASIBLE_WORD = "infeasible"


def tier_of(steps: int, apps: int = 1) -> str:
    """easy <= 4 reference operations, medium 5-9, hard >= 10; long: 20+ operations over 3+ apps, so a
    long task is one that crosses apps carrying values, not one long form."""
    if steps >= LONG_STEPS and apps >= LONG_APPS:
        return "long"
    return "easy" if steps <= 4 else ("medium" if steps <= 9 else "hard")


@functools.cache
def _apps() -> tuple[dict[str, tuple[str, str]], frozenset[str]]:
    """(app name -> (label, package), labels shown on the launcher's first screen)."""
    from droidpilot.device.sim.phone import SimDevice

    phone = SimDevice()
    info = {a.name: (a.label, a.package) for a in phone.apps()}
    return info, frozenset(text for text, _ in phone.labels())


def _open_steps(ops: list[str]) -> list[str]:
    """``open App (X)`` for an app below the launcher's first screen becomes: search apps, type, open."""
    _, visible = _apps()
    out: list[str] = []
    for op in ops:
        label = op[len("open App (") : -1] if op.startswith("open App (") and op.endswith(")") else None
        if label is not None and label not in visible:
            out += ["click text (Search apps)", f"type ({label[:-1] if len(label) > 3 else label})"]
        out.append(op)
    return out


def _looked(ops: list[str], apps: dict[str, tuple[str, str]]) -> dict[str, Any] | None:
    """The evidence a reply needs: the agent opened one of the apps the reference opens (an answer or an
    infeasibility claim given without looking is a guess, however right), or None when it opens none."""
    by_label = {label: name for name, (label, _) in apps.items()}
    names = [by_label[op[len("open App (") : -1]] for op in ops
             if op.startswith("open App (") and op.endswith(")") and op[len("open App (") : -1] in by_label]
    leaves = [{"path": "system.recents", "contains": name} for name in dict.fromkeys(names)]
    if not leaves:
        return None
    return leaves[0] if len(leaves) == 1 else {"any": leaves}


def draw_params(template: Template, rng: random.Random) -> dict[str, Any]:
    """Every parameter of ``template``, in order."""
    ctx: dict[str, Any] = {}
    for name, spec in template.params.items():
        where = f"{template.where}: template {template.id!r} params.{name}"
        if isinstance(spec, dict) and spec.get("type") in DERIVED:
            ctx[name] = derive(spec, rng, ctx, where)
        else:
            ctx[name] = draw(spec, rng, where)
    return ctx


SCROLL = "@scroll "
CHOOSE = " @choose "


def _as_text(op: Any, where: str) -> str:
    """A reference item as one line: an action, or ``@scroll TEXT`` for ``{scroll_to: TEXT}``."""
    if isinstance(op, dict) and set(op) == {"scroll_to"}:
        return SCROLL + str(op["scroll_to"])
    if isinstance(op, dict) and set(op) == {"action", "choose"}:
        return f"{op['action']}{CHOOSE}{int(op['choose'])}"
    if isinstance(op, str):
        return op
    raise SuiteError(f"{where}: a reference item is an action, {{scroll_to: TEXT}}, {{action, choose}} or"
                     f" {{repeat: N, action: A}}, got {op!r}")


MAX_REPEAT = 50


def _expand(ops: list[Any], where: str) -> list[Any]:
    """``{repeat: N, action: A}`` items as N copies of ``A`` (a button clicked a drawn number of times);
    with ``over: [v0, v1, ...]`` the k-th copy has ``@`` in ``A`` replaced by ``v(k mod len)``."""
    out: list[Any] = []
    for i, op in enumerate(ops):
        if not (isinstance(op, dict) and set(op) - {"over"} == {"repeat", "action"}):
            out.append(op)
            continue
        over = op.get("over") or [""]
        if not isinstance(over, list):
            raise SuiteError(f"{where}: reference[{i}] over: expected a list of values, got {over!r}")
        try:
            times = int(str(op["repeat"]))
        except ValueError:
            times = -1
        if not 0 <= times <= MAX_REPEAT:
            raise SuiteError(f"{where}: reference[{i}] repeat: {op['repeat']!r} is not a whole number of"
                             f" times from 0 to {MAX_REPEAT}; give an int parameter, e.g. repeat: \"{{n}}\"")
        out.extend(str(op["action"]).replace("@", str(over[k % len(over)])) for k in range(times))
    return out


def _reference(ops: list[str], where: str) -> list[RefOp]:
    out = []
    for i, op in enumerate(ops):
        if op.startswith(SCROLL):
            out.append(RefOp("page down", until=op[len(SCROLL) :]))
            continue
        op, _, choose = op.partition(CHOOSE)
        try:
            action = parse_action(op)
        except ActionParseError as exc:
            raise SuiteError(f"{where}: reference[{i}] {op!r} is not an action: {exc}") from None
        out.append(RefOp(action.format(), int(choose) if choose else None))
    return out


def _typed_texts(ops: list[str]) -> list[str]:
    """The texts the reference types (``type (X)``): values the agent enters, judged whole by the rule."""
    out = []
    for op in ops:
        if op.startswith("type ("):
            try:
                action = parse_action(op.partition(CHOOSE)[0])
            except ActionParseError:
                continue  # _reference reports it with the template's name
            if action.name == "type" and action.text:
                out.append(action.text)
    return out


def instantiate(template: Template, seed: int, k: int = 0, suite: str = "world") -> BenchTask:
    """Instance ``k`` of ``template`` for ``seed``; SuiteError names the template when it cannot be built."""
    where = f"{template.where}: template {template.id!r}"
    apps, _ = _apps()
    for name in template.apps:
        if name not in apps:
            raise SuiteError(f"{where}: apps: no SimPhone app {name!r} (known: {', '.join(sorted(apps))})")
    rng = random.Random(f"{template.id}:{seed}:{k}")
    try:
        ctx = draw_params(template, rng)
    except ParamError as exc:
        raise SuiteError(str(exc)) from None
    filled = _expand(fill(template.reference, ctx, f"{where} reference"), where)
    ops = [_as_text(op, where) for op in filled]
    ops = _open_steps(ops)
    base_steps = len(ops) + sum(1 for op in ops if op.startswith(SCROLL))  # a scroll is a page or two
    setup = fill(template.setup, ctx, f"{where} setup")
    label, package = apps[template.apps[0]]
    drawn: list[str] = []
    if template.distractors:
        ops, extra, drawn = add_distractors(
            random.Random(f"distract:{template.id}:{seed}:{k}"),
            ops,
            template.apps[0],
            label,
            keyboard_rng=random.Random(f"keyboard:{template.id}:{seed}:{k}"),
        )
        setup.update(extra)
    oracle = fill(template.oracle, ctx, f"{where} oracle")
    effects = task_effects(template, ctx, oracle, where)
    oracle = drop_positional(oracle, effects)
    answer = None
    said: dict[str, Any] | None = None
    if template.kind == "infeasible":
        answer = INFEASIBLE_WORD
        said = {"path": "agent.answer", "declares_infeasible": True}
    elif template.answer is not None:
        answer = str(fill(template.answer, ctx, f"{where} answer"))
        # As the agent's answer reads once parsed (full-width punctuation folded, trailing '!' dropped).
        answer = parse_action(f"answer ({answer})").text or answer
        said = {"path": "agent.answer", "value": answer_spec(template, ctx, answer, where)}
    typed_answer = (said or {}).get("value")  # the oracle's own typed spec, which the rule reads too
    if said is not None:
        looked = _looked(ops, apps)
        said = {"all": [looked, said]} if looked else said
        oracle = {"all": [oracle, said]} if oracle else said
    try:
        oracle_lang.validate(oracle, f"{where} oracle")
    except oracle_lang.OracleError as exc:
        raise SuiteError(str(exc)) from None
    instruction = str(fill(template.instruction, ctx, f"{where} instruction")).strip()
    checkpoints = [[_shown(t, f"{where} checkpoints[{i}]") if isinstance(t, dict) else str(t) for t in cp]
                   for i, cp in enumerate(fill(template.checkpoints, ctx, f"{where} checkpoints"))]
    task_id = f"{template.id}-{seed}-{k}"
    try:
        rule, rule_text = build_rule(
            rule_document(task_id, package, template.kind, instruction, checkpoints, answer,
                          answer_type=typed_answer,
                          app_labels=[label for label, _ in apps.values()], typed=_typed_texts(ops),
                          any_order=template.any_order,
                          forbid=fill(template.forbid, ctx, f"{where} forbid"))
        )
    except InputError as exc:
        raise SuiteError(f"{where}: the generated rule is invalid: {exc}") from None
    tier = tier_of(base_steps, len(set(template.apps)))
    task = BenchTask(
        id=task_id,
        suite=suite,
        path=template.path,
        scenario=template.kind,
        level=TIERS.index(tier) + 1,
        apps=list(template.apps),
        instruction=instruction,
        reference=_reference(ops, where),
        oracle=oracle,
        rule=rule,
        rule_text=rule_text,
        seed=seed,
        lang=template.lang,
        notes=", ".join(drawn),
    )
    task.setup = setup
    task.effects = effects
    task.template, task.kind, task.tier, task.params = template.id, template.kind, tier, ctx
    task.answer_type = fill(template.answer_type, ctx, f"{where} answer_type")  # {type: ...}; {} if none
    task.distractors = drawn
    return task


def _shown(item: dict[str, Any], where: str) -> dict[str, Any]:
    """A checkpoint's typed value once filled, checked as a typed spec (SuiteError naming it)."""
    try:
        return check_spec(item, where)
    except TypedSpecError as exc:
        raise SuiteError(str(exc)) from None
