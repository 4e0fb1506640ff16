"""examples/rl_loop.py: the GRPO-style loop runs, and one update moves the policy the right way."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "rl_loop.py"


def _load():
    spec = importlib.util.spec_from_file_location("rl_loop", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_group_advantages():
    rl = _load()
    assert rl.group_advantages([1.0, 1.0, 1.0]) == [0.0, 0.0, 0.0]
    adv = rl.group_advantages([0.0, 1.0])
    assert adv == pytest.approx([-1.0, 1.0], abs=1e-5) and sum(adv) == pytest.approx(0.0)
    assert rl.format_score('[{"name": "a", "arguments": {}}]') == 1.0
    assert rl.format_score('text "x') == 0.5 and rl.format_score("text") == 0.0


def test_update_raises_the_likelihood_of_the_better_rollout(tiny_idefics3):
    import torch

    import mmtsb_env
    from mmtsb_env.envs.gym_env import MMToolSandboxEnv
    from mmtsb_env.llm.hf_backend import TransformersBackend

    rl = _load()
    backend = TransformersBackend(tiny_idefics3, max_new_tokens=6, temperature=1.0)  # own copy: we train it
    scenario = next(s for s in mmtsb_env.load_suite("demo") if s.id == "demo/note_from_receipt")
    env = MMToolSandboxEnv(scenarios=[scenario], max_messages=2)  # one assistant turn (the user would nudge)
    rollouts = rl.play_group(backend, env, scenario, 2, max_new_tokens=6, seed=0, format_bonus=0.0)
    assert [len(steps) for _, steps in rollouts] == [1, 1]
    good, bad = rollouts[0][1][0], rollouts[1][1][0]
    assert good.completion.token_ids != bad.completion.token_ids

    def logp(step):
        with torch.no_grad():
            return backend.score(step.messages, step.tools, step.completion.token_ids).sum().item()

    before = (logp(good), logp(bad))
    optimizer = torch.optim.SGD(backend.hf_model.parameters(), lr=0.5)
    stats = rl.policy_update(backend, optimizer, rollouts, [1.0, -1.0])
    assert stats["updated"] == 1.0 and stats["policy_tokens"] == 12
    assert stats["masked_tokens"] == len(good.completion.prompt_token_ids) + len(bad.completion.prompt_token_ids)
    after = (logp(good), logp(bad))
    assert after[0] > before[0] and after[1] < before[1]
    # all-equal rewards: no update, weights unchanged
    weights = [p.detach().clone() for p in backend.hf_model.parameters()]
    assert rl.policy_update(backend, optimizer, rollouts, [0.0, 0.0])["updated"] == 0.0
    assert all(torch.equal(a, b) for a, b in zip(weights, backend.hf_model.parameters()))


def test_script_runs_to_completion(tiny_idefics3):
    out = subprocess.run([sys.executable, str(SCRIPT), "--model", str(tiny_idefics3), "--iterations", "2",
                          "--group-size", "2", "--scenarios", "2", "--max-new-tokens", "4"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [line for line in out.stdout.splitlines() if re.match(r"\s+\d+\s+demo/", line)]
    assert len(rows) == 2
    assert rows[0].split()[1] == "demo/compare_receipts" and rows[1].split()[1] == "demo/connectivity_goal_change"
    assert re.search(r"done: 2 iterations x 2 rollouts, \d optimizer steps, mean reward", out.stdout)
