"""TRL's ``GRPOTrainer(environment_factory=...)``: an mmtsb_env episode whose tools are methods.

TRL builds one instance per rollout, exposes its public methods as tools (schemas read off their
signatures and docstrings), calls ``reset(**row)`` and appends what it returns to the prompt's
last user turn, and runs the tools the model calls until the model answers in plain text. Here:

* :func:`environment_factory` returns a factory of a class made for a suite: one typed method
  per tool its scenarios offer, plus ``send_message_to_user(message)``, which sends the message
  and returns the user's next turn (the scripted user plays it; images as image parts), so every
  round of a multi-round scenario is played inside the rollout;
* ``reset(scenario_id, seed)`` starts that scenario and returns the user's first turn (its text
  and images as content parts);
* a tool's result is its text, with the images it produced as ``{"type": "image"}`` parts;
* the model's final text reply, which ends TRL's rollout, reaches the env through
  :func:`final_reply_reward`: it is sent to the user, and if the episode is still running after the
  user's answer it is ended and judged -- every rollout gets a verdict. The reward is the
  episode's return (step rewards + the terminal verdict).

>>> from trl import GRPOConfig, GRPOTrainer                                   # doctest: +SKIP
>>> factory = environment_factory("demo", image_size=(224, 224))             # doctest: +SKIP
>>> trainer = GRPOTrainer(model, reward_funcs=final_reply_reward, train_dataset=environment_prompts("demo"),
...                       environment_factory=factory, processing_class=processor, args=GRPOConfig(...))  # doctest: +SKIP
"""

from __future__ import annotations

import inspect
import json
from typing import Any, Callable, Sequence

from ...envs.gym_env import make_env
from ...episode.ending import finish_truncated, verdict_info
from ...wrappers.step_limit import StepLimit
from .tools import tool_function

ENDED = "The conversation is over: the user ended it."


class EpisodeEnvironment:
    """Base of the classes :func:`environment_factory` makes (tool methods are added per suite)."""

    suite: Any = "demo"
    env_options: dict[str, Any] = {}
    max_turns: int = 20

    def __init__(self) -> None:
        self.env = StepLimit(make_env(suite=self.suite, **self.env_options), self.max_turns)
        self.info: dict[str, Any] = {}
        self.total = 0.0
        self.final_reply: str | None = None

    # ------------------------------------------------------------------ TRL's contract
    def reset(self, scenario_id: str, seed: int = 0, **_: Any) -> list[dict[str, Any]]:
        """Start ``scenario_id``; the user's first turn as content parts (TRL appends them to the prompt)."""
        _, info = self.env.reset(seed=int(seed), options={"scenario": scenario_id})
        self.info, self.total, self.final_reply = info, 0.0, None
        return self._parts(self._last_text(info), info)

    def send_message_to_user(self, message: str) -> Any:
        """Send a message to the user (an answer, a question, or the result of their request) and get their reply.

        Args:
            message: what to tell the user.
        """
        if self.done:
            return ENDED
        text, info = self._step(message)
        return ENDED if self.done and not text else self._parts(text, info)

    # ------------------------------------------------------------------ episode
    @property
    def episode(self) -> Any:
        return self.env.unwrapped.episode

    @property
    def done(self) -> bool:
        return self.episode.done

    def _finish(self, final_reply: str) -> float:
        """Deliver the model's final reply, end the episode (judged) and return its return.

        (Private: TRL exposes every public method as a tool.)"""
        if not self.done:
            self.final_reply = final_reply
            self._step(final_reply)
        if not self.done or self.episode.verdict is None:
            self.total += finish_truncated(self.episode)
            verdict_info(self.episode, self.info)
        return self.total

    def _step(self, action: str) -> tuple[str, dict[str, Any]]:
        obs, reward, _, _, info = self.env.step(action)
        self.total += float(reward)
        self.info = info
        return obs["text"], info

    def _call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        if self.done:
            return ENDED
        text, info = self._step(json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False))
        return self._parts(text, info)

    def _parts(self, text: str, info: dict[str, Any]) -> Any:
        """``text`` alone, or image parts (the images that arrived) followed by the text."""
        ids = list(info.get("new_image_ids") or [])
        if not ids:
            return text
        from ...vision.store import shrink

        height, width = self.env.unwrapped.options.image_size
        images = [{"type": "image", "image": shrink(self.episode.images.get(i), height, width)} for i in ids]
        return [*images, {"type": "text", "text": text}]

    @staticmethod
    def _last_text(info: dict[str, Any]) -> str:
        message = info["messages"][-1]
        content = message.get("content")
        if isinstance(content, str):
            return content
        return "".join(p.get("text", "") for p in content or [] if p.get("type") == "text")


