"""Template keys that shape only the generated rule: ``any_order`` and ``forbid`` (checked on load).

``any_order: [[2, 3]]`` — checkpoints 2 and 3 (numbered from 1, consecutive) may be shown in either
order: several records asked for in one instruction are a set, so their screens become parallel
milestones joined before the next one. ``forbid`` — what must not happen, each ``{click: TEXT}`` (a tap
on the element whose whole text is TEXT; a list: on any of them, ``except`` the ones the task asks for)
or ``{shows: [TEXTS]}`` (a screen showing all of them), watched ``after`` checkpoint N (default: the
last; 0: from the start): a second alarm deleted after the asked one, a favourite removed again, another
switch turned on the way, money sent while trying an infeasible task.
"""

from __future__ import annotations

from typing import Any

FORBID_KINDS = ("click", "shows")


class ShapeProblem(ValueError):
    """A malformed ``any_order`` or ``forbid``: ``key`` and the message say what, ``fix`` how."""

    def __init__(self, key: str, message: str, fix: str) -> None:
        super().__init__(message)
        self.key, self.fix = key, fix


def check_any_order(raw: Any, n_checkpoints: int) -> list[list[int]]:
    """``any_order`` as lists of checkpoint numbers; ShapeProblem when a group is not two or more
    consecutive checkpoint numbers, or groups overlap."""
    if raw is None:
        return []
    fix = "e.g. any_order: [[1, 2]] (checkpoints 1 and 2 in either order)"
    if not isinstance(raw, list):
        raise ShapeProblem("any_order", "expected a list of groups of checkpoint numbers", fix)
    seen: set[int] = set()
    groups = []
    for i, group in enumerate(raw):
        ok = (isinstance(group, list) and len(group) >= 2
              and all(isinstance(n, int) and not isinstance(n, bool) for n in group))
        if not ok:
            raise ShapeProblem(f"any_order[{i}]", f"{group!r} is not a list of two or more numbers", fix)
        if sorted(group) != list(range(min(group), max(group) + 1)):
            raise ShapeProblem(f"any_order[{i}]", f"{group} are not consecutive checkpoints", fix)
        if min(group) < 1 or max(group) > n_checkpoints:
            raise ShapeProblem(f"any_order[{i}]", f"{group} goes beyond checkpoints 1..{n_checkpoints}", fix)
        if seen & set(group):
            raise ShapeProblem(f"any_order[{i}]", f"{group} overlaps another group", "merge the two groups")
        seen |= set(group)
        groups.append(sorted(group))
    return groups


def check_forbid(raw: Any, n_checkpoints: int) -> list[dict[str, Any]]:
    """``forbid`` as a list of ``{click|shows, after}``; ShapeProblem naming the item otherwise."""
    if raw is None:
        return []
    fix = 'e.g. forbid: [{click: "Delete alarm"}, {shows: ["Money sent"], after: 0}]'
    if not isinstance(raw, list):
        raise ShapeProblem("forbid", "expected a list of {click: TEXT} or {shows: [TEXTS]}", fix)
    out = []
    for i, item in enumerate(raw):
        key = f"forbid[{i}]"
        kinds = [k for k in FORBID_KINDS if isinstance(item, dict) and k in item]
        if (not isinstance(item, dict) or len(kinds) != 1 or set(item) - {*FORBID_KINDS, "after", "except"}
                or ("except" in item and kinds[0] != "click")):
            raise ShapeProblem(key, f"{item!r} is not one of {{click: TEXT or [TEXTS], except: ...}}, "
                                    "{shows: [TEXTS]} (with an optional after: N)", fix)
        value = item[kinds[0]]
        if kinds[0] == "click":
            value = _texts(value, key, "click: needs the whole text of the element (or a list of them)", fix)
            if "except" in item:
                _texts(item["except"], key, "except: needs the text(s) the task itself taps", fix)
        if kinds[0] == "shows" and (not isinstance(value, list) or not value
                                    or not all(isinstance(t, (str, int, float)) and str(t).strip()
                                               for t in value)):
            raise ShapeProblem(key, "shows: needs a non-empty list of texts", fix)
        after = item.get("after", n_checkpoints)
        if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= n_checkpoints:
            raise ShapeProblem(key, f"after: {after!r} is not a checkpoint number 0..{n_checkpoints}",
                               "0 watches from the start, N after checkpoint N")
        spared = {"except": item["except"]} if "except" in item else {}
        out.append({kinds[0]: value, "after": after, **spared})
    return out


def _texts(value: Any, key: str, message: str, fix: str) -> list[str] | str:
    """A text or a non-empty list of texts, each non-blank (as written); ShapeProblem otherwise."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(t, (str, int, float)) and str(t).strip() for t in items):
        raise ShapeProblem(key, message, fix)
    return [str(t) for t in items] if isinstance(value, list) else str(value)


__all__ = ["FORBID_KINDS", "ShapeProblem", "check_any_order", "check_forbid"]
