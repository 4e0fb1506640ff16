"""256 concurrent episodes against a stub model server on loopback (figures only).

Run: python benchmarks/bench_async.py [--episodes 256] [--model-latency 0.05]
The "model" is an OpenAI-style ``/v1/chat/completions`` stub on loopback that waits
``--model-latency`` seconds (a model's time to answer) and then plays a fixed policy: one real tool
call, then a reply to the user. Each episode (demo/note_from_receipt, seed = its index, default
options but ``max_steps=8``) asks the stub for every assistant turn. Two ways of driving them,
each with every episode in flight at once:

* ``in-process``: ``await env.astep(...)`` on 256 envs in one event loop;
* ``served``: a ``mmtsb serve`` process on loopback and 256 ``RemoteEnv`` clients.

A sequential baseline (``--baseline`` episodes one at a time, in-process) gives the speed-up.
Checked: every episode ends (terminated or truncated) and the tool call succeeded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time

import mmtsb_env
from common import check, load, save
from mmtsb_env.remote import RemoteEnv
from mmtsb_env.remote.client import _Connection

SCENARIO = "demo/note_from_receipt"
CALL = {"id": "call_0", "type": "function", "function": {"name": "simple_note_show_profile", "arguments": "{}"}}
ENV = {"suite": "demo", "max_steps": 8}


# ---------------------------------------------------------------------------- the stub model server
async def _stub_handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, latency: float) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")), 0)
            request = json.loads(await reader.readexactly(length))
            await asyncio.sleep(latency)
            called = any(m.get("role") == "tool" for m in request["messages"])
            message = ({"role": "assistant", "content": "I looked at your profile; the note needs the receipt."} if called
                       else {"role": "assistant", "content": None, "tool_calls": [CALL]})
            body = json.dumps({"id": "stub", "object": "chat.completion", "model": "stub",
                               "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n" + body)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()


async def start_stub(latency: float) -> tuple[asyncio.AbstractServer, int]:
    server = await asyncio.start_server(lambda r, w: _stub_handler(r, w, latency), "127.0.0.1", 0, backlog=1024)
    return server, server.sockets[0].getsockname()[1]


class StubModel:
    """The policy side: one kept-alive connection per episode to the stub server."""

    def __init__(self, port: int) -> None:
        self.conn = _Connection("127.0.0.1", port, 60.0)
        self.calls = 0

    async def act(self, messages: list[dict], tools: list[dict]) -> str:
        self.calls += 1
        status, reply = await self.conn.request("POST", "/v1/chat/completions", {"model": "stub", "messages": messages, "tools": tools})
        check(status == 200, f"stub answered {status}")
        message = reply["choices"][0]["message"]
        if message.get("tool_calls"):
            fn = message["tool_calls"][0]["function"]
            return json.dumps({"name": fn["name"], "arguments": json.loads(fn["arguments"])})
        return message["content"]


# ---------------------------------------------------------------------------- drivers
async def in_process(index: int, port: int) -> int:
    env, model = mmtsb_env.make_env(**ENV), StubModel(port)
    obs, info = await env.areset(seed=index, options={"scenario": SCENARIO})
    steps, done = 0, False
    while not done:
        obs, _, terminated, truncated, info = await env.astep(await model.act(list(info["messages"]), info["tools"]))
        steps += 1
        done = terminated or truncated
        check(steps > 1 or info["action_error"] is None, f"the tool call failed: {info['action_error']}")
    await model.conn.close()
    env.close()
    return steps


async def served(index: int, port: int, url: str) -> int:
    model = StubModel(port)
    async with RemoteEnv(url) as env:
        result = await env.reset(seed=index, options={"scenario": SCENARIO})
        steps = 0
        while not result.done:
            result = await env.step(await model.act(result.info["messages"], result.info["tools"]))
            steps += 1
            check(steps > 1 or result.info["action_error"] is None, f"the tool call failed: {result.info['action_error']}")
    await model.conn.close()
    return steps


async def run(episodes: int, latency: float, baseline: int) -> dict:
    stub, port = await start_stub(latency)
    out = {}
    try:
        mmtsb_env.make_env(**ENV).reset(seed=0, options={"scenario": SCENARIO})  # warm the caches once
        t = time.perf_counter()
        steps = [await in_process(i, port) for i in range(baseline)]
        out["sequential"] = (baseline, sum(steps), time.perf_counter() - t)
        t = time.perf_counter()
        steps = await asyncio.gather(*(in_process(i, port) for i in range(episodes)))
        out["in-process"] = (episodes, sum(steps), time.perf_counter() - t)
        proc = subprocess.Popen([sys.executable, "-m", "mmtsb_env.cli", "serve", "--port", "0",
                                 "--max-episodes", str(episodes), "--env", "max_steps=8"],
                                stdout=subprocess.PIPE, text=True)
        try:
            line = await asyncio.to_thread(proc.stdout.readline)
            check(line.startswith("serving"), f"mmtsb serve did not start: {line!r}")
            url = line.split(" on ")[1].split(" ")[0]
            await served(0, port, url)  # warm the server process
            t = time.perf_counter()
            steps = await asyncio.gather(*(served(i, port, url) for i in range(episodes)))
            out["served"] = (episodes, sum(steps), time.perf_counter() - t)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    finally:
        stub.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=256)
    parser.add_argument("--model-latency", type=float, default=0.05)
    parser.add_argument("--baseline", type=int, default=8)
    args = parser.parse_args()
    out = asyncio.run(run(args.episodes, args.model_latency, args.baseline))
    print(f"{args.episodes} concurrent episodes, stub model latency {1000 * args.model_latency:.0f} ms, {load()}")
    rows = {}
    for name, (n, steps, seconds) in out.items():
        rows[name] = {"episodes": n, "steps": steps, "seconds": seconds, "episodes_per_s": n / seconds, "steps_per_s": steps / seconds}
        print(f"  {name:11s} {n:4d} episodes, {steps:5d} steps in {seconds:6.2f} s: "
              f"{n / seconds:7.1f} episodes/s, {steps / seconds:7.1f} steps/s")
    seq = rows["sequential"]["steps_per_s"]
    for name in ("in-process", "served"):
        print(f"  {name}: {rows[name]['steps_per_s'] / seq:.1f}x the sequential steps/s")
    save("async", {"model_latency_s": args.model_latency, **rows})


if __name__ == "__main__":
    main()
