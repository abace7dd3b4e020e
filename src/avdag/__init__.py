"""MobiFlow's ``avdag`` import paths, as a thin facade over ``droidpilot.verify``.

Scripts written for MobiFlow or seed 003 run unchanged::

    from avdag.loader import load_task
    from avdag.types import VerifierOptions
    from avdag.verifier import verify
    result = verify(frames, load_task("rule.yaml"), VerifierOptions(escalation_order=["text", "llm"]))
    print(result.ok, [(m.node_id, m.frame_index) for m in result.matched])
"""

from __future__ import annotations

from droidpilot.verify.options import VerifierOptions

__all__ = ["VerifierOptions"]
