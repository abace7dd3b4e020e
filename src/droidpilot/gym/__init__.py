"""SimPhone as a learning environment: Gymnasium environments over the world suite and Mobile-Eval.

    import gymnasium, droidpilot.gym
    env = gymnasium.make("droidpilot/World-v0", templates="contacts-*", action="structured",
                         reward="milestones")
    obs, info = env.reset(seed=7)

Needs the optional ``gym`` extra (``pip install droidpilot[gym]``); nothing else in droidpilot imports it.
``RayVectorEnv`` (environments in Ray actors over a cluster's nodes) needs the ``ray`` extra as well.
"""

from __future__ import annotations

import gymnasium

from droidpilot.gym.action_spaces import STRUCTURED_TYPES, ActionError
from droidpilot.gym.env import PhoneEnv
from droidpilot.gym.ray_vector import RayVectorEnv
from droidpilot.gym.tasks import SuiteTasks, WorldTasks

ENV_IDS = ("droidpilot/World-v0", "droidpilot/MobileEval-v0")


def register_envs() -> None:
    """Register the environments with Gymnasium (done on import; safe to repeat)."""
    registry = gymnasium.envs.registration.registry
    if "droidpilot/World-v0" not in registry:
        gymnasium.register("droidpilot/World-v0", entry_point="droidpilot.gym.factories:world_env")
    if "droidpilot/MobileEval-v0" not in registry:
        gymnasium.register("droidpilot/MobileEval-v0", entry_point="droidpilot.gym.factories:mobile_eval_env")


register_envs()

__all__ = ["ENV_IDS", "STRUCTURED_TYPES", "ActionError", "PhoneEnv", "RayVectorEnv", "SuiteTasks",
           "WorldTasks",
           "register_envs"]
