"""Host-side work is bounded for any policy text: caps at the action boundary (one clear line, the
episode goes on, the world unchanged), linear text normalisation, bounded text caches, and
invalid Unicode refused where it enters so every writer can store what an episode kept.
(Speed and memory of the same paths: benchmarks/bench_bounds.py.)"""

import json
import random
import re
import unicodedata

import pytest

import mmtsb_env
from mmtsb_env.apps.alarms.tables import normalize_time
from mmtsb_env.evaluation.similarity import _sorted_items, canonical_text, rouge_l
from mmtsb_env.apps._common import MAX_QUERY_WORDS
from mmtsb_env.limits import (KEPT_CHARS, MAX_ACTION_CHARS, MAX_ARGUMENT_CHARS, MAX_CODE_CALLS, MAX_FIELD_CHARS,
                              MAX_REPLY_CHARS, check_arguments, kept_arguments, scrub)
from mmtsb_env.runner import run_episode
from mmtsb_env.textcache import clear_text_caches, text_cache, text_cache_chars
from mmtsb_env.tools.errors import InvalidArgument
from mmtsb_env.values.money import amounts as _option_prices
from mmtsb_env.vision.plotting import MAX_LABELS
from mmtsb_env.world.schema import SchemaError

SCENARIO = "demo/note_from_receipt"


def env_at(mode="tool", **kwargs):
    env = mmtsb_env.make_env(suite="demo", mode=mode, **kwargs)
    env.reset(seed=0, options={"scenario": SCENARIO})
    return env


def note(title, content):
    return json.dumps({"name": "simple_note_create_note", "arguments": {"title": title, "content": content}})


def assert_refused(env, action, *needles):
    obs, reward, terminated, truncated, info = env.step(action)
    error = info["action_error"]
    assert error and "\n" not in error, error
    for needle in needles:
        assert needle in error, error
    assert not (terminated or truncated) and env.episode.world.diff() == {}
    return error


# ------------------------------------------------------------------ caps at the action boundary

def test_an_oversize_action_is_refused_with_the_cap_and_kept_short():
    env = env_at()
    error = assert_refused(env, "x" * (MAX_ACTION_CHARS + 1), f"{MAX_ACTION_CHARS:,}", "the action of 100,001 characters")
    kept = [e for e in env.episode.log if e.kind == "invalid"][-1].content
    assert len(kept) < 3_000 and "more characters cut" in kept
    obs, *_ = env.step(note("ok", "fine"))  # the episode goes on
    assert env.episode.world.diff()["simple_note.notes"].created[0]["title"] == "ok"
    assert error.startswith("the action")


