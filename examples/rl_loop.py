"""A GRPO-style policy-gradient loop over a local VLM on the demo suite (CPU, about a minute).

For each iteration: pick a scenario, play a *group* of G episodes with the same policy (sampling
at temperature 1 through :class:`~mmtsb_env.llm.hf_backend.TransformersBackend`, which returns
prompt/completion token ids and logprobs), score each episode with the environment's rewards,
turn the rewards into group-relative advantages ``(r - mean) / (std + eps)``, and take one
optimizer step on

    loss = - sum_tokens mask * advantage * log pi(token | prefix) / sum(mask)

where every model call of an episode is one sample ``prompt tokens + completion tokens`` and the
loss mask is 1 only on the completion tokens the policy generated: the system prompt, the user
simulator's messages, tool results and images (all in the prompt) are never trained on.

Without ``--model`` a tiny random-weight VLM is built in a temporary folder, so the loop runs
offline; it will not learn anything useful in a minute -- the point is the plumbing. The reward
is the episode's environment return plus a small *format bonus* (``--format-bonus``) per reply:
full for a reply that parses as a tool call, half for one that at least uses JSON punctuation
(a common shaping term in tool-use RL; it gives the random model some reward variance).

    python examples/rl_loop.py --iterations 8 --group-size 4
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


JSON_MARKS = set('{}[]":')


def format_score(action: str) -> float:
    """1 for a reply that parses as tool calls, 0.5 for one that at least uses JSON punctuation, else 0."""
    from mmtsb_env.episode.actions import ToolCalls, parse_action

    if isinstance(parse_action(action, "tool"), ToolCalls):
        return 1.0
    return 0.5 if JSON_MARKS & set(action) else 0.0


def group_advantages(rewards: list[float], eps: float = 1e-6) -> list[float]:
    """GRPO's group-relative advantages: ``(r - mean) / (std + eps)`` (all 0 when the group agrees)."""
    mean, std = statistics.fmean(rewards), statistics.pstdev(rewards)
    return [(r - mean) / (std + eps) for r in rewards]


def play_group(backend, env, scenario, group_size: int, *, max_new_tokens: int, seed: int, format_bonus: float):
    """G episodes of ``scenario``; returns ``[(reward, [AgentStep, ...]), ...]``."""
    from mmtsb_env.baselines.vlm_agent import VLMAgent
    from mmtsb_env.runner import run_episode

    rollouts = []
    for g in range(group_size):
        agent = VLMAgent(backend, tool_format="compact", keep_history=True, max_context_messages=12, max_images=2,
                         sampling={"temperature": 1.0, "max_tokens": max_new_tokens, "seed": seed + g})
        record = run_episode(scenario, agent, seed=0, env=env, agent_name="grpo")
        if record.error:
            raise RuntimeError(f"episode failed: {record.error}")
        bonus = format_bonus * sum(format_score(step.action) for step in agent.history)
        rollouts.append((record.total_reward + bonus, agent.history))
    return rollouts


