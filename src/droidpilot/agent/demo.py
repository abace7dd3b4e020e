"""The agent demo: the offline heuristic agent on SimPhone for a sample instruction, then its trace
verified against the demo's rule (``demo_rule.yaml``), so one call shows the whole pipeline."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from droidpilot.agent.loop import Agent, Limits, RunResult

DEMO_INSTRUCTION = "Turn on the airplane mode."


@dataclass
class DemoOutcome:
    """The run, the verifier's verdict on its trace, and SimPhone's own answer (the oracle)."""

    run: RunResult
    verdict: Any
    oracle_ok: bool
    trace_dir: Path
    rule_path: Path


def rule_path() -> Path:
    """Where the demo's rule file is."""
    return Path(str(resources.files("droidpilot.agent").joinpath("demo_rule.yaml")))


def run_demo(out_dir: str | Path, on_step: Any = None, max_steps: int = 10) -> DemoOutcome:
    """Run the heuristic agent on a fresh SimPhone into ``out_dir`` and verify the trace."""
    from droidpilot.agent.brains.heuristic import HeuristicBrain
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine
    from droidpilot.verify.engine import verify
    from droidpilot.verify.options import VerifierOptions
    from droidpilot.verify.spec import load_rule
    from droidpilot.verify.trace import load_trace

    sim = SimDevice()
    engine = cached(make_ocr_engine("rapidocr"))
    result = Agent(sim, HeuristicBrain(), ocr_engine=engine, out_dir=out_dir, on_step=on_step,
                   limits=Limits(max_steps=max_steps)).run(DEMO_INSTRUCTION)
    verdict = verify(load_rule(rule_path()), load_trace(out_dir), VerifierOptions(ocr_engine=engine))
    oracle = bool(sim.state().get("settings", {}).get("airplane_mode"))
    return DemoOutcome(result, verdict, oracle, Path(out_dir), rule_path())
