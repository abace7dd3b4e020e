"""The checker registry: a base class, a decorator, tri-state results and lookup by name.

A checker answers one question about one frame: yes, no, or undecided (the service it needs is missing
or gave an answer that cannot be read). Undecided is never folded into no.

    @register_condition("my_check")
    class MyCheck(ConditionChecker):
        reads = "screen"
        params_spec = {"any": Param("str_list")}

        def check(self, frame, params, options):
            return CheckResult.of(...)

Checkers written for MobiFlow (returning a bool, or None for "could not tell") register the same way.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:
    from droidpilot.verify.frame import Frame
    from droidpilot.verify.options import VerifierOptions

Event = Literal["screen", "action"]


class Verdict(enum.Enum):
    """The answer of a check."""

    YES = "yes"
    NO = "no"
    UNDECIDED = "undecided"

    @classmethod
    def from_value(cls, value: object) -> Verdict:
        """Map a legacy answer: True -> yes, False -> no, None -> undecided."""
        if isinstance(value, Verdict):
            return value
        if value is None:
            return cls.UNDECIDED
        return cls.YES if value else cls.NO


@dataclass
class CheckResult:
    """A checker's answer with what it looked at, so a verdict can be explained.

    ``event`` says where on the timeline the answer is pinned: the screen shown before the frame's
    action, or the action itself. ``children`` are the sub-checks of a combinator, in the order run.
    """

    verdict: Verdict
    checker: str
    event: Event = "screen"
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    children: list[CheckResult] = field(default_factory=list)

    @property
    def yes(self) -> bool:
        return self.verdict is Verdict.YES

    @property
    def no(self) -> bool:
        return self.verdict is Verdict.NO

    @property
    def undecided(self) -> bool:
        return self.verdict is Verdict.UNDECIDED

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"checker": self.checker, "result": self.verdict.value, "event": self.event}
        if self.reason:
            out["reason"] = self.reason
        if self.details:
            out["details"] = self.details
        if self.children:
            out["children"] = [c.to_dict() for c in self.children]
        return out


ParamKind = Literal["str", "str_list", "str_or_list", "bool", "number", "int", "dict", "list", "any"]


@dataclass(frozen=True)
class Param:
    """The declared type of one checker parameter, used by rule validation."""

    kind: ParamKind
    required: bool = False
    help: str = ""


class ConditionChecker(abc.ABC):
    """Base class of every checker. Subclasses set ``name`` (via the decorator) and implement check().

    ``reads`` pins the answer on the timeline ("screen" for checks of the screenshot or UI XML,
    "action" for checks of the action or the agent's text). ``cost`` orders checks cheap to
    expensive. ``params_spec`` lets rule validation reject unknown or mistyped parameters; None means
    the checker accepts anything (as MobiFlow's checkers do).
    """

    name: ClassVar[str] = ""
    reads: ClassVar[Event] = "screen"
    cost: ClassVar[int] = 10
    params_spec: ClassVar[Mapping[str, Param] | None] = None

    @abc.abstractmethod
    def check(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None = None) -> Any:
        """Answer for ``frame``; return a CheckResult, or a bool / None (legacy checkers)."""

    def events(self, params: dict[str, Any]) -> frozenset[Event]:
        """The timeline events this condition can be pinned to (a combinator: those of its parts)."""
        return frozenset((self.reads,))

    def evaluate(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None,
                 event: Event) -> CheckResult:
        """Does the condition hold at ``event`` of ``frame``? What the search engine calls.

        A plain checker holds only at the event it reads; combinators override this to consult just the
        sub-checkers that can pin to ``event`` (see ``checkers.combinators``).
        """
        if event != self.reads:
            return CheckResult(Verdict.NO, self.name, event,
                               reason=f"reads the {self.reads}, not the {event}")
        return self.run(frame, params, options)

    def validate(self, params: dict[str, Any]) -> list[str]:
        """Extra, checker-specific problems with ``params`` (beyond ``params_spec``); [] when fine."""
        return []

    def run(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None) -> CheckResult:
        """Call check() and normalise its answer into a CheckResult; an exception is undecided."""
        try:
            answer = self.check(frame, params, options)
        except Exception as exc:  # a checker's crash must not sink the verdict; it is surfaced instead
            return CheckResult(Verdict.UNDECIDED, self.name, self.reads,
                               reason=f"checker raised {type(exc).__name__}: {exc}")
        if isinstance(answer, CheckResult):
            return answer
        return CheckResult(Verdict.from_value(answer), self.name, self.reads)


_REGISTRY: dict[str, ConditionChecker] = {}

# Sub-checker keys of `escalate` / `juxtaposition` and the full checker names they stand for.
SUBCHECKER_ALIASES: dict[str, str] = {
    "text": "text_match",
    "regex": "regex_match",
    "ui": "ui_flag",
    "action": "action_match",
    "xml": "xml_text_match",
    "dynamic_match": "dynamic_match",
    "icons": "icons_match",
    "ocr": "ocr_match",
    "llm": "llm",
}

# Cheap to expensive: the default order in which `escalate` tries its sub-checkers.
DEFAULT_ESCALATION_ORDER: tuple[str, ...] = (
    "text", "regex", "ui", "action", "xml", "dynamic_match", "icons", "ocr", "llm",
)


def register_condition(name: str):
    """Class decorator: register an instance of the class under ``name`` (replacing any earlier one)."""

    def wrap(cls: type) -> type:
        instance = cls()
        if isinstance(instance, ConditionChecker):
            type(instance).name = name  # type: ignore[misc]
        else:  # a duck-typed checker with only check(); wrap it so run() exists
            instance = _Adapter(instance, name)
        _REGISTRY[name] = instance
        return cls

    return wrap


class _Adapter(ConditionChecker):
    def __init__(self, inner: Any, name: str) -> None:
        self._inner = inner
        self._name = name

    def check(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None = None) -> Any:
        return self._inner.check(frame, params, options)

    def run(self, frame: Frame, params: dict[str, Any], options: VerifierOptions | None) -> CheckResult:
        result = super().run(frame, params, options)
        result.checker = self._name
        return result


def canonical_name(name: str) -> str:
    """The registry name for a checker type or sub-checker key (``ocr`` -> ``ocr_match``)."""
    return SUBCHECKER_ALIASES.get(name, name)


def get_checker(name: str) -> ConditionChecker:
    """The checker registered under ``name`` or its sub-checker alias; KeyError when unknown."""
    _load_builtins()
    key = canonical_name(name)
    if key not in _REGISTRY:
        raise KeyError(f"unknown checker type {name!r}")
    return _REGISTRY[key]


def registered_names() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def _load_builtins() -> None:
    # Importing the package registers the built-in checkers (once).
    import droidpilot.verify.checkers  # noqa: F401
