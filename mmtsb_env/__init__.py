"""mmtsb_env: MM-ToolSandBox as a Gymnasium / PettingZoo reinforcement-learning environment.

>>> import mmtsb_env
>>> env = mmtsb_env.make_env(suite="demo", mode="tool")
>>> obs, info = env.reset(seed=0)
>>> sorted(obs)
['image_count', 'images', 'text']
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import Any

import gymnasium

from .envs import MMToolSandboxAEC, MMToolSandboxEnv, env, make_env, parallel_env
from .scenario.model import Scenario, ScenarioError
from .scenario.suites import available_suites, load_scenario, load_suite

GYM_ID = "mmtsb_env/MMToolSandbox-v0"
GYM_USER_ID = "mmtsb_env/MMToolSandboxUser-v0"  # the user seat, the assistant played by a given policy


def list_tools(toolbox: str = "full") -> list[dict[str, Any]]:
    """OpenAI-format schemas of every assistant-visible tool of a toolbox variant."""
    from .tools.catalog import tools_in

    return [t.schema for t in tools_in(toolbox)]


def _register() -> None:
    if GYM_ID not in gymnasium.registry:
        # VerdictOnTruncation sits outside gym.make's TimeLimit: a truncated step always carries a verdict
        verdict = gymnasium.envs.registration.WrapperSpec(
            "VerdictOnTruncation", "mmtsb_env.wrappers.step_limit:VerdictOnTruncation", {})
        gymnasium.register(id=GYM_ID, entry_point="mmtsb_env.envs.gym_env:MMToolSandboxEnv",
                           additional_wrappers=(verdict,))
    if GYM_USER_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_USER_ID, entry_point="mmtsb_env.wrappers.seat_selection:UserSeatEnv")
    try:
        import pettingzoo

        register = getattr(pettingzoo, "register", None)
        if register is not None:
            for kind, entry in (("aec", "env"), ("parallel", "parallel_env")):
                try:
                    register(env_type=kind, id=GYM_ID, entry_point=f"mmtsb_env.envs.pettingzoo_env:{entry}")
                except Exception:  # already registered in this process
                    pass
    except ImportError:  # pragma: no cover
        pass


_register()

__all__ = [
    "GYM_ID", "GYM_USER_ID", "MMToolSandboxAEC", "MMToolSandboxEnv", "Scenario", "ScenarioError", "available_suites", "env",
    "list_tools", "load_scenario", "load_suite", "make_env", "parallel_env",
]
