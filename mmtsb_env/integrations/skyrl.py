"""SkyRL-gym adapter: an mmtsb_env episode as a SkyRL ``BaseTextEnv`` (multi-turn, images carried).

SkyRL's generator calls ``env.init(prompt)`` for the first conversation, then ``env.step(text)``
after each model turn and appends the returned ``observations`` to the chat. Here ``init``
resets the env on the row's scenario and returns its first messages; ``step`` plays the turn
(the scripted user answers inside the env) and returns the messages that followed it: tool
results and the user's next turn, template-ready (:func:`~mmtsb_env.llm.messages.template_ready`),
The system prompt lists every offered tool's JSON schema (SkyRL's generators keep only the
messages, never ``init()``'s metadata, so the prompt is the one place the model sees them);
images as OpenAI ``image_url`` parts with PNG data URLs -- never dropped. ``reward`` is the env's
step reward (the verdict included on the last step), ``metadata`` carries the verdict and F1.

Registered as ``skyrl_gym.make("mmtsb_env", env_config={...}, extras={"scenario_id": ...})``
(call :func:`register` first). ``env_config`` keys: ``suite`` (default ``"demo"``),
``max_turns`` (a :class:`~mmtsb_env.wrappers.StepLimit`, default 20), ``tool_format``
(``"text"``: tool calls and results as tagged text, which any chat template renders; or
``"openai"``), ``seed``, and any env option (``image_size``, ``toolbox``, ``tool_search`` ...).
"""

from __future__ import annotations

from typing import Any

from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

from ..envs.gym_env import make_env
from ..llm.messages import schemas_text, template_ready

ENV_ID = "mmtsb_env"
_CONFIG_KEYS = ("suite", "max_turns", "tool_format", "seed")


def _config(env_config: Any) -> dict[str, Any]:
    if env_config is None:
        return {}
    if hasattr(env_config, "items"):
        return {k: v for k, v in env_config.items()}
    raise TypeError(f"env_config must be a mapping, got {type(env_config).__name__}")


def _with_text(content: Any, text: str) -> Any:
    if isinstance(content, str):
        return content + text
    parts = list(content or [])
    if parts and parts[-1].get("type") == "text":
        return [*parts[:-1], {**parts[-1], "text": parts[-1]["text"] + text}]
    return [*parts, {"type": "text", "text": text}]


class MMToolSandboxTextEnv(BaseTextEnv):
    """One scenario per instance (``extras["scenario_id"]``); see the module docstring."""

    def __init__(self, env_config: Any = None, extras: dict[str, Any] | None = None) -> None:
        super().__init__()
        from ..wrappers.step_limit import StepLimit

        config, extras = _config(env_config), dict(extras or {})
        if "scenario_id" not in extras:
            raise ValueError("extras must name the scenario: extras={'scenario_id': 'demo/...'} (a dataset column)")
        self.scenario_id = str(extras["scenario_id"])
        self.tool_format = config.get("tool_format", "text")
        self.seed = config.get("seed", 0)
        self.max_turns = int(config.get("max_turns", 20))
        options = {k: v for k, v in config.items() if k not in _CONFIG_KEYS}
        if "image_size" in options:
            options["image_size"] = tuple(options["image_size"])
        self.env = StepLimit(make_env(suite=config.get("suite", "demo"), **options), self.max_turns)
        self._seen = 0
        self.tools: list[dict[str, Any]] = []
        self.last_info: dict[str, Any] = {}

    def _new_messages(self, info: dict[str, Any], skip_assistant: bool) -> list[dict[str, Any]]:
        messages = info["messages"][self._seen:]
        self._seen = len(info["messages"])
        if skip_assistant:  # the model's own turn is already in SkyRL's chat
            while messages and messages[0]["role"] == "assistant":
                messages = messages[1:]
        return template_ready(messages, tool_format=self.tool_format)

    def init(self, prompt: Any = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The scenario's first messages (system prompt, the user's first turn with its images)."""
        _, info = self.env.reset(seed=self.seed, options={"scenario": self.scenario_id})
        self._seen, self.turns, self.last_info = 0, 0, info
        self.tools = list(info["tools"])
        messages = self._new_messages(info, skip_assistant=False)
        if self.tools and messages and messages[0]["role"] == "system":  # SkyRL's generators drop init()'s metadata
            messages[0] = {**messages[0], "content": _with_text(messages[0]["content"], schemas_text(self.tools))}
        return messages, {"tools": self.tools, "scenario_id": self.scenario_id}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        self.turns += 1
        _, reward, terminated, truncated, info = self.env.step(action)
        self.last_info = info
        metadata: dict[str, Any] = {"reward_components": info.get("reward_components"), "action_error": info.get("action_error")}
        if "verdict" in info:
            metadata.update(verdict=info["verdict"], entity_f1=info["entity_f1"])
        return BaseTextEnvStepOutput(observations=self._new_messages(info, skip_assistant=True), reward=float(reward),
                                     done=bool(terminated or truncated), metadata=metadata, postprocessed_action=None)

    def get_metrics(self) -> dict[str, Any]:
        verdict = self.last_info.get("verdict") or {}
        return {"passed": float(bool(verdict.get("pass"))), "entity_f1": float(self.last_info.get("entity_f1") or 0.0),
                "turns": self.turns}

    def close(self) -> None:
        self.env.close()


def register() -> None:
    """Register ``"mmtsb_env"`` with ``skyrl_gym`` (once per process)."""
    import skyrl_gym

    if ENV_ID not in skyrl_gym.envs.registration.registry:
        skyrl_gym.register(id=ENV_ID, entry_point="mmtsb_env.integrations.skyrl:MMToolSandboxTextEnv")
