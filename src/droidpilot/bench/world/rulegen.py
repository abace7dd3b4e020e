"""The MobiFlow rule of a task instance, generated from its checkpoints and answer.

Each checkpoint (a list of texts) becomes a milestone that must hold after the previous one: all its
texts on one screen, read from the UI dump when there is one and by OCR otherwise (``escalate``), so
screenshots alone judge it. A text that is a value (an amount, a time, a phone number) is read as a typed
value on the screen; a text the reference types in full (a name, a message, a query) is what the agent
entered, so the last checkpoint that shows it must show it whole (``exact``: "Paige Parkerson" or
"Sounds good and I love you" is not "Paige Parker" or "Sounds good"; an earlier checkpoint may show it
where it is read, before it is copied); the others are keywords whose numbers stand whole ("181" never
matches "1810"). A checkpoint may also list a typed value as such (``{type: duration, between: [...]}``:
a playlist's total length shown inside a range).

A retrieval task adds an ``answer`` milestone: the agent's reply states the true value, typed by the
template's ``answer_type`` (free text when it has none), so "$1810" fails for $181 and "(555) 392-7824"
passes for 555-392-7824. Its rule judges the answer, not the route, unless the instruction names the
route (an app as a place or tool: "in Contacts", "with the Calculator app", "Check Calendar"): then the answer
must follow the checkpoints; otherwise the answer is an OR-join of the first checkpoint (the screen
where the data is: an answer given without looking is a guess, however right) and the last one, so a
right answer worked out another way succeeds while the checkpoints stay on the best-scoring success path
(partial credit, CR, and dense milestone rewards keep them). An infeasible task's answer
must plainly declare the task impossible (``declares: infeasible``), after its checkpoints: the screens
are the evidence the agent looked.

Records asked for together are a set (``any_order``: their checkpoints are parallel milestones), and what
must not happen besides (``forbid``: a second delete, an undone change, money sent in an infeasible task)
becomes a forbidden node (``success.none_of``) watched after the change was made: the path's screens
alone cannot tell a run that did more, or undid it, from a right one.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import yaml

from droidpilot.verify.rule import Task
from droidpilot.verify.spec import load_rule_text

FALLBACK_ANSWER_TYPE = "text"
ROUTE_CUES = (r"(?i:\b(?:in|inside|with|using|use|via|from|check|open|on|according to|search)\s+"
              r"(?:the\s+|my\s+)?)")
ROUTE_AFTER = r"(?:\s+app\b|['’]s\b|\s+(?:shows|says|lists)\b)"
CJK_CUES = "(?:在|用|从|通过|打开)"
# a checkpoint text that is only a value: read as that typed value on the screen
VALUE_TEXTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("money", re.compile(r"[-−+]?\s*[$€£¥]\s*\d[\d,]*(?:\.\d+)?")),
    ("time", re.compile(r"\d{1,2}:\d{2}(?:\s*[AaPp]\.?[Mm]\.?)?")),
    ("phone", re.compile(r"\+?\(?\d[\d\s().\-]{5,}\d")),
)
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
MONEY_IN_TEXT = re.compile(r"(?<![\w.])[$€£¥]\s*\d[\d,]*(?:\.\d+)?(?![\d.,]*\d)")


def names_route(instruction: str, app_labels: Sequence[str]) -> bool:
    """Whether ``instruction`` tells the agent where to find the answer: it names one of the apps (their
    launcher labels) as a place or tool ("in Contacts", "Use Calculator", "Check Ride's past trips",
    "在微聊里"); a label in passing ("the phone number") is no route."""
    for label in app_labels:
        if not label:
            continue
        name = re.escape(label)
        if not label.isascii():
            if re.search(CJK_CUES + name, instruction):
                return True
            continue
        if re.search(ROUTE_CUES + name + r"(?![\w])", instruction) or re.search(
            r"(?<![\w])" + name + ROUTE_AFTER, instruction
        ):
            return True
    return False


def value_spec(text: str) -> dict[str, Any] | None:
    """The typed value a checkpoint text stands for when it is only a value, else None (a keyword)."""
    stripped = text.strip()
    for kind, pattern in VALUE_TEXTS:
        if pattern.fullmatch(stripped):
            if kind == "phone" and not 7 <= sum(ch.isdigit() for ch in stripped) <= 15:
                continue
            return {"type": kind, "equals": stripped}
    return None


def split_money(text: str) -> list[str | dict[str, Any]]:
    """A keyword with an amount in it ("Send $132 to Ava?") as its words and the amount as a typed money
    value, so "Send $132.00 to Ava?" shows it and "Send $1320 to Ava?" does not."""
    found = MONEY_IN_TEXT.search(text)
    if found is None or found.group(0).strip() == text.strip():
        return [text]
    words: list[str | dict[str, Any]] = [
        part.strip() for part in (text[:found.start()], text[found.end():]) if part.strip(" .?!:,")]
    return [*words, {"type": "money", "equals": found.group(0).strip()}]


Shown = str | dict[str, Any]  # a checkpoint item: a text, or a typed value the screen shows


def describe(item: Shown) -> str:
    """A checkpoint item as a milestone's name says it ("a duration between 46:00 and 48:00")."""
    if isinstance(item, str):
        return item
    for key, say in (("between", "between {} and {}"), ("in", "one of {}"), ("equals", "{}")):
        if key in item:
            value = item[key]
            words = say.format(*value) if key == "between" else say.format(value)
            return f"a {item['type']} {words}"
    return str(item)