def policy_update(backend, optimizer, rollouts, advantages: list[float]) -> dict[str, float]:
    """One optimizer step on the masked policy-gradient loss of a group (skipped if all advantages are 0).

    Every model call is one sample ``prompt + completion``; its loss mask is 0 on the prompt
    (system prompt, user simulator, tool results, images) and 1 on the generated tokens.
    """
    import torch

    backend.hf_model.train()
    optimizer.zero_grad()
    policy_tokens = masked_tokens = 0
    total = torch.zeros((), dtype=torch.float32)
    for advantage, (_, steps) in zip(advantages, rollouts):
        for step in steps:
            prompt_ids, ids = step.completion.prompt_token_ids, step.completion.token_ids
            if not ids:
                continue
            # token-in-token-out: the prompt we score is token-for-token the one that was sampled
            if backend.prompt_token_ids(step.messages, step.tools) != prompt_ids:
                raise RuntimeError("re-tokenized prompt differs from the sampled one")
            mask = torch.tensor([0.0] * len(prompt_ids) + [1.0] * len(ids))
            logprobs = backend.score(step.messages, step.tools, ids, full=True)  # entry i: token i + 1
            total = total - advantage * (logprobs * mask[1:]).sum()
            policy_tokens += len(ids)
            masked_tokens += len(prompt_ids)
    loss = total / max(1, policy_tokens)
    updated = any(a != 0 for a in advantages) and policy_tokens > 0
    if updated:
        loss.backward()
        torch.nn.utils.clip_grad_norm_(backend.hf_model.parameters(), 1.0)
        optimizer.step()
    backend.hf_model.eval()
    return {"loss": float(loss.item()), "policy_tokens": policy_tokens, "masked_tokens": masked_tokens,
            "updated": float(updated)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="model folder (default: build a tiny random VLM)")
    parser.add_argument("--arch", default="idefics3", choices=["idefics3", "qwen2_vl"], help="tiny model architecture")
    parser.add_argument("--suite", default="demo")
    parser.add_argument("--scenarios", type=int, default=4, help="cycle over the first N scenarios")
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--group-size", type=int, default=4, help="G rollouts per scenario")
    parser.add_argument("--max-new-tokens", type=int, default=12)
    parser.add_argument("--max-messages", type=int, default=12, help="episode message limit")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--format-bonus", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import torch

    import mmtsb_env
    from mmtsb_env.envs.gym_env import MMToolSandboxEnv
    from mmtsb_env.llm.hf_backend import TransformersBackend
    from mmtsb_env.llm.tiny import build_tiny_vlm

    torch.manual_seed(args.seed)
    started = time.perf_counter()
    model_dir = args.model
    if model_dir is None:
        model_dir = build_tiny_vlm(Path(tempfile.mkdtemp(prefix="mmtsb-tiny-")) / args.arch, arch=args.arch, seed=args.seed)
        print(f"built a tiny {args.arch} model in {model_dir}")
    backend = TransformersBackend(model_dir, max_new_tokens=args.max_new_tokens, temperature=1.0, seed=args.seed)
    optimizer = torch.optim.AdamW(backend.hf_model.parameters(), lr=args.lr, weight_decay=0.0)
    scenarios = mmtsb_env.load_suite(args.suite)[: args.scenarios]
    env = MMToolSandboxEnv(scenarios=scenarios, mode="tool", max_messages=args.max_messages)
    means, updates = [], 0
    print(f"{'iter':>4}  {'scenario':<32} {'reward mean':>11} {'std':>6} {'min':>6} {'max':>6} "
          f"{'steps':>5} {'policy tok':>10} {'masked tok':>10} {'loss':>8} {'update':>6} {'time':>6}")
    for it in range(args.iterations):
        t0 = time.perf_counter()
        scenario = scenarios[it % len(scenarios)]
        rollouts = play_group(backend, env, scenario, args.group_size, max_new_tokens=args.max_new_tokens,
                              seed=args.seed * 100_003 + it * args.group_size, format_bonus=args.format_bonus)
        rewards = [r for r, _ in rollouts]
        stats = policy_update(backend, optimizer, rollouts, group_advantages(rewards))
        updates += int(stats["updated"])
        means.append(statistics.fmean(rewards))
        steps = statistics.fmean(len(s) for _, s in rollouts)
        print(f"{it:>4}  {scenario.id:<32} {means[-1]:>11.3f} {statistics.pstdev(rewards):>6.3f} {min(rewards):>6.3f} "
              f"{max(rewards):>6.3f} {steps:>5.1f} {stats['policy_tokens']:>10} {stats['masked_tokens']:>10} "
              f"{stats['loss']:>8.4f} {'yes' if stats['updated'] else 'no':>6} {time.perf_counter() - t0:>5.1f}s", flush=True)
    env.close()
    print(f"done: {args.iterations} iterations x {args.group_size} rollouts, {updates} optimizer steps, "
          f"mean reward {statistics.fmean(means):.3f}, {time.perf_counter() - started:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
