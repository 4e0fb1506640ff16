"""GRPO with TRL on whole episodes: the trained model plays every assistant turn, the env the rest.

TRL's own multi-turn loop (``environment_factory``) stops at the first text reply, so the user's
later rounds -- most scenarios -- are never played. Instead, :class:`EpisodeRollout` is a
``rollout_func``: for each prompt row it plays a full episode through
:class:`~mmtsb_env.wrappers.TokenEnv` -- assistant turns sampled from the model being trained
(or, batched across episodes, from a vLLM server that holds its weights),
tool results and user turns (with their images) from the env -- and returns the token ids, an
``env_mask`` that is 1 only on the model's tokens, per-token logprobs and the episode's return.

:class:`EpisodeGRPOTrainer` is ``GRPOTrainer`` with that rollout plugged in. It adds one thing:
the images of later turns. ``GRPOTrainer`` computes the pixel tensors for its loss pass from the
dataset's prompt images only; the trainer hands it every image of each episode instead, so the
image tokens in a completion have their pixels. (Tested with the tiny Idefics3 / SmolVLM
architecture; processors that need sequence-aligned extras such as Qwen's ``mm_token_type_ids``
are not covered.)
"""

from __future__ import annotations

import copy
import json
from typing import Any, Callable, Sequence

import torch
from trl import GRPOTrainer

from ...llm.messages import split_images
from ...wrappers.token_env import TokenEnv, TokenTrace


def _key(prompt: Sequence[dict[str, Any]]) -> str:
    """What identifies a prompt row: its messages' text (image parts reduced to a marker)."""
    texts = []
    for m in prompt:
        content = m.get("content")
        if isinstance(content, str):
            texts.append((m["role"], content))
        else:
            texts.append((m["role"], "".join(p.get("text") or "" if p.get("type") == "text" else "<image>" for p in content or [])))
    return json.dumps(texts, ensure_ascii=False)


def episode_prompts(make_env: Callable[[], Any], scenario_ids: Sequence[str] | None = None, *, seed: int = 0):
    """A GRPO prompt dataset: one row per scenario -- ``prompt`` (the first observation's messages,
    image parts as placeholders), ``images`` (that turn's images) and ``scenario_id``."""
    import datasets

    env = make_env()
    base = getattr(env, "unwrapped", env)
    ids = list(scenario_ids) if scenario_ids is not None else [s.id for s in base.scenarios]
    rows: dict[str, list[Any]] = {"prompt": [], "images": [], "scenario_id": []}
    for sid in ids:
        _, info = env.reset(seed=seed, options={"scenario": sid})
        messages, images = split_images(info["messages"])
        rows["prompt"].append([{"role": m["role"], "content": m["content"] if isinstance(m["content"], list)
                                else [{"type": "text", "text": m["content"] or ""}]} for m in messages])
        rows["images"].append(images)
        rows["scenario_id"].append(sid)
    env.close()
    return datasets.Dataset.from_dict(rows)


def env_reward(completions: Any, episode_return: Sequence[float], **_: Any) -> list[float]:
    """GRPO reward function: the episode's return as the env paid it (step rewards + verdict)."""
    return [float(r) for r in episode_return]