def screen_params(texts: Sequence[Shown], typed: Collection[str] = ()) -> dict[str, Any]:
    """The parameters of one screen checker (xml or ocr) for a checkpoint's texts; ``typed``: the texts
    the reference types, which are shown whole (a typed number as that number, however written)."""
    entered = {t.strip() for t in typed}
    keywords: list[str] = []
    exact: list[str] = []
    values: list[dict[str, Any]] = []
    for text in texts:
        if isinstance(text, dict):  # a typed value listed as such
            values.append(dict(text))
            continue
        spec = value_spec(text)
        if spec is not None:
            values.append(spec)
        elif text.strip() in entered and NUMBER.fullmatch(text.strip()):
            values.append({"type": "number", "equals": text.strip()})
        elif text.strip() in entered:
            exact.append(text)
        else:
            for part in split_money(text):
                if isinstance(part, str):
                    keywords.append(part)
                else:
                    values.append(part)
    params: dict[str, Any] = {}
    if keywords:
        params["all"] = keywords
        params["whole_numbers"] = True
    if exact:
        params["exact"] = exact
    if values:
        params["value"] = values if len(values) > 1 else values[0]
    return params


def answer_params(kind: str, answer: str, answer_type: Any) -> dict[str, Any]:
    """The ``action_match`` parameters of the answer milestone. ``answer_type`` is a type name or a typed
    spec (``{type: set, of: name}``, the oracle's spec with ``equals`` already filled in), or None."""
    if kind == "infeasible":
        return {"type": "answer", "declares": "infeasible"}
    spec: dict[str, Any]
    if isinstance(answer_type, Mapping):  # e.g. {type: set, of: name}
        spec = {**answer_type, "equals": answer}
    else:
        spec = {"type": str(answer_type or FALLBACK_ANSWER_TYPE), "equals": answer}
    return {"type": "answer", "value": spec}


def _stages(n: int, any_order: Sequence[Sequence[int]]) -> list[list[int]]:
    """Checkpoint indices (0-based) in stages: a group of ``any_order`` is one stage, the others alone."""
    group_of = {i - 1: sorted(g) for g in any_order for i in g}
    stages: list[list[int]] = []
    for i in range(n):
        if i in group_of and stages and i - 1 in group_of and group_of[i - 1] == group_of[i]:
            stages[-1].append(i)
        else:
            stages.append([i])
    return stages


