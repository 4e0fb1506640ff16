"""The PettingZoo view: seats ``assistant`` and ``user`` both act through ``step``.

``max_cycles`` counts cycles as PettingZoo means them: in the AEC env a cycle is one round of
turns (the user's turn, then the assistant's whole answer, tool calls included), and the episode
is truncated -- and judged -- when the turn would come back to the user for the
``max_cycles + 1``-th time; in the parallel view, where one parallel step is one seat's action
(the conversation is turn-based), after ``max_cycles`` steps.

The user seat's info carries ``scripted_action``: what the built-in scripted user would do now,
so a caller can let the script play the user, imitate it, or replace it with a model.
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ..episode.engine import Episode
from ..scenario.model import Scenario
from ..users.scripted import ScriptedUser
from .observe import Observer
from .control import seed_policies, truncate_with_verdict
from .options import EnvOptions, pick_scenario, resolve_scenarios
from .spaces import UnicodeText, observation_space

AGENTS = [Episode.ASSISTANT, Episode.USER]


class MMToolSandboxAEC(AECEnv):
    """Turn-based two-seat environment (the user speaks first)."""

    metadata = {"name": "mmtsb_env_v0", "render_modes": ["ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        suite: str | Sequence[Scenario] | None = "demo",
        mode: str | None = None,
        *,
        scenarios: Sequence[Scenario] | None = None,
        max_cycles: int | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        for name, value in (("max_cycles", max_cycles), ("max_steps", max_steps)):
            if value is not None and int(value) < 1:
                raise ValueError(f"{name} must be >= 1 (or None), got {value}")
        self.max_cycles = max_cycles
        self.max_steps = max_steps  # cap on all seats' actions together (the parallel view's cycles)
        self.options = EnvOptions.from_kwargs(mode, options)
        self.scenarios = resolve_scenarios(suite, scenarios)
        self.config = self.options.episode_config()
        self.obs_config = self.options.obs_config()
        self._obs_space = observation_space(self.options.max_images, *self.options.image_size)
        self._act_space = UnicodeText()
        self.judge = self.options.judge
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.episode: Episode | None = None
        self._observer: Observer | None = None
        self._script = ScriptedUser()

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._obs_space.seed(seed)
            self._act_space.seed(seed)
        import numpy as np

        rng = np.random.default_rng(seed)
        if self.episode is not None:
            self.episode.close()
        scenario = pick_scenario(self.scenarios, options, rng.integers)
        self.episode_seed = seed_policies(rng, self.judge)
        self._steps = self._cycles = 0
        self.episode = Episode(scenario, self.config, judge=self.judge, seed=self.episode_seed)
        self._observer = Observer(self.episode, self.obs_config)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._last_error: dict[str, str | None] = {a: None for a in self.agents}
        self._components: dict[str, float] | None = None
        self.agent_selection = self._opener = self.episode.turn
        self.infos = {a: self._info(a) for a in self.agents}

    def observe(self, agent: str) -> dict[str, Any]:
        obs, _ = self._observer.observe(agent)
        return obs

    def _info(self, agent: str) -> dict[str, Any]:
        _, ids = self._observer.observe(agent)
        info = self._observer.info(agent, ids, self._components, self._last_error.get(agent))
        if agent == Episode.USER and not self.episode.done and self.episode.turn == Episode.USER:
            info["scripted_action"] = self._script.act(self.episode)
        return info

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self.episode
        self._cumulative_rewards[agent] = 0.0
        self._observer.mark_acting(agent)
        result = ep.act(agent, action)
        self._last_error[agent] = result.error
        self._components = result.components
        self.rewards = {a: result.rewards.get(a, 0.0) for a in self.agents}
        self._steps += 1
        self._cycles += ep.turn == self._opener and agent != self._opener  # the turn came back round
        if not ep.done and self._cap_reached():
            self._components = dict(result.components)
            self.rewards[Episode.ASSISTANT] += truncate_with_verdict(ep, self._components)
        self._accumulate_rewards()
        if ep.done:
            for a in self.agents:
                self.terminations[a] = ep.terminated
                self.truncations[a] = ep.truncated
        else:
            self.agent_selection = ep.turn
        self.infos = {a: self._info(a) for a in self.agents}

    def _cap_reached(self) -> bool:
        return ((self.max_cycles is not None and self._cycles >= self.max_cycles)
                or (self.max_steps is not None and self._steps >= self.max_steps))

    def render(self) -> str | None:
        """``"ansi"``: the whole episode log as text."""
        if self.render_mode != "ansi" or self.episode is None:
            return None
        return self.episode.transcript_text()

    def close(self) -> None:
        if self.episode is not None:
            self.episode.close()


def env(**kwargs: Any) -> MMToolSandboxAEC:
    """PettingZoo AEC environment with seats ``assistant`` and ``user``."""
    return MMToolSandboxAEC(**kwargs)


def parallel_env(*, max_cycles: int | None = None, **kwargs: Any):
    """PettingZoo parallel view (turn-based: only the seat whose turn it is acts each step).

    ``max_cycles`` caps the parallel steps, i.e. the seats' actions together.
    """
    return turn_based_aec_to_parallel(MMToolSandboxAEC(max_steps=max_cycles, **kwargs))
