"""verifiers adapter: mmtsb_env scenarios as a verifiers ``MultiTurnEnv`` (``load_environment``).

verifiers (the classic environment API: ``vf.MultiTurnEnv``, ``vf.Rubric``; checked with
verifiers 0.3.1) runs a rollout as a loop: the model answers the conversation so far, then the
environment's ``env_response`` adds what follows, until a stop condition holds. Here:

* each dataset row is one scenario at one seed: ``prompt`` is the episode's first messages (the
  system prompt, the user's first turn with its images as ``image_url`` parts) and ``info`` carries
  the scenario id, the seed and the tool schemas (``tool_defs``: verifiers passes them to the model
  as ``tools=``; when tool search makes more tools available mid-episode the rollout's tool list
  grows with them);
* ``env_response`` plays the model's turn in a real env: each tool call is one env step (its
  result comes back as the ``tool`` message answering that call's id), a plain reply goes to the
  user, whose next turn (images included) comes back as a ``user`` message; calls written as
  text (the JSON the system prompt describes, for a server without a tool parser) are parsed by
  the env like any text action, and their results come back as ``<tool_response>`` user turns;
* the rollout stops when the episode ends (the user closes it, or ``max_turns`` env steps; a
  step cap is judged like :class:`~mmtsb_env.wrappers.StepLimit`); an episode verifiers stops
  early (its own turn cap, an error) is ended and judged in cleanup, so every rollout has a verdict;
* env work (reset, steps, the judge) runs on worker threads, so one event loop drives many rollouts;
* the rubric is the env's own reward: ``entity_f1`` (the entity-diff F1 of the final world) plus
  ``judge_pass`` (1 when the verdict passes), weight 1 each -- the same total as the env's return.
  ``turns`` (env steps) is a metric.

>>> import verifiers as vf                                                       # doctest: +SKIP
>>> from mmtsb_env.integrations.verifiers_env import load_environment          # doctest: +SKIP
>>> env = load_environment(suite="demo", image_size=(224, 224), max_images=1)   # doctest: +SKIP
>>> client = vf.ClientConfig(api_base_url="http://127.0.0.1:8000/v1")               # doctest: +SKIP
>>> results = env.evaluate_sync(client, model="served-model")                   # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Sequence

import verifiers as vf
from verifiers.utils.message_utils import normalize_messages

from ..envs.gym_env import make_env
from ..episode.ending import finish_truncated
from ..wrappers.step_limit import StepLimit


def tool_def(schema: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI tool schema as verifiers' provider-agnostic tool definition."""
    function = schema.get("function", schema)
    return {"name": function["name"], "description": function.get("description") or "",
            "parameters": function.get("parameters") or {"type": "object", "properties": {}}}


def _plain(message: Any) -> dict[str, Any]:
    return message.model_dump(exclude_none=True) if hasattr(message, "model_dump") else dict(message)


def _call_action(name: str, arguments: str) -> str:
    """The env's action for one tool call (arguments that are not JSON reach the env as written,
    and the env answers them with its one-line error)."""
    try:
        return json.dumps({"name": name, "arguments": json.loads(arguments or "{}")}, ensure_ascii=False)
    except json.JSONDecodeError:
        return '{"name": %s, "arguments": %s}' % (json.dumps(name), arguments)


def _parts(content: Any) -> list[dict[str, Any]]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])


def _message(message: dict[str, Any]) -> dict[str, Any]:
    """A user, system or tool message as verifiers takes it: role and content (and the call it answers)."""
    return {k: message[k] for k in ("role", "content", "tool_call_id") if k in message}


def _as_user_turn(message: dict[str, Any]) -> dict[str, Any]:
    """A tool result the model asked for in text (no ``tool_calls``) as a ``<tool_response>`` user turn."""
    if message["role"] != "tool":
        return _message(message)
    return {"role": "user", "content": [{"type": "text", "text": "<tool_response>\n"}, *_parts(message["content"]),
                                        {"type": "text", "text": "\n</tool_response>"}]}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text")


class _Episode:
    """One rollout's env and what of its transcript verifiers has already seen."""

    def __init__(self, env: Any, info: dict[str, Any]) -> None:
        self.env, self.info = env, info
        self.seen = len(info["messages"])
        self.total, self.steps, self.done = 0.0, 0, False

    @property
    def episode(self) -> Any:
        return self.env.unwrapped.episode

    def step(self, action: str) -> list[dict[str, Any]]:
        """Play ``action``; the messages it added, the env's echo of the assistant's own turn left out."""
        _, reward, terminated, truncated, info = self.env.step(action)
        self.total += float(reward)
        self.steps += 1
        self.done = bool(terminated or truncated)
        new = info["messages"][self.seen:]
        self.seen, self.info = len(info["messages"]), info
        return [m for m in new if m["role"] != "assistant"]

    def finish(self) -> None:
        """End the episode if it is still running (judged as a truncation)."""
        if self.episode.verdict is None:
            self.total += finish_truncated(self.episode)
        self.done = True

    def result(self) -> dict[str, Any]:
        verdict = self.episode.verdict.to_json() if self.episode.verdict is not None else {}
        return {"entity_f1": float(self.episode.f1 or 0.0), "passed": bool(verdict.get("pass")),
                "return": self.total, "turns": self.steps, "verdict": verdict}