def forbidden_node(k: int, item: Mapping[str, Any], deps: list[str]) -> dict[str, Any] | None:
    """Forbidden node ``k`` (``forbid_k``): a tap on an element whose whole text is ``click`` (one of them,
    but not one of ``except``), or a screen that ``shows`` every text, met after ``deps`` (from the start
    when there are none); None when ``except`` leaves nothing to forbid."""
    if "click" in item:
        raw = item["click"]
        spared = {str(t) for t in (item["except"] if isinstance(item.get("except"), list)
                                   else [item.get("except")])}
        texts = [str(t) for t in (raw if isinstance(raw, list) else [raw]) if str(t) not in spared]
        if not texts:
            return None
        exact = texts if len(texts) > 1 else texts[0]
        condition: dict[str, Any] = {"type": "action_match", "params": {"type": "click", "exact": exact}}
        name = f"The agent taps {' or '.join(texts)}"
    else:
        texts = [str(t) for t in item["shows"]]
        params = screen_params(texts)
        condition = {"type": "escalate", "params": {"xml": params, "ocr": copy.deepcopy(params)}}
        name = "The screen shows " + ", ".join(texts)
    node = {"id": f"forbid_{k}", "name": f"Must not happen: {name}", "condition": condition, "score": 0}
    if deps:
        node["deps"] = deps
    return node


def rule_document(
    task_id: str,
    package: str,
    kind: str,
    description: str,
    checkpoints: list[list[Shown]],
    answer: str | None,
    *,
    answer_type: Any = None,
    app_labels: Sequence[str] = (),
    typed: Collection[str] = (),
    any_order: Sequence[Sequence[int]] = (),
    forbid: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The rule as a mapping in MobiFlow's format (see the module docstring for answer and route).
    Checkpoints in one ``any_order`` group (numbers from 1) are parallel milestones that the next one
    joins; each ``forbid`` item ({click|shows, after: N}) becomes a node of ``success.none_of``."""
    # a typed text is judged whole on the last checkpoint that shows it, where the entry is seen; an
    # earlier one may show it where it is read (an email's subject in the inbox, before it is copied)
    entered_at = {t.strip(): i for i, texts in enumerate(checkpoints) for t in texts
                  if isinstance(t, str) and t.strip() in {e.strip() for e in typed}}
    nodes: list[dict[str, Any]] = []
    stage_ids: list[list[str]] = []
    after_ids: dict[int, list[str]] = {0: []}  # checkpoint number -> the ids a watch after it waits for
    for stage in _stages(len(checkpoints), any_order):
        ids = []
        for i in stage:
            params = screen_params(checkpoints[i], [t for t, at in entered_at.items() if at == i])
            node: dict[str, Any] = {
                "id": f"screen_{i + 1}",
                "name": "The screen shows " + ", ".join(describe(t) for t in checkpoints[i]),
                "condition": {"type": "escalate", "params": {"xml": params, "ocr": copy.deepcopy(params)}},
            }
            if stage_ids:
                node["deps"] = list(stage_ids[-1])
            nodes.append(node)
            ids.append(node["id"])
        stage_ids.append(ids)
        after_ids.update({i + 1: ids for i in stage})
    last = stage_ids[-1] if stage_ids else []
    success: dict[str, Any] = {"all_of" if len(last) > 1 else "any_of": list(last)}
    if answer is not None:
        condition = {"type": "action_match", "params": answer_params(kind, answer, answer_type)}
        said = "declares the task infeasible" if kind == "infeasible" else f"answers {answer}"
        free = bool(last) and kind != "infeasible" and not names_route(description, app_labels)
        node = {"id": "answer", "name": f"The agent {said}", "condition": condition}
        if free and len(nodes) > 1:  # an OR-join: after the first checkpoint(s) or the last
            by_id = {n["id"]: n for n in nodes}
            for node_id in dict.fromkeys([*stage_ids[0], *last]):
                by_id[node_id]["next"] = ["answer"]
        elif last:
            node["deps"] = list(last)
        nodes.append(node)
        success = {"any_of": ["answer"]}
    made = (forbidden_node(k + 1, item, after_ids[int(item.get("after", len(checkpoints)))])
            for k, item in enumerate(forbid))
    forbidden = [node for node in made if node is not None]
    if forbidden:
        nodes.extend(forbidden)
        success["none_of"] = [n["id"] for n in forbidden]
    return {
        "task_id": task_id,
        "app_id": package,
        "task_type": kind,
        "description": description,
        "nodes": nodes,
        "success": success,
    }


def build_rule(document: dict[str, Any]) -> tuple[Task, str]:
    """(validated rule, its YAML text) for ``document``."""
    text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=120)
    return load_rule_text(text, source="<rule>"), text