class EpisodeRollout:
    """``rollout_func`` for ``GRPOTrainer``: one full episode per prompt row.

    Args:
        make_env: builds the Gymnasium env (e.g. ``lambda: StepLimit(mmtsb_env.make_env(...), 6)``).
        processor: the trained model's processor (its chat template renders every turn).
        prompts: the prompt dataset (from :func:`episode_prompts`), to map a prompt to its scenario.
        max_turns: cap on the assistant's turns per episode (the episode is then truncated and judged).
        max_new_tokens / temperature: sampling of each assistant turn.
        tool_format: passed to :class:`TokenEnv`.
        generation: a :class:`~mmtsb_env.llm.vllm_server.VLLMServerGeneration`: the
            episodes of a call are played side by side and each round of their turns is sampled in
            one batch from the vLLM server (default: the trained model, one episode at a time).
    """

    def __init__(self, make_env: Callable[[], Any], processor: Any, prompts: Any, *, max_turns: int = 4,
                 max_new_tokens: int = 64, temperature: float = 1.0, tool_format: str = "openai", seed: int = 0,
                 generation: Any = None) -> None:
        self.make_env, self.processor, self.generation = make_env, processor, generation
        self.max_turns, self.max_new_tokens, self.temperature = int(max_turns), int(max_new_tokens), float(temperature)
        self.tool_format = tool_format
        self.scenarios: dict[str, str] = {}
        for row in prompts:
            key = _key(row["prompt"])
            if key in self.scenarios and self.scenarios[key] != row["scenario_id"]:
                raise ValueError(f"scenarios {self.scenarios[key]} and {row['scenario_id']} open with the same prompt; "
                                 "a rollout could not tell them apart")
            self.scenarios[key] = row["scenario_id"]
        self.seed = seed
        self.traces: list[TokenTrace] = []

    def __call__(self, prompts: list[Any], trainer: Any) -> dict[str, list[Any]]:
        if self.generation is not None:
            self.traces = self.play_batch([self._scenario(p) for p in prompts])
        else:
            model = trainer.model if trainer is not None else None
            self.traces = [self.play(self._scenario(p), model) for p in prompts]
        return {
            "prompt_ids": [t.token_ids[:t.prompt_length] for t in self.traces],
            "completion_ids": [t.completion_ids for t in self.traces],
            "logprobs": [t.completion_logprobs for t in self.traces],
            "env_mask": [t.completion_mask for t in self.traces],
            "episode_return": [float(sum(t.rewards)) for t in self.traces],
        }

    def _scenario(self, prompt: Any) -> str:
        key = _key(prompt)
        if key not in self.scenarios:
            raise ValueError("a prompt that is not in the rollout's prompt dataset; build both with episode_prompts")
        return self.scenarios[key]

    def play(self, scenario_id: str, model: Any) -> TokenTrace:
        """One episode of ``scenario_id`` with ``model`` sampling the assistant's turns."""
        env = TokenEnv(self.make_env(), self.processor, tool_format=self.tool_format)
        self.seed += 1
        env.reset(seed=self.seed, options={"scenario": scenario_id})
        done, turns = False, 0
        while not done:
            ids, logprobs = self.generate(model, env)
            turns += 1
            done = self._step(env, ids, logprobs, turns)
        env.close()
        return env.trace

    def play_batch(self, scenario_ids: Sequence[str]) -> list[TokenTrace]:
        """One episode per scenario id, played side by side: each round, every live episode's next
        turn is sampled in one batch from :attr:`generation` (the vLLM server)."""
        envs = [TokenEnv(self.make_env(), self.processor, tool_format=self.tool_format) for _ in scenario_ids]
        seeds = []
        for env, sid in zip(envs, scenario_ids):
            self.seed += 1
            seeds.append(self.seed)
            env.reset(seed=self.seed, options={"scenario": sid})
        live, turns = list(range(len(envs))), 0
        while live:
            turns += 1
            sampled = self.generation.generate([envs[i] for i in live], max_new_tokens=self.max_new_tokens,
                                               temperature=self.temperature,
                                               seeds=[seeds[i] * 1000 + turns for i in live])
            live = [i for i, turn in zip(live, sampled) if not self._step(envs[i], turn.ids, turn.logprobs, turns)]
        for env in envs:
            env.close()
        return [env.trace for env in envs]

    def _step(self, env: TokenEnv, ids: list[int], logprobs: list[float], turns: int) -> bool:
        """Play one sampled turn; whether the episode is over (at ``max_turns`` it is ended and judged)."""
        _, _, terminated, truncated, _ = env.step(ids, logprobs)
        if terminated or truncated:
            return True
        if turns >= self.max_turns:
            from ...episode.ending import finish_truncated
            from ...wrappers._episode import episode_of

            env.trace.rewards.append(finish_truncated(episode_of(env)))  # cap reached: judged, as StepLimit does
            return True
        return False

    @torch.no_grad()
    def generate(self, model: Any, env: TokenEnv) -> tuple[list[int], list[float]]:
        """Sample one assistant turn after ``env``'s sequence; its ids and their logprobs."""
        device = next(model.parameters()).device
        input_ids = torch.tensor([env.trace.token_ids], device=device)
        extra = {k: v.to(device) for k, v in env.image_inputs.items()}
        eos = env.tokenizer.convert_tokens_to_ids(env.end_of_turn)
        # A sampled image placeholder (or any other special token but the turn's end) would not match
        # the pixel features in the loss pass: the policy never emits them.
        special = [i for i in env.tokenizer.all_special_ids if i != eos]
        was_training = model.training
        model.eval()
        try:
            out = model.generate(input_ids=input_ids, attention_mask=torch.ones_like(input_ids), **extra,
                                 do_sample=True, temperature=self.temperature, max_new_tokens=self.max_new_tokens,
                                 eos_token_id=eos, pad_token_id=env.tokenizer.pad_token_id, suppress_tokens=special or None,
                                 output_logits=True, return_dict_in_generate=True)
        finally:
            model.train(was_training)
        new = out.sequences[0, input_ids.shape[1]:].tolist()
        logits = torch.stack(out.logits, dim=0)[:, 0, :].float() / self.temperature
        logprobs = torch.log_softmax(logits, dim=-1)[torch.arange(len(new)), torch.tensor(new)].tolist()
        if eos in new:  # stop at the end of the turn (padding after it is not part of the action)
            cut = new.index(eos) + 1
            new, logprobs = new[:cut], logprobs[:cut]
        return new, logprobs


