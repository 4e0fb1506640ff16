"""The Gymnasium view: the agent plays the assistant seat; a built-in policy plays the user."""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym

from ..episode.engine import Episode, EpisodeConfig
from ..scenario.model import Scenario
from ..scenario.suites import find_scenario, load_suite
from ..users.scripted import ScriptedUser
from .observe import ObsConfig, Observer
from .spaces import UnicodeText, observation_space


def resolve_scenarios(suite: str | Sequence[Scenario] | None, scenarios: Sequence[Scenario] | None) -> list[Scenario]:
    if scenarios is not None:
        chosen = list(scenarios)
    elif isinstance(suite, (list, tuple)):
        chosen = list(suite)
    else:
        chosen = load_suite(suite or "demo")
    if not chosen:
        raise ValueError("no scenarios to play")
    return chosen


class MMToolSandboxEnv(gym.Env):
    """One scenario per episode; the action is a string (tool calls, code or a message).

    Args:
        suite: built-in suite name (``"demo"``, ``"nominal"``, ``"ui"``), a folder, or a list of scenarios.
        mode: ``"tool"`` (JSON tool calls) or ``"code"`` (python blocks).
        toolbox: tool catalogue variant.
        tool_search: start with the search tool only and discover the rest.
        max_images, image_size: observation tensor slots and (height, width).
        user: the user policy (default: :class:`~mmtsb_env.users.scripted.ScriptedUser`); any object
            with ``act(episode) -> str``.
        judge: terminal judge (default: deterministic rubric judge).
        judge_weight: weight of the terminal verdict in the reward.

    Example:
        >>> import mmtsb_env
        >>> env = mmtsb_env.make_env(suite="demo")
        >>> obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
        >>> "User:" in obs["text"], obs["image_count"]
        (True, 1)
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        suite: str | Sequence[Scenario] | None = "demo",
        mode: str = "tool",
        *,
        scenarios: Sequence[Scenario] | None = None,
        toolbox: str = "full",
        tool_search: bool = False,
        max_images: int = 4,
        image_size: tuple[int, int] = (336, 336),
        max_messages: int | None = None,
        judge_weight: float = 1.0,
        user: Any = None,
        judge: Any = None,
        render_mode: str | None = None,
        code_timeout_s: float = 5.0,
        code_memory_mb: int | None = None,
    ) -> None:
        self.scenarios = resolve_scenarios(suite, scenarios)
        self.config = EpisodeConfig(
            mode=mode, toolbox=toolbox, tool_search=tool_search, max_messages=max_messages,
            judge_weight=judge_weight, code_timeout_s=code_timeout_s, code_memory_mb=code_memory_mb,
        )
        self.obs_config = ObsConfig(max_images=max_images, height=image_size[0], width=image_size[1])
        self.observation_space = observation_space(max_images, *image_size)
        self.action_space = UnicodeText()
        self.user = user or ScriptedUser()
        self.judge = judge
        self.render_mode = render_mode
        self.episode: Episode | None = None
        self._observer: Observer | None = None

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        options = options or {}
        if self.episode is not None:
            self.episode.close()
        if "scenario" in options:
            scenario = options["scenario"]
            if not isinstance(scenario, Scenario):
                scenario = find_scenario(self.scenarios, str(scenario))
        else:
            scenario = self.scenarios[int(self.np_random.integers(len(self.scenarios)))]
        self.episode = Episode(scenario, self.config, judge=self.judge)
        self._observer = Observer(self.episode, self.obs_config)
        self._run_user()
        obs, ids = self._observer.observe(Episode.ASSISTANT)
        return obs, self._observer.info(Episode.ASSISTANT, ids, None, None)

    def step(self, action: Any):
        ep = self._require_episode()
        self._observer.mark_acting(Episode.ASSISTANT)
        result = ep.act(Episode.ASSISTANT, action)
        reward = result.rewards[Episode.ASSISTANT]
        components = dict(result.components)
        for user_result in self._run_user():
            reward += user_result.rewards[Episode.ASSISTANT]
            components["delta_f1"] += user_result.components["delta_f1"]
            components["entity_f1"] = user_result.components["entity_f1"]
            components["judge"] = max(components["judge"], user_result.components["judge"])
        obs, ids = self._observer.observe(Episode.ASSISTANT)
        info = self._observer.info(Episode.ASSISTANT, ids, components, result.error)
        return obs, float(reward), ep.terminated, ep.truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.episode is None:
            return None
        from ..episode.log import entry_text

        return "\n".join(entry_text(e, "environment") for e in self.episode.log)

    def close(self) -> None:
        if self.episode is not None:
            self.episode.close()

    # ------------------------------------------------------------------ internals
    def _require_episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        return self.episode

    def _run_user(self) -> list[Any]:
        ep = self._require_episode()
        results = []
        guard = 0
        while not ep.done and ep.turn == Episode.USER:
            results.append(ep.act(Episode.USER, self.user.act(ep)))
            guard += 1
            if guard > 20:  # a user policy that keeps failing: end the episode as truncated
                ep.truncated = True
                break
        return results


def make_env(suite: str | Sequence[Scenario] | None = "demo", mode: str = "tool", **kwargs: Any) -> MMToolSandboxEnv:
    """Create the single-seat (assistant) environment with the built-in scripted user."""
    return MMToolSandboxEnv(suite=suite, mode=mode, **kwargs)
