"""The studio's agent panel takes the loop (v1, v2, e) like `droidpilot run --loop`; a bad one is refused
naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.agent.loop import Agent
from droidpilot.agent.loops.e import EAgent
from droidpilot.agent.loops.v2 import V2Agent
from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.agent_run import AgentRun, AgentSettings
from droidpilot.studio.errors import StudioError


@pytest.mark.parametrize(("loop", "kind"), [(None, Agent), ("v1", Agent), ("v2", V2Agent), ("e", EAgent)])
def test_the_panel_runs_the_loop_asked_for(loop: str | None, kind: type, tmp_path: Path) -> None:
    body = {"instruction": "Go home", **({"loop": loop} if loop else {})}
    settings = AgentSettings.from_request(body)
    run = AgentRun(SimDevice(), settings, tmp_path / "t", ocr_engine=None, settle_s=0.0, emit=lambda e: None)
    assert type(run.agent) is kind and run.describe()["loop"] == (loop or "v1")


@pytest.mark.parametrize("loop", ["v3", "V2", 2, ""])
def test_a_loop_that_does_not_exist_is_refused(loop: object) -> None:
    with pytest.raises(StudioError, match="field 'loop' must be one of v1, v2, e"):
        AgentSettings.from_request({"instruction": "Go home", "loop": loop})
