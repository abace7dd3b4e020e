"""The ``icons_match`` checker (MobiFlow's ``icons``): are these icon templates on the screenshot?

Params: ``any`` / ``all`` (icon names or lists of them; every given constraint must hold) and
``threshold`` (correlation, default ``options.icons_threshold``, 0.8). Names resolve to files next to
the rule, in ``icons/`` beside it, in the app's sub-folder, and in ``options.icons_dirs``. A name that
resolves to no file is an InputError naming the places searched (a rule problem, never a silent no); a
frame without a screenshot is undecided. The decoded screenshot and every result are kept on the frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from droidpilot.errors import DroidpilotError, InputError
from droidpilot.verify.checkers.base import CheckResult, ConditionChecker, Param, Verdict, register_condition

# perception.icons (OpenCV, the glyph library) is imported by the functions that match icons, so a rule
# without icons never pays for it: `droidpilot verify` starts that much sooner.
if TYPE_CHECKING:
    from droidpilot.perception.icons.templates import ScreenPyramid, TemplateMatch
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions
    from droidpilot.verify.rule import Task

FRAME_PYRAMID_KEY = "_icons_pyramid"  # the decoded screenshot (grayscale, with reduced copies)
FRAME_MATCHES_KEY = "_icons_matches"


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _resolve_all(params: dict[str, Any], options: VerifierOptions | None) -> dict[str, Path]:
    from droidpilot.perception.icons.resolve import resolve_icon

    rule_dir = getattr(options, "rule_dir", None)
    icons_dirs = [Path(d) for d in (getattr(options, "icons_dirs", None) or [])]
    app_id = getattr(options, "app_id", "") or ""
    names = _names(params.get("any")) + _names(params.get("all"))
    return {n: resolve_icon(n, Path(rule_dir) if rule_dir else None, icons_dirs, app_id)
            for n in dict.fromkeys(names)}


def preflight_icons(task: Task, options: VerifierOptions | None) -> None:
    """Resolve and decode every icon template a rule names, before any frame is judged.

    Raises one InputError listing, per node, the icons that resolve to no file (with the places
    searched) or whose file cannot be used; a combinator's ``icons`` sub-checker counts too.
    """
    from droidpilot.verify.checkers.base import canonical_name
    from droidpilot.verify.checkers.combinators import split_params

    problems: list[str] = []
    for node in task.nodes:
        cond = node.condition
        if cond is None:
            continue
        kind = canonical_name(cond.type)
        groups = [cond.params] if kind == "icons_match" else []
        if kind in ("escalate", "juxtaposition"):
            groups = [s.params for s in split_params(cond.params, kind).subs if s.name == "icons_match"]
        for params in groups:
            from droidpilot.perception.icons.templates import load_template

            for name in dict.fromkeys(_names(params.get("any")) + _names(params.get("all"))):
                try:
                    load_template(_resolve_all({"any": [name]}, options)[name])
                except InputError as exc:
                    problems.append(f"node {node.id!r}: {exc}")
    if problems:
        where = str(task.source) if getattr(task, "source", None) else f"rule {task.task_id or '(unnamed)'}"
        raise InputError(f"{where}: " + "\n".join(problems))


def _pyramid(frame: Frame) -> ScreenPyramid:
    """The frame's screenshot decoded once, as the grayscale pyramid matching needs (kept on the frame;
    only grayscale is kept, about 3.5 MB for 1080x2400, so long traces stay small)."""
    from droidpilot.perception.icons.imageio import decode_gray
    from droidpilot.perception.icons.templates import ScreenPyramid

    pyr = frame.extra.get(FRAME_PYRAMID_KEY)
    if pyr is None:
        pyr = ScreenPyramid(decode_gray(frame.image_bytes(),
                                        f"frame {frame.index} screenshot {frame.image_path or ''}"))
        frame.extra[FRAME_PYRAMID_KEY] = pyr
    return pyr


@register_condition("icons_match")
class IconsMatch(ConditionChecker):
    """Template matching of icon files on the screenshot; any / all of the named icons."""

    reads = "screen"
    cost = 40  # after UI-XML checks, before OCR
    params_spec: ClassVar[Mapping[str, Param]] = {
        "any": Param("str_or_list", help="icon names; at least one must be on screen"),
        "all": Param("str_or_list", help="icon names; every one must be on screen"),
        "threshold": Param("number", help="TM_CCOEFF_NORMED score a match needs (default 0.8)"),
    }

    def validate(self, params: dict[str, Any]) -> list[str]:
        """Problems with the parameters themselves (names and threshold); files are checked in check()."""
        problems = []
        names = _names(params.get("any")) + _names(params.get("all"))
        if not names:
            problems.append("icons needs 'any' or 'all' with at least one icon name")
        bad = [n for n in names if not isinstance(n, str) or not n.strip()]
        if bad:
            problems.append(f"icon names must be non-empty strings, not {bad!r}")
        threshold = params.get("threshold")
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float))
                                      or not 0.0 < float(threshold) <= 1.0):
            problems.append(f"icons threshold must be a number in (0, 1], not {threshold!r}")
        return problems

    def run(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None) -> CheckResult:
        """As the base, except that a rule problem (an icon that resolves to no file) is raised."""
        try:
            answer = self.check(frame, params, options)
        except InputError:
            raise
        except Exception as exc:  # a crash must not sink the verdict; surfaced as undecided
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads,
                               reason=f"checker raised {type(exc).__name__}: {exc}")
        return answer

    def check(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None = None
              ) -> CheckResult:
        """Match every named icon on the frame's screenshot; yes when the any / all constraints hold."""
        from droidpilot.perception.icons.templates import DEFAULT_THRESHOLD, load_template, search_template

        problems = self.validate(params)
        if problems:
            raise InputError("; ".join(problems))
        any_names, all_names = _names(params.get("any")), _names(params.get("all"))
        threshold = float(params.get("threshold") or getattr(options, "icons_threshold", None)
                          or DEFAULT_THRESHOLD)
        files = _resolve_all(params, options)
        for path in files.values():
            load_template(path)  # a broken template file is a rule problem: raised, before the screen
        if not frame.has_image():
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads,
                               reason=f"frame {frame.index} has no screenshot to match icons on")
        try:
            pyr = _pyramid(frame)
        except DroidpilotError as exc:
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads, reason=str(exc))
        cache: dict[tuple[str, float], tuple[list[TemplateMatch], TemplateMatch | None]]
        cache = frame.extra.setdefault(FRAME_MATCHES_KEY, {})
        matched: dict[str, Any] = {}
        missing: dict[str, Any] = {}
        for name, path in files.items():
            key = (str(path), threshold)
            if key not in cache:
                cache[key] = search_template(pyr, path, threshold)
            hits, best = cache[key]
            if hits:
                matched[name] = {"file": str(path), **hits[0].to_dict(), "count": len(hits)}
            else:
                missing[name] = {"file": str(path), "best": best.to_dict() if best else None}
        ok_all = all(n in matched for n in all_names)
        ok_any = not any_names or any(n in matched for n in any_names)
        verdict = Verdict.YES if ok_all and ok_any else Verdict.NO
        if verdict is Verdict.YES:
            reason = f"found {', '.join(matched)}"
        else:
            lacking = [n for n in all_names if n not in matched]
            reason = (f"not on screen: {', '.join(lacking)}" if lacking
                      else f"none of {', '.join(any_names)} on screen")
        details = {"threshold": threshold, "matched": matched, "missing": missing}
        return CheckResult(verdict, self.name, self.reads, reason=reason, details=details)