def test_an_oversize_reply_is_refused_and_the_turn_stays():
    env = env_at()
    assert_refused(env, "word " * (MAX_REPLY_CHARS // 5 + 1), "a reply of", f"{MAX_REPLY_CHARS:,}")
    assert env.episode.turn == "assistant"


def test_an_oversize_tool_argument_is_refused_in_tool_mode():
    env = env_at()
    assert_refused(env, note("t", "y" * (MAX_ARGUMENT_CHARS + 1)), "an argument string", f"{MAX_ARGUMENT_CHARS:,}")


def test_an_oversize_argument_from_code_is_refused_and_not_kept():
    env = env_at("code")
    obs, reward, terminated, truncated, info = env.step(
        "```python\ntry:\n    simple_note_create_note(title='t', content='z' * 1_000_000)\n"
        "except Exception as e:\n    print(e)\n```")
    assert f"{MAX_ARGUMENT_CHARS:,}" in obs["text"] and env.episode.world.diff() == {}
    assert max((len(json.dumps(c.outcome.to_json())) for c in env.episode.calls), default=0) < 1_000
    assert all(len(json.dumps(e.tool_calls)) < 1_000 for e in env.episode.log if e.tool_calls)


@pytest.mark.parametrize("code, needle", [
    ("x = [999] * 6_000_000\nsimple_note_search_notes(x, x)", "more than 10,000 values"),
    ("simple_note_search_notes('a' * 30_000)", "over the cap of 20,000 characters"),
    ("simple_note_search_notes([10 ** 4000] * 200)", "bytes as JSON, over the cap of 524,288 bytes"),
])
def test_arguments_over_a_cap_are_refused_in_the_worker_before_the_host_reads_them(code, needle):
    """The worker's stub applies the host's caps (and a byte cap on the call's JSON) before sending:
    the host records no call, so it never received, parsed or checked those arguments."""
    env = env_at("code")
    obs, *_ = env.step(f"```python\ntry:\n    {code.replace(chr(10), chr(10) + '    ')}\nexcept Exception as e:\n    print(e)\n```")
    assert "Error (invalid_argument)" in obs["text"] and needle in obs["text"]
    assert [c for c in env.episode.calls if c.seat == "assistant"] == []
    env.close()


def test_the_host_rejects_an_oversize_worker_frame_without_reading_it():
    import socket
    import time
    import struct

    from mmtsb_env.sandbox import Limits
    from mmtsb_env.sandbox.isolated import IsolatedBackend
    from mmtsb_env.sandbox.worker import MAX_CALL_FRAME, child_frame_cap

    limits = Limits()
    assert MAX_CALL_FRAME < child_frame_cap(limits) < 2 * 2**20  # was 64 MiB: a JSON parse of ~600 MB of objects
    host, child = socket.socketpair()
    child.sendall(struct.pack(">I", child_frame_cap(limits) + 1) + b"[" * 1000)
    worker = IsolatedBackend.__new__(IsolatedBackend)
    worker.rfd, worker.limits = host.fileno(), limits
    with pytest.raises(ValueError, match="too large"):
        worker._receive(time.monotonic() + 10.0)
    assert len(host.recv(2000)) == 1000  # the body was left unread
    host.close()
    child.close()


def test_a_written_field_over_the_cap_is_refused_by_the_world():
    env = env_at()
    world = env.episode.world
    with pytest.raises(SchemaError, match=f"over the cap of {MAX_FIELD_CHARS:,}"):
        with world.transaction():
            world.insert("simple_note.notes", {"id": 999_999, "title": "t", "content": "c" * (MAX_FIELD_CHARS + 1)})
    assert world.diff() == {}


def test_arguments_check_walks_self_containing_values_once():
    loop = []
    loop.append(loop)
    assert check_arguments({"a": loop}) is None
    assert "values" in check_arguments({"a": list(range(20_000))})
    assert "together" in check_arguments({str(i): "q" * 15_000 for i in range(8)})


# ------------------------------------------------------------------ invalid Unicode

def test_a_lone_surrogate_in_a_json_argument_is_refused_and_the_run_can_be_written(tmp_path):
    env = env_at()
    action = '{"name": "simple_note_create_note", "arguments": {"title": "\\ud800", "content": "x"}}'
    assert_refused(env, action, "not valid Unicode", "U+D800")
    assert_refused(env, "hello \udfff", "not valid Unicode", "U+DFFF")
    for entry in env.episode.log:
        entry_json = json.dumps(entry.to_json(), ensure_ascii=False)
        entry_json.encode("utf-8")  # everything kept is valid UTF-8


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_code_output_with_a_lone_surrogate_is_replaced(isolation):
    env = env_at("code", code_isolation=isolation)
    obs, *_ = env.step("```python\nprint('a' + chr(0xD800) + 'b')\n```")
    assert re.search("a[?\ufffd]b", obs["text"]), obs["text"]
    for entry in env.episode.log:
        (entry.content or "").encode("utf-8")


class SurrogateAgent:
    """Writes a lone surrogate in every place an agent can, then the right answer."""

    reads_images = False

    def __init__(self):
        self.n = 0

    def act(self, obs, info):
        self.n += 1
        moves = ['{"name": "simple_note_create_note", "arguments": {"title": "\\udc00", "content": "x"}}',
                 "bad \ud800 text", "Done."]
        return moves[min(self.n - 1, len(moves) - 1)]


def test_every_writer_round_trips_an_episode_that_met_invalid_unicode(tmp_path):
    from mmtsb_env.evaluation.report import episode_json, write_report
    from mmtsb_env.export import export_run
    from mmtsb_env.export.reader import load_run
    from mmtsb_env.runfolder import RunFolder

    scenario = mmtsb_env.load_suite("demo")[8]
    record = run_episode(scenario, SurrogateAgent(), env_kwargs={"max_steps": 8})
    record.agent_steps = [{"note": "from a backend \ud83d"}]  # what an agent reports is not checked by the env
    folder = RunFolder.open(tmp_path / "run", {"suite": "demo"})
    folder.add(record)
    back = RunFolder.open(tmp_path / "run", {"suite": "demo"}, resume=True).records[0]
    assert back.messages == record.messages and back.agent_steps == record.agent_steps
    export_run([record], tmp_path / "run", missing_images="drop", metadata={})
    assert (tmp_path / "run" / "trajectories.parquet").stat().st_size > 0
    payload = {"format": "mmtsb-results-1", "metadata": {}, "config": {"suite": "demo", "agent": "x"},
               "summary": {}, "metrics": {}, "episodes": [episode_json(record, scenario=scenario, with_images=False)]}
    (tmp_path / "run" / "results.json").write_text(json.dumps(payload), encoding="utf-8")
    write_report(tmp_path / "run", results=payload, plots=False)
    assert load_run(tmp_path / "run")


# ------------------------------------------------------------------ linear text work, same results

def _old_canonical_tail(t):
    return re.sub(r"[ \t\r\f\v]+", " ", re.sub(r"\s*\n\s*", "\n", t)).strip()


def _old_items(text):
    items = [x for x in re.split(r"\s*(?:\n|;|,)\s*", text) if x]
    return "\n".join(sorted(items)) if len(items) > 1 else None


def test_linear_whitespace_rules_give_the_old_results():
    alphabet = [" ", "\t", "\n", "\r", "\x1c", "\u2028", "\x85", "\xa0", "a", "B", ",", ";", "\x0b"]
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        assert canonical_text(text) == _old_canonical_tail(unicodedata.normalize("NFKC", text).casefold()), repr(text)
        assert _sorted_items(text.strip()) == _old_items(text.strip()), repr(text)


def test_long_whitespace_runs_give_the_right_answers():
    assert canonical_text("a" + " " * 80_000 + "b") == "a b"
    assert canonical_text("a" + " " * 40_000 + "\n" + " " * 40_000 + "b") == "a\nb"
    assert rouge_l("a b", "a" + "\x1c" * 80_000 + "b") == 1.0
    with pytest.raises(InvalidArgument):
        normalize_time("1:00" + " " * 50_000 + "x")
    assert normalize_time("  7:05 pm ") == "19:05"
    assert _option_prices("1" * 50_000) == [] and _option_prices("Plan B 1,299.00 USD, or $5") == [1299.0, 5.0]


# ------------------------------------------------------------------ bounded caches

def test_text_caches_keep_no_long_text_and_stay_in_budget():
    clear_text_caches()
    big = "word " * 200_000
    assert rouge_l("word", big) < 1.0
    assert text_cache_chars() < 10_000  # the 1 M-character text was not kept
    for i in range(3_000):
        canonical_text(f"note {i} " + "x" * 1_000)
    assert text_cache_chars() <= 2_000_000 * 8

    @text_cache(maxsize=10, max_chars=100, budget=250)
    def same(text):
        return text

    for i in range(20):
        same(str(i) * 90)
    info = same.cache_info()
    assert info["entries"] <= 10 and info["chars"] <= 250


def test_scrub_keeps_valid_text_as_is():
    text = "naïve 你好 🙂"
    assert scrub(text) is text


# ------------------------------------------------------------------ host work per tool call, calls per step

def code_step(env, body):
    obs, reward, terminated, truncated, info = env.step(f"```python\n{body}\n```")
    return obs["text"]


def test_a_search_query_over_the_word_cap_is_one_clear_error():
    env = env_at("code")
    text = code_step(env, "try:\n    simple_note_search_notes(query='a ' * 5000)\nexcept Exception as e:\n    print(e)")
    assert f"at most {MAX_QUERY_WORDS}" in text and "5,000 words" in text
    text = code_step(env, f"print(len(simple_note_search_notes(query='receipt ' * {MAX_QUERY_WORDS})) >= 0)")
    assert "True" in text


def test_a_chart_draws_at_most_the_label_cap_of_texts():
    env = env_at("code")
    n = MAX_LABELS + 1
    text = code_step(env, f"try:\n    plot(type='scatter', x=list(range({n})), y=list(range({n})), labels=['p'] * {n})\n"
                          "except Exception as e:\n    print(e)")
    assert f"'labels' has {n} names; at most {MAX_LABELS}" in text
    text = code_step(env, f"try:\n    plot(type='bar', heights=[1] * {n})\nexcept Exception as e:\n    print(e)")
    assert f"{n} bars per series; at most {MAX_LABELS}" in text
    text = code_step(env, f"try:\n    plot(type='pie', sizes=[1] * {n})\nexcept Exception as e:\n    print(e)")
    assert f"{n} slices; at most {MAX_LABELS}" in text


def test_a_code_step_makes_at_most_the_call_cap_and_failed_arguments_are_kept_short():
    env = env_at("code")
    text = code_step(env, "last = None\nfor i in range(600):\n    try:\n"
                          "        simple_note_search_notes(query='a', zz='x' * 19_000)\n"
                          "    except Exception as e:\n        last = str(e)\nprint(last)")
    assert f"{MAX_CODE_CALLS} tool calls (the cap per step)" in text
    calls = [c for c in env.episode.calls if c.via == "code"]
    assert len(calls) == MAX_CODE_CALLS and not any(c.outcome.ok for c in calls)
    assert max(len(json.dumps(c.outcome.to_json())) for c in calls) < KEPT_CHARS + 1_500
    assert all(len(json.dumps(e.tool_calls)) < KEPT_CHARS + 500 for e in env.episode.log if e.tool_calls)
    code_step(env, "print(len(simple_note_search_notes(query='a')) >= 0)")  # the next step may call again
    assert [c.via for c in env.episode.calls].count("code") == MAX_CODE_CALLS + 1 and env.episode.calls[-1].outcome.ok


def test_an_episode_makes_at_most_the_call_cap(monkeypatch):
    import mmtsb_env.episode.engine as engine

    monkeypatch.setattr(engine, "MAX_EPISODE_CALLS", 30)
    env = env_at("code")
    text = code_step(env, "n = 0\nfor i in range(40):\n    try:\n        simple_note_search_notes(query='a')\n"
                          "        n += 1\n    except Exception as e:\n        last = str(e)\nprint(n, last)")
    assert "this episode has made 30 tool calls (the cap)" in text
    assert len(env.episode.calls) == 30


def test_kept_arguments_keep_successful_calls_within_the_budget():
    big = {"content": "y" * 10_000}
    assert kept_arguments(big, True, 50_000) == (big, len(json.dumps(big)))
    kept, size = kept_arguments(big, False, 50_000)
    assert set(kept) == {"shortened"} and size == KEPT_CHARS and "more characters cut" in kept["shortened"]
    assert set(kept_arguments(big, True, 5_000)[0]) == {"shortened"}  # past the episode's budget
    small = {"query": "a"}
    assert kept_arguments(small, False, 0) == (small, len(json.dumps(small)))
