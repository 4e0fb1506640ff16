"""The Gymnasium view: the agent plays the assistant seat; a built-in policy plays the user."""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym

from ..episode.engine import Episode
from ..scenario.model import Scenario
from ..users.scripted import ScriptedUser
from .observe import Observer
from .control import seed_policies
from .options import EnvOptions, pick_scenario, resolve_scenarios
from .spaces import UnicodeText, observation_space


MAX_USER_TURNS = 20  # user actions in a row before an episode is cut (a user policy that keeps failing)


class MMToolSandboxEnv(gym.Env):
    """One scenario per episode; the action is a string (tool calls, code or a message).

    Args:
        suite: built-in suite name (``"demo"``, ``"nominal"``, ``"ui"``), a folder, or a list of scenarios.
        mode: ``"tool"`` (JSON tool calls) or ``"code"`` (python blocks); default: the harness's, else ``"tool"``.
        scenarios: explicit scenarios (instead of ``suite``).
        user: the user policy (default: :class:`~mmtsb_env.users.scripted.ScriptedUser`); any object
            with ``act(episode) -> str``.
        render_mode: ``"ansi"`` or None.
        **options: see :class:`~mmtsb_env.envs.options.EnvOptions` (harness, toolbox, tool_search,
            tool_universe, tool_ranker, working_set, coding_tool, max_images, image_size, message_images,
            max_messages, max_steps, time_limit_s, judge_weight, judge, code_timeout_s, code_memory_mb);
            checked up front (one ``ValueError`` line naming the bad value and the valid ones).

    Observations: ``{"text", "images", "image_count"}``. ``images`` is a read-only ``uint8`` array
    of shape ``(max_images, H, W, 3)`` that belongs to that observation alone (no later step
    changes it, so transitions can be stored as returned; ``.copy()`` it to write to it). Slots
    hold the images that arrived since the agent last acted, letterboxed; an observation with no
    new image is a zero tensor backed by one byte (stride 0), which costs nothing per step.

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
        mode: str | None = None,
        *,
        scenarios: Sequence[Scenario] | None = None,
        user: Any = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not valid; valid: {self.metadata['render_modes']} or None")
        self.options = EnvOptions.from_kwargs(mode, options)
        self.scenarios = resolve_scenarios(suite, scenarios)
        self.config = self.options.episode_config()
        self.obs_config = self.options.obs_config()
        self.observation_space = observation_space(self.options.max_images, *self.options.image_size)
        self.action_space = UnicodeText()
        self.user = user or ScriptedUser()
        self.judge = self.options.judge
        self.render_mode = render_mode
        self.episode: Episode | None = None
        self._observer: Observer | None = None

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._start(seed, options)
        self._run_user()
        return self._first_observation()

    def step(self, action: Any):
        ep = self._require_episode()
        self._observer.mark_acting(Episode.ASSISTANT)
        result = ep.act(Episode.ASSISTANT, action)
        return self._step_output(result, self._run_user())

    # ------------------------------------------------------------------ async API
    async def areset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """:meth:`reset` for an event loop: the user's turns are awaited (a user with an ``aact``
        coroutine, such as :class:`~mmtsb_env.users.llm_user.LLMUser`, awaits its model call;
        any other runs on a worker thread) and engine work runs on a worker thread, so the loop
        is never blocked. Same seed, same episode as :meth:`reset`."""
        import asyncio

        await asyncio.to_thread(self._start, seed, options)
        await self._arun_user()
        return await asyncio.to_thread(self._first_observation)

    async def astep(self, action: Any):
        """:meth:`step` for an event loop (see :meth:`areset`). The terminal judge runs on the
        engine's worker thread. One env must not be stepped concurrently with itself."""
        import asyncio

        ep = self._require_episode()
        self._observer.mark_acting(Episode.ASSISTANT)
        result = await asyncio.to_thread(ep.act, Episode.ASSISTANT, action)
        user_results = await self._arun_user()
        return await asyncio.to_thread(self._step_output, result, user_results)

    def clone(self) -> "MMToolSandboxEnv":
        """An independent env that continues exactly as this one would from here.

        The world, the transcripts, the user policy's and the RNGs' state are copied (the base
        world and the drawn images are shared: nothing writes them). In code mode the copy's
        sandbox gets the same variables by replaying this episode's code runs in a fresh
        interpreter on its first code step, each tool call answered with the recorded outcome.
        Same as ``copy.deepcopy(env)``. A user or judge that holds a live client (an LLM backend)
        must itself support ``deepcopy``.
        """
        import copy

        return copy.deepcopy(self)

    def render(self) -> str | None:
        """``"ansi"``: the whole episode log as text."""
        if self.render_mode != "ansi" or self.episode is None:
            return None
        return self.episode.transcript_text()

    def close(self) -> None:
        if self.episode is not None:
            self.episode.close()

    # ------------------------------------------------------------------ internals
    def _require_episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        return self.episode

    def _start(self, seed: int | None, options: dict[str, Any] | None) -> None:
        super().reset(seed=seed)
        if self.episode is not None:
            self.episode.close()
        scenario = pick_scenario(self.scenarios, options, self.np_random.integers)
        self.episode_seed = seed_policies(self.np_random, self.user, self.judge)
        self.episode = Episode(scenario, self.config, judge=self.judge, seed=self.episode_seed)
        self._observer = Observer(self.episode, self.obs_config)

    def _first_observation(self):
        obs, ids = self._observer.observe(Episode.ASSISTANT)
        info = self._observer.info(Episode.ASSISTANT, ids, None, None)
        info["episode_seed"] = self.episode_seed
        return obs, info

    def _step_output(self, result: Any, user_results: list[Any]):
        ep = self._require_episode()
        reward = result.rewards[Episode.ASSISTANT]
        components = dict(result.components)
        for user_result in user_results:
            reward += user_result.rewards[Episode.ASSISTANT]
            components["delta_f1"] += user_result.components["delta_f1"]
            components["entity_f1"] = user_result.components["entity_f1"]
            components["judge"] = max(components["judge"], user_result.components["judge"])
        obs, ids = self._observer.observe(Episode.ASSISTANT)
        info = self._observer.info(Episode.ASSISTANT, ids, components, result.error)
        return obs, float(reward), ep.terminated, ep.truncated, info

    def _run_user(self) -> list[Any]:
        ep = self._require_episode()
        results = []
        guard = 0
        while not ep.done and ep.turn == Episode.USER:
            results.append(ep.act(Episode.USER, self.user.act(ep)))
            guard += 1
            if guard > MAX_USER_TURNS:  # a user policy that keeps failing: end the episode as truncated
                ep.truncated = True
                break
        return results

    async def _arun_user(self) -> list[Any]:
        import asyncio

        ep = self._require_episode()
        aact = getattr(self.user, "aact", None)
        results = []
        guard = 0
        while not ep.done and ep.turn == Episode.USER:
            text = await aact(ep) if aact is not None else await asyncio.to_thread(self.user.act, ep)
            results.append(await asyncio.to_thread(ep.act, Episode.USER, text))
            guard += 1
            if guard > MAX_USER_TURNS:
                ep.truncated = True
                break
        return results


def make_env(suite: str | Sequence[Scenario] | None = "demo", mode: str | None = None, **kwargs: Any) -> MMToolSandboxEnv:
    """Create the single-seat (assistant) environment with the built-in scripted user.

    ``harness="paper"`` (or ``"tool"``, ``"search"``, ``"search_code"``, ``"code"``) starts from a
    preset of options (``docs/harness.md``); explicit options override it.
    """
    return MMToolSandboxEnv(suite=suite, mode=mode, **kwargs)