def _method(schema: dict[str, Any]) -> Callable[..., Any]:
    """A method forwarding to ``self._call_tool``, with the tool's typed signature and docstring."""
    name = schema["function"]["name"]
    typed = tool_function(schema, lambda n, a: None)  # only its signature, annotations and docstring

    def method(self: EpisodeEnvironment, **kwargs: Any) -> Any:
        required = set(schema["function"].get("parameters", {}).get("required") or [])
        return self._call_tool(name, {k: v for k, v in kwargs.items() if k in required or v is not None})

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD), *typed.__signature__.parameters.values()]
    method.__name__ = method.__qualname__ = name
    method.__doc__ = typed.__doc__
    method.__signature__ = inspect.Signature(params, return_annotation=str)
    method.__annotations__ = dict(typed.__annotations__)
    return method


def suite_tools(suite: Any = "demo", scenario_ids: Sequence[str] | None = None, **env_options: Any) -> list[dict[str, Any]]:
    """The tool schemas the suite's scenarios (or the chosen ones) offer the assistant, by name, once each."""
    env = make_env(suite=suite, **env_options)
    ids = list(scenario_ids) if scenario_ids is not None else [s.id for s in env.scenarios]
    tools: dict[str, dict[str, Any]] = {}
    for sid in ids:
        _, info = env.reset(seed=0, options={"scenario": sid})
        for tool in info["tools"]:
            tools.setdefault(tool["function"]["name"], tool)
    env.close()
    return list(tools.values())


def environment_factory(suite: Any = "demo", *, scenario_ids: Sequence[str] | None = None, max_turns: int = 20,
                        **env_options: Any) -> Callable[[], EpisodeEnvironment]:
    """A zero-argument factory for ``GRPOTrainer(environment_factory=...)`` (see the module docstring).

    ``env_options`` are env options (``image_size``, ``max_images``, ``toolbox``, ...); the tool
    mode is required (TRL calls tools, not code). ``max_turns`` caps the model's actions per
    episode (a :class:`~mmtsb_env.wrappers.StepLimit`; the episode is then judged).
    """
    if env_options.get("mode", "tool") != "tool":
        raise ValueError("TRL's environment_factory calls tools: use mode='tool'")
    names = {"reset", "send_message_to_user", "get_reward"}
    methods = {}
    for schema in suite_tools(suite, scenario_ids, **env_options):
        if schema["function"]["name"] in names:
            raise ValueError(f"tool name {schema['function']['name']!r} clashes with the environment's own methods")
        methods[schema["function"]["name"]] = _method(schema)
    cls = type("MMToolSandboxEnvironment", (EpisodeEnvironment,),
               {**methods, "suite": suite, "env_options": dict(env_options), "max_turns": int(max_turns)})
    return cls


def environment_prompts(suite: Any = "demo", scenario_ids: Sequence[str] | None = None, *, seeds: Sequence[int] = (0,),
                        **env_options: Any):
    """A GRPO dataset for :func:`environment_factory`: ``prompt`` (the assistant's system prompt
    and an empty user turn the env's first turn is appended to), ``scenario_id`` and ``seed``."""
    import datasets

    env = make_env(suite=suite, **env_options)
    ids = list(scenario_ids) if scenario_ids is not None else [s.id for s in env.scenarios]
    rows: dict[str, list[Any]] = {"prompt": [], "scenario_id": [], "seed": []}
    for sid in ids:
        _, info = env.reset(seed=0, options={"scenario": sid})
        system = info["messages"][0]["content"]
        for seed in seeds:
            rows["prompt"].append([{"role": "system", "content": [{"type": "text", "text": system}]},
                                   {"role": "user", "content": [{"type": "text", "text": ""}]}])
            rows["scenario_id"].append(sid)
            rows["seed"].append(int(seed))
    env.close()
    return datasets.Dataset.from_dict(rows)


def _final_text(completion: Any) -> str:
    """The text of the last assistant message without tool calls in a TRL completion."""
    if isinstance(completion, str):
        return completion
    for message in reversed(completion or []):
        if message.get("role") == "assistant" and not message.get("tool_calls"):
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text")
    return ""


def final_reply_reward(completions: list[Any], environments: list[EpisodeEnvironment] | None = None, **_: Any) -> list[float]:
    """TRL reward function: deliver each rollout's final reply to its env, judge, return the episode's return."""
    if environments is None:
        raise ValueError("final_reply_reward needs GRPOTrainer(environment_factory=environment_factory(...))")
    return [env._finish(_final_text(completion)) for completion, env in zip(completions, environments)]
