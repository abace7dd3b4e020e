"""Terminal escape sequences and control characters never reach the terminal from untrusted text."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from droidpilot.textsafe import printable
from droidpilot.verify.engine import verify
from droidpilot.verify.explain import render
from droidpilot.verify.rule import Condition, Node, Task

HOSTILE = "\x1b]0;TITLE\x07\x1b[2J\x1b[31mred\x1b[0m\rback\x08\x9b2Jend\x7f"


@pytest.mark.parametrize(("raw", "shown"), [
    ("a\x1b]0;TITLE\x07b", "ab"),            # sets the window title
    ("x\x1b[2Jy", "xy"),                      # clears the screen
    ("\x1b[31mred\x1b[0m", "red"),            # colours
    ("over\rwrite", "overwrite"),             # a carriage return hides what came before
    ("\x9b2Jc1", "c1"),                       # 8-bit CSI
    ("esc at end\x1b", "esc at end"),
    ("tab\tand\nnewline kept", "tab\tand\nnewline kept"),
    ("中文 é ✓", "中文 é ✓"),
])
def test_printable_removes_sequences_and_controls(raw: str, shown: str) -> None:
    assert printable(raw) == shown


def test_printable_can_fold_newlines() -> None:
    assert printable("a\nb", newlines=False) == "a b"


def test_the_verdict_explanation_prints_no_control_characters() -> None:
    task = Task(task_id=f"t{HOSTILE}", nodes=[
        Node(id="a", name=f"Home{HOSTILE}", condition=Condition(type="text_match", params={"any": ["zzz"]}))])
    result = verify(task, [{"text": f"screen {HOSTILE}"}])
    out = io.StringIO()
    render(result, task, Console(file=out, width=200, color_system=None), verbose=True)
    text = out.getvalue()
    assert "Home" in text and "red" in text
    assert not any(ch in text for ch in "\x1b\x07\r\x08\x9b\x7f")
