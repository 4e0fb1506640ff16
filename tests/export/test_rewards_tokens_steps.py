"""Per-seat rewards equal what each seat's Gymnasium view returned; token columns; the step table."""

import json

import pyarrow.parquet as pq
import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.export import episode_rows, flatten_tokens, read_table, step_rows, write_parquet
from mmtsb_env.runner import run_episode
from mmtsb_env.wrappers import TrajectoryRecorder, UserSeatEnv

DEMO = mmtsb_env.load_suite("demo")
MULTI = "demo/invoice_note_correction"  # two user rounds: a task and its correction


def play_assistant(scenario):
    env = TrajectoryRecorder(mmtsb_env.make_env(suite="demo"), agent_name="oracle")
    obs, info = env.reset(seed=3, options={"scenario": scenario})
    agent, rewards, done = OracleAgent(DEMO), [], False
    while not done:
        obs, r, term, trunc, info = env.step(agent.act(obs, info))
        rewards.append(r)
        done = term or trunc
    return env.records[0], rewards


def play_user(scenario):
    env = TrajectoryRecorder(UserSeatEnv(suite="demo", image_size=(32, 32)), agent_name="scripted-copy")
    obs, info = env.reset(seed=3, options={"scenario": scenario})
    rewards, done = [], False
    while not done:
        obs, r, term, trunc, info = env.step(info["scripted_action"])
        rewards.append(r)
        done = term or trunc
    return env.records[0], rewards


@pytest.mark.parametrize("scenario", ["demo/note_from_receipt", MULTI, "demo/low_battery_state_mutation"])
def test_assistant_row_rewards_are_the_gym_rewards(scenario):
    record, rewards = play_assistant(scenario)
    row = episode_rows(record, seats=["assistant"])[0]
    assert row["rewards"] == rewards  # exact, step by step
    assert row["seat_steps"] == record.assistant_steps == len(rewards)
    assert row["seat_return"] == pytest.approx(record.total_reward) and row["total_reward"] == record.total_reward
    comps = row["reward_components"]
    assert comps[-1]["entity_f1"] == 1.0 and comps[-1]["judge"] == 1.0
    assert sum(c["delta_f1"] for c in comps) == pytest.approx(1.0)


def test_user_row_rewards_are_the_user_seat_rewards():
    record, rewards = play_user(MULTI)
    assert record.trainable_seats == ["user"] and record.agent == "OracleAgent" and record.user == "scripted-copy"
    user_row, assistant_row = episode_rows(record, seats=["user", "assistant"])
    assert user_row["trainable"] and not assistant_row["trainable"] and user_row["model"] == "scripted-copy"
    assert user_row["rewards"] == rewards and len(rewards) == 3  # two rounds (task, correction) + end_conversation
    assert sum(rewards) == pytest.approx(2.0)  # F1 1.0 + verdict, credited to the team
    # the same episode as the assistant saw it
    a_record, a_rewards = play_assistant(MULTI)
    assert assistant_row["rewards"] == a_rewards
    assert user_row["messages"][0]["role"] == "system" and json.loads(user_row["tools"])[0]["function"]["name"]


class TokenOracle(OracleAgent):
    """The oracle plus fake token ids from an append-only 'template' (observation tokens, then the action's)."""

    def __init__(self, *args, append_only=True, **kwargs):
        super().__init__(*args, **kwargs)
        self.append_only = append_only
        self.seq, self.last, self.env_tokens, self.gen_tokens = [], {}, 0, 0

    def reset(self):
        super().reset()
        self.seq, self.env_tokens, self.gen_tokens = [], 0, 0

    def act(self, obs, info):
        action = super().act(obs, info)
        observed = [1000 + len(obs["text"]) % 97 + i for i in range(3)]  # what the env/user added
        prompt = self.seq + observed if self.append_only or not self.seq else [7] + self.seq + observed
        completion = [ord(c) % 50 + 1 for c in action[:5]]
        self.env_tokens += len(observed)
        self.gen_tokens += len(completion)
        self.last = {"prompt_token_ids": prompt, "token_ids": completion,
                     "logprobs": [-0.5] * len(completion), "usage": {"completion_tokens": len(completion)}}
        self.seq = prompt + completion
        return action

    def last_step_info(self):
        return self.last


