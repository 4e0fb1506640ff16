"""Host-side cost of hostile text (figures for docs/performance.md; never used as timed tests).

Run: python benchmarks/bench_bounds.py
Drives 1 M-character inputs through every path a policy's text takes, in tool and code mode,
and the same paths at their caps (mmtsb_env.limits): an action, a reply, a tool argument, a
written field (then scored every step and judged), the alarm time check, a lone surrogate, code
that builds a 1 M-character string and hands it to a tool or prints it, a search query of many
words, a chart with many point labels, a loop of failed tool calls with big arguments, and the
user seat's message. Prints the worst step time per path, the process's resident memory before,
after three heavy episodes, and after env.close(), with what the bounded text caches hold, and the
memory and call records of an episode whose code loops on failed calls for four steps.
"""

from __future__ import annotations

import gc
import json
import os
import time

from common import check, load, save

import mmtsb_env
from mmtsb_env.apps._common import MAX_QUERY_WORDS
from mmtsb_env.limits import MAX_ACTION_CHARS, MAX_ARGUMENT_CHARS, MAX_REPLY_CHARS
from mmtsb_env.vision.plotting import MAX_LABELS
from mmtsb_env.textcache import text_cache_chars

MILLION = 1_000_000
SCENARIO = "demo/note_from_receipt"


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def call(name: str, **arguments) -> str:
    return json.dumps({"name": name, "arguments": arguments})


def tool_paths(n: int | None) -> dict[str, str]:
    """Tool-mode actions carrying ``n`` characters of hostile text (whitespace runs, the old worst
    case), or with ``n=None`` each path's text just under its own cap."""
    def size(cap: int) -> int:
        return (n or cap) - 2

    return {
        "action (plain text)": "a" + " " * size(MAX_ACTION_CHARS) + "b",
        "reply": "a" + " " * size(MAX_REPLY_CHARS) + "b",
        "note content argument": call("simple_note_create_note", title="t", content="a" + " " * size(MAX_ARGUMENT_CHARS) + "b"),
        "alarm time check": call("alarms_create_alarm", time="1:00" + " " * size(MAX_ARGUMENT_CHARS - 4) + "x"),
        "lone surrogate in JSON": call("simple_note_create_note", title="t", content="x").replace('"x"', '"\\ud800"'),
    }


FAILED_CALLS = ("```python\nwhile True:\n    try:\n        simple_note_search_notes(query='a', zz='x' * 19_000)\n"
                "    except Exception:\n        pass\n```")


def code_paths(n: int | None) -> dict[str, str]:
    arg, program = n or MAX_ARGUMENT_CHARS - 2, n or MAX_ACTION_CHARS - 40
    query_words = (MAX_ARGUMENT_CHARS - 1) // 2 if n else MAX_QUERY_WORDS  # as many as one argument holds
    labels = 3_000 if n else MAX_LABELS  # 3 x 3,000 values: under the arguments' value cap
    return {
        "code: big string to a tool": f"```python\nsimple_note_create_note(title='t', content='a' + ' ' * {arg} + 'b')\n```",
        "code: big printed output": f"```python\nprint(' ' * {n or MILLION})\n```",
        "code: long program": "```python\n" + "x = 1\n" * (program // 6) + "```",
        "code: search query of many words": f"```python\nsimple_note_search_notes(query='a ' * {query_words})\n```",
        "code: scatter with point labels": (f"```python\nplot(type='scatter', x=list(range({labels})), y=list(range({labels})), "
                                            f"labels=['point'] * {labels})\n```"),
        "code: failed calls in a loop": FAILED_CALLS,
    }


def call_flood() -> dict[str, float]:
    """One episode whose code loops on failed calls with 19,000-character arguments for four steps
    (each until its time limit): resident memory and what the episode kept."""
    gc.collect()
    before = rss_mb()
    env = mmtsb_env.make_env(suite="demo", mode="code", max_steps=20)
    env.reset(seed=0, options={"scenario": SCENARIO})
    for _ in range(4):
        env.step(FAILED_CALLS)
    episode = env.episode
    after = rss_mb()
    t = time.perf_counter()
    episode.evidence()
    evidence_ms = (time.perf_counter() - t) * 1e3
    out = {"rss_before_mb": round(before, 1), "rss_after_4_steps_mb": round(after, 1), "calls_kept": len(episode.calls),
           "argument_chars_kept": episode.kept_argument_chars, "evidence_ms": round(evidence_ms, 1)}
    env.close()
    return out


def worst_step(mode: str, actions: dict[str, str], **env_kwargs) -> dict[str, float]:
    """Each action in a fresh episode, followed by "Done." and the user's turns until the step cap
    ends the episode (so the world is scored every step and the judge runs); worst step in ms."""
    out = {}
    for label, action in actions.items():
        env = mmtsb_env.make_env(suite="demo", mode=mode, max_steps=6, **env_kwargs)
        env.reset(seed=0, options={"scenario": SCENARIO})
        worst = 0.0
        for a in (action, "Done.", action, "Done."):
            t = time.perf_counter()
            obs, reward, terminated, truncated, info = env.step(a)
            worst = max(worst, time.perf_counter() - t)
            if terminated or truncated:
                break
        check(env.episode.verdict is not None or env.episode.step_count >= 4, f"{label}: the episode was played")
        env.close()
        out[label] = round(worst * 1e3, 1)
    return out


def user_seat(n: int | None) -> float:
    from mmtsb_env.episode.engine import Episode
    from mmtsb_env.scenario.suites import find_scenario

    ep = Episode(find_scenario(mmtsb_env.load_suite("demo"), SCENARIO))
    t = time.perf_counter()
    ep.act("user", "a" + " " * ((n or MAX_REPLY_CHARS) - 2) + "b")
    elapsed = time.perf_counter() - t
    ep.close()
    return round(elapsed * 1e3, 1)


def main() -> None:
    gc.collect()
    start = rss_mb()
    results: dict[str, dict[str, float]] = {}
    for n, tag in ((MILLION, "1M"), (None, "at cap")):
        results[f"tool mode, {tag}"] = worst_step("tool", tool_paths(n))
        results[f"code mode, {tag}"] = worst_step("code", code_paths(n))
        results[f"user seat, {tag}"] = {"message": user_seat(n)}
    heavy = rss_mb()
    for _ in range(3):  # heavy episodes one after another: memory must not pile up
        worst_step("tool", tool_paths(None))
    after = rss_mb()
    flood = call_flood()
    gc.collect()
    memory = {"start_mb": round(start, 1), "after_first_pass_mb": round(heavy, 1), "after_3_more_episodes_mb": round(after, 1),
              "text_cache_chars": text_cache_chars()}
    print(f"host-side cost of hostile text ({load()}); worst step in ms")
    for group, rows in results.items():
        for label, ms in rows.items():
            print(f"  {group:<18} {label:<30} {ms:>9.1f} ms")
    print("memory: " + ", ".join(f"{k} {v}" for k, v in memory.items()))
    print("failed calls in a loop, 4 steps: " + ", ".join(f"{k} {v}" for k, v in flood.items()))
    check(max(ms for rows in results.values() for ms in rows.values()) < 60_000, "every path finished")
    save("bounds", {"worst_step_ms": results, "memory": memory, "failed_call_loop": flood})


if __name__ == "__main__":
    main()
