"""Gymnasium and PettingZoo environments, spaces and registration."""

from .gym_env import MMToolSandboxEnv, make_env
from .pettingzoo_env import MMToolSandboxAEC, env, parallel_env
from .spaces import UnicodeText, observation_space

__all__ = ["MMToolSandboxAEC", "MMToolSandboxEnv", "UnicodeText", "env", "make_env", "observation_space", "parallel_env"]