def test_token_ids_logprobs_and_loss_mask():
    agent = TokenOracle(DEMO)
    record = run_episode(next(s for s in DEMO if s.id == MULTI), agent, capture_images=True)
    assistant, user = episode_rows(record)
    n = agent.env_tokens + agent.gen_tokens
    assert len(assistant["token_ids"]) == len(assistant["loss_mask"]) == len(assistant["logprobs"]) == n
    assert sum(assistant["loss_mask"]) == agent.gen_tokens
    assert assistant["token_ids"] == agent.seq
    for tok, m, lp in zip(assistant["token_ids"], assistant["loss_mask"], assistant["logprobs"]):
        assert (m == 1) == (tok < 1000)  # generated tokens are < 1000 in this fake vocabulary
        assert lp == (-0.5 if m else 0.0)
    assert len(assistant["token_steps"]) == record.assistant_steps
    assert json.loads(assistant["agent_steps"])[0] == {"usage": {"completion_tokens": assistant["token_steps"][0]["completion_ids"].__len__()}}
    assert user["token_ids"] is None and user["loss_mask"] is None and user["token_steps"] is None


def test_history_rewriting_template_keeps_steps_but_no_flat_sequence():
    agent = TokenOracle(DEMO, append_only=False)
    record = run_episode(next(s for s in DEMO if s.id == MULTI), agent)
    row = episode_rows(record, seats=["assistant"], missing_images="drop")[0]
    assert row["token_ids"] is None and row["loss_mask"] is None and row["logprobs"] is None
    assert len(row["token_steps"]) == record.assistant_steps and row["token_steps"][1]["prompt_ids"][0] == 7


def test_flatten_tokens_rules():
    assert flatten_tokens([]) == {"token_steps": None, "token_ids": None, "logprobs": None, "loss_mask": None}
    no_prompt = flatten_tokens([{"token_ids": [5, 6]}])
    assert no_prompt["token_steps"] == [{"prompt_ids": None, "completion_ids": [5, 6], "logprobs": None}]
    assert no_prompt["token_ids"] is None
    with pytest.raises(ValueError, match="2 completion tokens but 1 logprobs"):
        flatten_tokens([{"token_ids": [5, 6], "logprobs": [-1.0]}])


def test_step_table_one_row_per_action(demo_records, demo_parquet):
    steps = pq.read_table(demo_parquet.with_name("demo_steps.parquet"))
    assert steps.schema.metadata[b"mmtsb.table"] == b"steps"
    assert steps.num_rows == sum(len(r.rewards) for r in demo_records)
    rec = next(r for r in demo_records if r.scenario_id == MULTI)
    rows = step_rows(rec)
    assert [r["seat"] for r in rows] == ["user", "assistant", "assistant", "user", "assistant", "assistant", "user"]
    assert [r["step"] for r in rows] == list(range(1, 8))
    assert rows[0]["kinds"] == ["message"] and rows[1]["kinds"] == ["tool_calls", "tool_result"]
    call = json.loads(rows[1]["action"])[0]
    assert call["name"] == rec.calls[1]["name"] and call["arguments"] == rec.calls[1]["arguments"]
    assert rows[-1]["action"] == json.dumps([{"name": "end_conversation", "arguments": {}}])
    assert [r["reward"] for r in rows] == [e["reward"] for e in rec.rewards]
    assert rows[-1]["judge"] == 1.0 and all(r["action_error"] is None for r in rows)


def test_step_table_reports_invalid_actions(tmp_path):
    class Clumsy(OracleAgent):
        first = True

        def act(self, obs, info):
            if self.first:
                self.first = False
                return '{"name": "simple_note_create_note", "arguments": '
            return super().act(obs, info)

    record = run_episode(DEMO[-4], Clumsy(DEMO), capture_images=True)
    rows = step_rows(record)
    assert rows[1]["seat"] == "assistant" and rows[1]["action"] is None
    assert rows[1]["action_error"].startswith("Malformed JSON tool call")
    write_parquet([record], tmp_path / "e.parquet", steps_path=tmp_path / "s.parquet")
    assert read_table(tmp_path / "s.parquet").column("action_error").to_pylist()[1].startswith("Malformed")
