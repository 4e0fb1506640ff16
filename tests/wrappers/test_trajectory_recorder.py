"""TrajectoryRecorder: every episode, either seat, to memory or Parquet (single file or rotating parts)."""

import os

import pytest

from mmtsb_env.baselines import OracleAgent
from mmtsb_env.export import read_parquet, read_table, to_sft
from mmtsb_env.wrappers import StepLimit, TrajectoryRecorder, UserSeatEnv

from .conftest import DEMO, SMALL, make, play


def test_records_every_episode_without_leaks(tmp_path):
    env = TrajectoryRecorder(make(), agent_name="oracle", keep_records=True, path=tmp_path / "t.parquet")
    for scenario in ("demo/invoice_note_correction", "demo/note_from_receipt", "demo/note_from_receipt"):
        _, rewards, _ = play(env, scenario, seed=1)
    assert [r.scenario_id for r in env.records] == ["demo/invoice_note_correction", "demo/note_from_receipt", "demo/note_from_receipt"]
    second = env.records[1]
    assert "invoice" not in str(second.messages).lower() and len(second.messages) == len(env.records[2].messages)
    assert second.total_reward == sum(rewards) == 2.0 and second.seed == 1 and second.user == "scripted"
    assert not (tmp_path / "t.parquet").exists()  # committed on close
    env.close()
    rows = read_table(tmp_path / "t.parquet", columns=["episode_id", "seat", "scenario_id"]).to_pylist()
    assert len(rows) == 6 and len({r["episode_id"] for r in rows}) == 3  # the repeat gets its own id
    back = read_parquet(tmp_path / "t.parquet")
    assert back[2].images == env.records[2].images and len(back[2].images) == 1


def test_rotating_parts_are_complete_files(tmp_path):
    env = TrajectoryRecorder(make(), path=tmp_path / "run", episodes_per_file=2, agent_name="oracle")
    for scenario in [s.id for s in DEMO[:5]]:
        play(env, scenario)
        if scenario == DEMO[1].id:
            assert sorted(os.listdir(tmp_path / "run")) == ["part-00000.parquet"]  # written as soon as full
    env.close()
    assert sorted(os.listdir(tmp_path / "run")) == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    assert [r.scenario_id for r in read_parquet(tmp_path / "run")] == [s.id for s in DEMO[:5]]
    assert env.records == [] and env.episodes_recorded == 5


def test_abandoned_episode_is_recorded_as_truncated():
    env = TrajectoryRecorder(make())
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})  # no step: nothing to record
    env.step('{"name": "view_image", "arguments": {"image_id": 0}}')
    env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    assert len(env.records) == 1 and env.records[0].truncated and env.records[0].assistant_steps == 1
    env.close()
    assert len(env.records) == 1  # the last one took no step
    skip = TrajectoryRecorder(make(), record_unfinished=False)
    skip.reset(seed=0)
    skip.step("hello")
    skip.reset(seed=0)
    assert skip.records == [] or skip.records[0].terminated  # "hello" may end a one-round scenario


def test_step_info_and_annotate_fill_token_columns():
    class Tokens(OracleAgent):
        n = 0

        def act(self, obs, info):
            self.n += 1
            return super().act(obs, info)

        def last_step_info(self):
            return {"prompt_token_ids": list(range(self.n * 10)), "token_ids": [self.n], "logprobs": [-0.1]}

    agent = Tokens(DEMO)
    env = TrajectoryRecorder(make(), step_info=agent.last_step_info)
    play(env, "demo/note_from_receipt", agent=agent)
    row = read_rows(env.records[0])[0]
    assert row["token_ids"] is None and [s["completion_ids"] for s in row["token_steps"]] == [[1], [2]]
    env.annotate(usage={"total_tokens": 5})
    play(env, "demo/note_from_receipt", agent=Tokens(DEMO))
    assert env.records[1].agent_steps[0]["usage"] == {"total_tokens": 5}


def read_rows(record, **kw):
    from mmtsb_env.export import episode_rows

    return episode_rows(record, **kw)


def test_recording_the_user_seat(tmp_path):
    env = TrajectoryRecorder(UserSeatEnv(**SMALL), path=tmp_path / "u.parquet", agent_name="user-model")
    obs, info = env.reset(seed=0, options={"scenario": "demo/invoice_note_correction"})
    done, n, seq = False, 0, []
    while not done:
        n += 1
        prompt = seq + [1, 2, 3]  # an append-only template: history, then what the assistant said
        env.annotate(prompt_token_ids=prompt, token_ids=[100 + n], logprobs=[-1.0])
        seq = prompt + [100 + n]
        obs, reward, term, trunc, info = env.step(info["scripted_action"])
        done = term or trunc
    env.close()
    record = read_parquet(tmp_path / "u.parquet")[0]
    assert record.agent == "OracleAgent" and record.user == "user-model" and record.trainable_seats == ["user"]
    rows = read_table(tmp_path / "u.parquet").to_pylist()
    user = next(r for r in rows if r["seat"] == "user")
    assistant = next(r for r in rows if r["seat"] == "assistant")
    assert user["trainable"] and not assistant["trainable"] and user["model"] == "user-model"
    assert user["token_ids"] == seq and sum(user["loss_mask"]) == n and assistant["token_ids"] is None
    assert [t for t, m in zip(user["token_ids"], user["loss_mask"]) if m] == [101 + i for i in range(n)]
    assert user["seat_return"] == pytest.approx(2.0)
    sft = to_sft(tmp_path / "u.parquet", seats=("user",), only_trainable=True)
    assert sft.num_rows == 1 and sft[0]["messages"][1]["role"] == "assistant"  # the user's own turns are "assistant"


def test_step_limit_below_the_recorder():
    env = TrajectoryRecorder(StepLimit(make(), max_steps=1))
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    env.step("{broken")
    assert env.records[0].truncated and env.records[0].verdict["pass"] is False


def test_recorder_needs_an_mmtsb_env_and_valid_options(tmp_path):
    import gymnasium

    env = TrajectoryRecorder(gymnasium.make("CartPole-v1"))
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="has no running episode"):
        for _ in range(500):
            env.step(0)
    with pytest.raises(ValueError, match="episodes_per_file must be >= 1"):
        TrajectoryRecorder(make(), path=tmp_path, episodes_per_file=0)
    with pytest.raises(ValueError, match="episode table only"):
        TrajectoryRecorder(make(), path=tmp_path / "x.parquet", steps_path=tmp_path / "s.parquet")
