"""SeatSelection / UserSeatEnv: play either seat of the two-seat game through the Gymnasium API."""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym

from mmtsb_env.episode.ending import finish_truncated, verdict_info

SEATS = ("assistant", "user")


def _merge(total: dict[str, float] | None, part: dict[str, float]) -> dict[str, float]:
    if total is None:
        return dict(part)
    return {"entity_f1": part["entity_f1"], "delta_f1": total["delta_f1"] + part["delta_f1"],
            "judge": max(total["judge"], part["judge"])}


class SeatSelection(gym.Env):
    """A Gymnasium env over the PettingZoo AEC env where the learner plays ``seat``.

    The other seat is played by ``policy``: an agent with ``act(obs, info) -> str`` (e.g.
    :class:`~mmtsb_env.baselines.OracleAgent` for the assistant) or a callable ``(obs, info) -> str``.
    For ``seat="assistant"`` the policy may be omitted: the scripted user plays (through
    ``info["scripted_action"]``), which is the same game as :class:`~mmtsb_env.MMToolSandboxEnv`.

    Rewards are the team's: a learner step returns the reward of its action plus that of every
    action the other seat takes before the learner's next turn (entity-F1 changes and the
    terminal verdict), with components summed as in ``info["reward_components"]``. The other
    policy's per-step extras (``last_step_info()``) are collected in :attr:`policy_steps`.

    Args:
        aec: an :class:`~mmtsb_env.MMToolSandboxAEC` (``mmtsb_env.env(...)``).
        seat: ``"assistant"`` or ``"user"``.
        policy: plays the other seat.
        policy_name: recorded as that policy's name (default: its class name, or ``"scripted"``).
        max_policy_actions: the other seat's actions allowed in a row before the episode is truncated.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, aec: Any, seat: str = "assistant", policy: Any = None, *, policy_name: str | None = None,
                 max_policy_actions: int = 50) -> None:
        if seat not in SEATS:
            raise ValueError(f"seat must be one of {SEATS}, got {seat!r}")
        self.aec = aec
        self.seat = seat
        self.other = SEATS[1 - SEATS.index(seat)]
        if policy is None and self.other == "assistant":
            raise ValueError("playing the user seat needs a policy for the assistant seat (e.g. OracleAgent)")
        self.policy = policy
        self.policy_name = policy_name or ("scripted" if policy is None else getattr(policy, "name", type(policy).__name__))
        self.max_policy_actions = max_policy_actions
        self.observation_space = aec.observation_space(seat)
        self.action_space = aec.action_space(seat)
        self.render_mode = getattr(aec, "render_mode", None)
        self.policy_steps: list[dict[str, Any]] = []

    @property
    def episode(self) -> Any:
        return self.aec.episode

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        aec_seed = seed if seed is not None else int(self.np_random.integers(2**31 - 1))
        self.aec.reset(seed=aec_seed, options=options)
        if hasattr(self.policy, "reset"):
            self.policy.reset()
        self.policy_steps = []
        self._play_other()  # e.g. the user's opening message; rewards before the learner's first turn are not its
        return self._observe(), self._info(None)

    def step(self, action: Any):
        ep = self.aec.episode
        if ep is None:
            raise RuntimeError("call reset() before step()")
        if ep.done:
            raise RuntimeError("the episode is over; reset the environment")
        if self.aec.agent_selection != self.seat:  # pragma: no cover - _play_other always hands back
            raise RuntimeError(f"it is the {self.aec.agent_selection}'s turn")
        self.aec.step(action)
        reward = self.aec.rewards["assistant"]
        components = _merge(None, self.aec.infos[self.seat]["reward_components"])
        error = self.aec.infos[self.seat]["action_error"]
        r, c = self._play_other()
        reward += r
        if c is not None:
            components = _merge(components, c)
        info = self._info(components)
        info["action_error"] = error
        return self._observe(), float(reward), ep.terminated, ep.truncated, info

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # ------------------------------------------------------------------ internals
    def _observe(self) -> dict[str, Any]:
        obs = self.aec.observe(self.seat)
        images = obs["images"]
        if not images.flags.writeable:  # a shared blank tensor: callers own what we return
            obs = {**obs, "images": images.copy()}
        return obs

    def _info(self, components: dict[str, float] | None) -> dict[str, Any]:
        info = dict(self.aec.infos[self.seat])
        if components is not None:
            info["reward_components"] = components
        return verdict_info(self.aec.episode, info)

    def _other_action(self) -> str:
        obs = self.aec.observe(self.other)
        info = self.aec.infos[self.other]
        if self.policy is None:
            return info["scripted_action"]
        action = self.policy.act(obs, info) if hasattr(self.policy, "act") else self.policy(obs, info)
        if hasattr(self.policy, "last_step_info"):
            self.policy_steps.append(self.policy.last_step_info() or {})
        return action

    def _play_other(self) -> tuple[float, dict[str, float] | None]:
        ep = self.aec.episode
        reward, components, n = 0.0, None, 0
        while not ep.done and self.aec.agent_selection == self.other:
            if n >= self.max_policy_actions:
                reward += finish_truncated(ep)
                break
            self.aec.step(self._other_action())
            reward += self.aec.rewards["assistant"]
            components = _merge(components, self.aec.infos[self.other]["reward_components"])
            n += 1
        return reward, components


class UserSeatEnv(SeatSelection):
    """Train the **user** seat: the learner writes the user's turns, ``assistant`` plays the assistant.

    Args:
        suite: scenarios (as :func:`mmtsb_env.make_env`).
        assistant: the assistant policy (default: :class:`~mmtsb_env.baselines.OracleAgent` over ``suite``).
        mode: the assistant's action interface.
        **env_kwargs: passed to :class:`~mmtsb_env.MMToolSandboxAEC`.

    The user's ``info["scripted_action"]`` is what the scripted user would say now (a target for
    imitation); ``info["tools"]`` are the user's tools (``send_message_with_image``, ``end_conversation``).

    >>> env = UserSeatEnv(suite="demo", image_size=(32, 32))
    >>> obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    >>> obs, reward, terminated, truncated, info = env.step(info["scripted_action"])
    >>> reward, "Blue Door Cafe" in obs["text"]
    (1.0, True)
    """

    def __init__(self, suite: str | Sequence[Any] | None = "demo", assistant: Any = None, *, mode: str = "tool",
                 policy_name: str | None = None, max_policy_actions: int = 50, **env_kwargs: Any) -> None:
        from mmtsb_env.envs.pettingzoo_env import MMToolSandboxAEC

        aec = MMToolSandboxAEC(suite=suite, mode=mode, **env_kwargs)
        if assistant is None:
            from mmtsb_env.baselines import OracleAgent

            assistant = OracleAgent(aec.scenarios, mode=mode)
        super().__init__(aec, seat="user", policy=assistant, policy_name=policy_name, max_policy_actions=max_policy_actions)