class MMToolSandboxEnv(vf.MultiTurnEnv):
    """A verifiers ``MultiTurnEnv`` over mmtsb_env scenarios (see the module docstring).

    Args:
        dataset: rows from :func:`scenario_dataset`.
        suite / env_options: what each rollout's env is made with (``make_env(suite, **env_options)``).
        max_turns: the env steps per episode (tool calls and replies); then the episode is judged.
    """

    def __init__(self, dataset: Any, *, suite: Any = "demo", env_options: dict[str, Any] | None = None,
                 max_turns: int = 20, **kwargs: Any) -> None:
        self.suite, self.env_options, self.episode_steps = suite, dict(env_options or {}), int(max_turns)
        self.episodes: dict[str, _Episode] = {}
        rubric = vf.Rubric(funcs=[entity_f1, judge_pass], weights=[1.0, 1.0])
        rubric.add_metric(turns)
        super().__init__(dataset=dataset, rubric=rubric, **kwargs)

    async def setup_state(self, state: vf.State) -> vf.State:
        info = state["info"]
        env = StepLimit(make_env(suite=self.suite, **self.env_options), self.episode_steps)
        options = {"scenario": info["scenario_id"]}
        _, env_info = await asyncio.to_thread(env.reset, seed=int(info["seed"]), options=options)
        # the env's own first messages (the row's copy went through Arrow, which pads parts with nulls)
        state["prompt"] = normalize_messages([_message(m) for m in env_info["messages"]], field_name="prompt")
        self.episodes[state["trajectory_id"]] = _Episode(env, env_info)
        state["mmtsb"] = {}
        return state

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs: Any) -> vf.Messages:
        run = self.episodes[state["trajectory_id"]]
        last = _plain(messages[-1])
        out: list[dict[str, Any]] = []
        calls = last.get("tool_calls") or []
        for call in calls:
            if run.done:  # the episode ended on an earlier call of this turn: the rest are not run
                out.append({"role": "tool", "tool_call_id": call["id"], "content": "Not run: the episode has ended."})
                continue
            new = await asyncio.to_thread(run.step, _call_action(call["name"], call.get("arguments") or ""))
            results = [m for m in new if m["role"] == "tool"]
            if results:
                answer = results[0]["content"]
            else:  # a call the env refused before running it: its one-line reason answers the call
                answer = run.info.get("action_error") or (_text(new[0]["content"]) if new else "")
            out.append({"role": "tool", "tool_call_id": call["id"], "content": answer})
            out.extend(_message(m) for m in new if m["role"] != "tool")
        if not calls:  # a reply to the user, or calls written as text (the env parses them)
            out.extend(_as_user_turn(m) for m in await asyncio.to_thread(run.step, _text(last.get("content"))))
        tools = [tool_def(t) for t in run.info.get("tools") or []]
        if [t["name"] for t in tools] != [t.name for t in state["tool_defs"]]:  # tool search found more
            state["tool_defs"] = self._normalize_tool_defs(tools) or []
        messages_out = normalize_messages(out, field_name="env_response")
        if run.done:
            state["final_env_response"] = messages_out
            state["mmtsb"] = run.result()
        return messages_out

    @vf.cleanup
    async def judge_and_close(self, state: vf.State) -> None:
        run = self.episodes.pop(state.get("trajectory_id"), None)
        if run is None:
            return
        await asyncio.to_thread(run.finish)
        state["mmtsb"] = run.result()
        run.env.close()


def entity_f1(state: vf.State, **_: Any) -> float:
    """The entity-diff F1 of the episode's final world against the scenario's goal."""
    return float((state.get("mmtsb") or {}).get("entity_f1", 0.0))


def judge_pass(state: vf.State, **_: Any) -> float:
    """1.0 when the episode's verdict passes."""
    return float(bool((state.get("mmtsb") or {}).get("passed")))


def turns(state: vf.State, **_: Any) -> float:
    """Env steps the episode took (tool calls and replies)."""
    return float((state.get("mmtsb") or {}).get("turns", 0))


def scenario_dataset(suite: Any = "demo", scenario_ids: Sequence[str] | None = None, *, seeds: Sequence[int] = (0,),
                     **env_options: Any):
    """One row per scenario and seed: ``prompt`` (the episode's first messages, images as data
    URLs), ``info`` (JSON: ``scenario_id``, ``seed``, ``tool_defs``)."""
    import datasets

    env = make_env(suite=suite, **env_options)
    ids = list(scenario_ids) if scenario_ids is not None else [s.id for s in env.scenarios]
    rows: dict[str, list[Any]] = {"prompt": [], "info": []}
    for sid in ids:
        for seed in seeds:
            _, info = env.reset(seed=int(seed), options={"scenario": sid})
            rows["prompt"].append([{"role": m["role"], "content": _parts(m["content"])} for m in info["messages"]])
            rows["info"].append(json.dumps({"scenario_id": sid, "seed": int(seed),
                                            "tool_defs": [tool_def(t) for t in info["tools"]]}, ensure_ascii=False))
    env.close()
    return datasets.Dataset.from_dict(rows)


def load_environment(suite: Any = "demo", scenario_ids: Sequence[str] | None = None, seeds: Sequence[int] = (0,),
                     max_turns: int = 20, **env_options: Any) -> MMToolSandboxEnv:
    """The verifiers entry point: an :class:`MMToolSandboxEnv` over ``suite``'s scenarios (or the
    chosen ones) at ``seeds``; ``env_options`` are env options (``image_size``, ``max_images``,
    ``tool_search``, ...; tool mode only: the model calls tools)."""
    if env_options.get("mode", "tool") != "tool":
        raise ValueError("the verifiers environment plays tool calls: use mode='tool'")
    if "image_size" in env_options:
        env_options["image_size"] = tuple(env_options["image_size"])
    dataset = scenario_dataset(suite, scenario_ids, seeds=seeds, **env_options)
    return MMToolSandboxEnv(dataset, suite=suite, env_options=env_options, max_turns=max_turns)
