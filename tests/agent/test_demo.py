"""The agent demo runs the heuristic agent on SimPhone and its trace passes the demo rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.agent.demo import run_demo


@pytest.mark.slow
def test_demo_run_is_verified_and_agrees_with_simphone(tmp_path: Path) -> None:
    outcome = run_demo(tmp_path / "trace")
    assert outcome.run.termination == "completed"
    assert outcome.oracle_ok
    assert outcome.verdict.ok, outcome.verdict.reason
    assert [m.node for m in outcome.verdict.matched][-1] == "switched"
