"""An asyncio client of ``mmtsb serve`` with an OpenEnv-style interface: one object per episode.

Standard library only (asyncio streams, HTTP/1.1 keep-alive: one connection per episode).

>>> async def play(url):                                               # doctest: +SKIP
...     async with RemoteEnv(url) as env:
...         result = await env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
...         while not result.done:
...             result = await env.step(policy(result.observation, result.info))
...         return result.info["verdict"]

``result.info["messages"]`` is the whole chat (rebuilt from the new messages the server sends),
``result.info["tools"]`` the tools on offer (the server resends them only when they change);
``result.observation`` has ``text``, ``image_count`` and ``images`` (PNG data URLs). A refused
request raises :class:`RemoteEnvError` with the server's one-line reason and HTTP status.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from ..envs.observe import MessageHistory, extend_history


class RemoteEnvError(RuntimeError):
    """The server refused a request (``status``: the HTTP status) or could not be reached (status 0)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class StepResult:
    observation: dict[str, Any]
    reward: float
    terminated: bool
    truncated: bool
    done: bool
    info: dict[str, Any] = field(default_factory=dict)


class _Connection:
    """One kept-alive HTTP/1.1 connection; reopened when the server closed it."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        try:
            self._reader, self._writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), self.timeout)
        except (OSError, asyncio.TimeoutError) as exc:
            raise RemoteEnvError(0, f"cannot reach the env server at {self.host}:{self.port} ({type(exc).__name__}: {exc})") from None

    async def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\nConnection: keep-alive\r\n\r\n").encode()
        for attempt in (0, 1):
            if self._writer is None:
                await self._open()
            try:
                self._writer.write(head + data)
                await self._writer.drain()
                return await asyncio.wait_for(self._response(), self.timeout)
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                await self.close()
                if attempt:  # the server closed a kept-alive connection: one fresh try
                    raise RemoteEnvError(0, f"the env server closed the connection ({type(exc).__name__})") from None
            except asyncio.TimeoutError:
                await self.close()
                raise RemoteEnvError(0, f"no answer from the env server within {self.timeout:g} s") from None
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, dict[str, Any]]:
        assert self._reader is not None
        status_line = await self._reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        length, close = 0, False
        while True:
            line = await self._reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
            elif name.strip().lower() == "connection" and value.strip().lower() == "close":
                close = True
        payload = json.loads(await self._reader.readexactly(length)) if length else {}
        if close:
            await self.close()
        return status, payload

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        self._reader = self._writer = None


class RemoteEnv:
    """One episode on an env server: ``reset``, ``step``, ``state``, ``close`` (all awaited).

    Args:
        base_url: the server, e.g. ``http://127.0.0.1:8765``.
        timeout: seconds to wait for each answer (a code step or an LLM user can take a while).
    """

    def __init__(self, base_url: str, *, timeout: float = 120.0) -> None:
        url = urlsplit(base_url if "://" in base_url else f"http://{base_url}")
        if url.scheme != "http" or not url.hostname:
            raise ValueError(f"base_url must be http://HOST:PORT, got {base_url!r}")
        self._conn = _Connection(url.hostname, url.port or 80, timeout)
        self.episode_id: str | None = None
        self._messages: list[dict[str, Any]] = []
        self._tools: list[dict[str, Any]] = []

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        status, payload = await self._conn.request(method, path, body)
        if status != 200:
            raise RemoteEnvError(status, payload.get("error") or f"HTTP {status}")
        return payload

    def _result(self, payload: dict[str, Any]) -> StepResult:
        info = dict(payload["info"])
        received = MessageHistory(info.pop("messages", []), start=info.pop("messages_start", 0), complete=False)
        self._messages = extend_history(self._messages, received)
        info["messages"] = list(self._messages)
        if "tools" in info:
            self._tools = info["tools"]
        info["tools"] = self._tools
        return StepResult(payload["observation"], float(payload["reward"]), bool(payload["terminated"]),
                          bool(payload["truncated"]), bool(payload["done"]), info)

    async def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> StepResult:
        """Start an episode (this object's first reset creates it on the server; later ones restart it)."""
        body: dict[str, Any] = {"seed": seed, "options": options}
        if self.episode_id is not None:
            body["episode_id"] = self.episode_id
        payload = await self._call("POST", "/reset", body)
        self.episode_id, self._messages, self._tools = payload["episode_id"], [], []
        return self._result(payload)

    async def step(self, action: str) -> StepResult:
        if self.episode_id is None:
            raise RemoteEnvError(400, "call reset() before step()")
        return self._result(await self._call("POST", "/step", {"episode_id": self.episode_id, "action": action}))

    async def state(self) -> dict[str, Any]:
        if self.episode_id is None:
            raise RemoteEnvError(400, "call reset() before state()")
        return await self._call("GET", f"/state?episode_id={quote(self.episode_id)}")

    async def close(self) -> None:
        """Close the episode on the server (if any) and the connection. Idempotent."""
        try:
            if self.episode_id is not None:
                episode_id, self.episode_id = self.episode_id, None
                try:
                    await self._call("POST", "/close", {"episode_id": episode_id})
                except RemoteEnvError as exc:
                    if exc.status != 404:  # already gone (timed out, crashed): nothing to close
                        raise
        finally:
            await self._conn.close()

    async def __aenter__(self) -> "RemoteEnv":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


async def health(base_url: str, timeout: float = 10.0) -> dict[str, Any]:
    """``GET /health`` of a server: ``{"ok": true, "episodes": N}``."""
    env = RemoteEnv(base_url, timeout=timeout)
    try:
        return await env._call("GET", "/health")
    finally:
        await env._conn.close()