def _server_generation(args: Any) -> Any:
    from ...llm.vllm_server import VLLMServerGeneration

    if getattr(args, "vllm_mode", "server") != "server":
        raise ValueError(f"EpisodeGRPOTrainer samples from a vLLM server: use vllm_mode='server' (got "
                         f"{args.vllm_mode!r}) with vllm_server_base_url pointing at "
                         "`python -m vllm.entrypoints.openai.api_server`")
    url = args.vllm_server_base_url or f"http://{args.vllm_server_host}:{args.vllm_server_port}"
    return VLLMServerGeneration(url, timeout=args.vllm_server_timeout)


class EpisodeGRPOTrainer(GRPOTrainer):
    """``GRPOTrainer`` whose rollouts are whole episodes (:class:`EpisodeRollout`), rewarded by the env.

    Args:
        model / processing_class / args / train_dataset: as for ``GRPOTrainer``; ``train_dataset``
            comes from :func:`episode_prompts`.
        make_env: builds the env each rollout plays.
        reward_funcs: extra reward functions; the env's return (:func:`env_reward`) is always one.
        rollout_kwargs: for :class:`EpisodeRollout` (``max_turns``, ``max_new_tokens``...).

    With ``args.use_vllm=True`` (``vllm_mode="server"``, ``vllm_server_base_url``) the rollouts are
    sampled from a vLLM server (:mod:`~mmtsb_env.llm.vllm_server`: token in, token
    out), all episodes of a step side by side, each round of turns in one batch; before the first
    rollout of each optimizer step the server reloads the trained weights. TRL's importance-sampling
    correction then compares the server's logprobs with the trained model's.
    """

    def __init__(self, model: Any, *, make_env: Callable[[], Any], processing_class: Any, train_dataset: Any,
                 args: Any = None, reward_funcs: Sequence[Any] = (), rollout_kwargs: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        generation = None
        if getattr(args, "use_vllm", False):
            generation = _server_generation(args)
            # TRL's own vLLM client talks to `trl vllm-serve`; the episodes here sample from vLLM's OpenAI
            # server instead, so TRL is built without it and told afterwards (weight syncs, importance sampling)
            args = copy.copy(args)
            args.use_vllm = False
        rollout_kwargs = {**(rollout_kwargs or {}), **({"generation": generation} if generation is not None else {})}
        self.episode_rollout = EpisodeRollout(make_env, processing_class, train_dataset, **rollout_kwargs)
        super().__init__(model=model, reward_funcs=[env_reward, *reward_funcs], args=args, train_dataset=train_dataset,
                         processing_class=processing_class, rollout_func=self.episode_rollout, **kwargs)
        if generation is not None:
            generation.policy = self.model
            self.use_vllm, self.vllm_generation, self._last_loaded_step = True, generation, -1

    def _generate(self, prompts: list[Any]):
        out = list(super()._generate(prompts))
        traces = self.episode_rollout.traces
        # the loss pass computes pixel tensors from `prompts` and `images`: give it every image of each episode
        for prompt, trace in zip(prompts, traces):
            prompt[:] = [{"role": "user", "content": [*({"type": "image", "image": im} for im in trace.images),
                                                      {"type": "text", "text": ""}]}]
        out[6] = [list(t.images) for t in traces]
        return tuple(out)
