"""An HTTP server of many concurrent episodes (``mmtsb serve``): reset / step / state / close.

Standard library only (``http.server.ThreadingHTTPServer``, HTTP/1.1 keep-alive): each
connection gets a thread, each episode its own env and lock, so episodes step in parallel and one
episode's steps run in order. JSON in, JSON out:

========================  =====================================================  ==========================
route                     body                                                   answer
========================  =====================================================  ==========================
``POST /reset``           ``{"seed"?, "options"?, "episode_id"?}``               a step (below); a new
                                                                                 episode unless the id is
                                                                                 given (then it restarts)
``POST /step``            ``{"episode_id", "action"}``                           a step
``GET /state?episode_id`` -                                                      the episode's state
``POST /close``           ``{"episode_id"}``                                     ``{"closed": true}``
``GET /health``           -                                                      ``{"ok", "episodes"}``
========================  =====================================================  ==========================

A step is ``{"episode_id", "observation", "reward", "terminated", "truncated", "done", "info"}``
(:mod:`~mmtsb_env.remote.wire`). A bad request gets a 4xx with ``{"error": "<one line>"}``;
an env that raises is closed and removed, its request gets a 500 saying so, and the server and
the other episodes go on. Episodes idle longer than ``idle_timeout_s`` are closed by a reaper
thread (a request for one then gets a 404 saying it timed out).
"""

from __future__ import annotations

import itertools
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from .wire import ToolsCache, step_json

MAX_BODY = 16 * 1024 * 1024  # bytes of one request body


class RequestError(Exception):
    """A request the server refuses: ``status`` and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _Episode:
    env: Any
    lock: threading.Lock = field(default_factory=threading.Lock)
    tools: ToolsCache = field(default_factory=ToolsCache)
    last_used: float = field(default_factory=time.monotonic)
    started: bool = False


class EpisodeRegistry:
    """The live episodes by id: created by reset, stepped, closed, reaped when idle."""

    def __init__(self, make_env: Callable[[], Any], *, idle_timeout_s: float = 600.0, max_episodes: int = 1024,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.make_env = make_env
        self.idle_timeout_s = float(idle_timeout_s)
        self.max_episodes = int(max_episodes)
        self.clock = clock
        self._episodes: dict[str, _Episode] = {}
        self._gone: dict[str, str] = {}  # id -> why it is gone (closed, timed out, crashed); bounded
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._prefix = secrets.token_hex(3)

    def __len__(self) -> int:
        with self._lock:
            return len(self._episodes)

    # ------------------------------------------------------------------ lookup
    def _get(self, episode_id: Any) -> _Episode:
        if not isinstance(episode_id, str) or not episode_id:
            raise RequestError(400, "episode_id must be a non-empty string (the id /reset returned)")
        with self._lock:
            ep = self._episodes.get(episode_id)
            if ep is None:
                why = self._gone.get(episode_id, "it was never created here")
                raise RequestError(404, f"no episode {episode_id!r}: {why}")
            ep.last_used = self.clock()
            return ep

    def _forget(self, episode_id: str, why: str) -> _Episode | None:
        with self._lock:
            ep = self._episodes.pop(episode_id, None)
            if ep is not None:
                self._gone[episode_id] = why
                while len(self._gone) > 10 * max(self.max_episodes, 1):
                    self._gone.pop(next(iter(self._gone)))
        return ep

    def _crashed(self, episode_id: str, ep: _Episode, exc: BaseException) -> RequestError:
        why = f"it crashed ({type(exc).__name__}: {exc}) and was closed"
        self._forget(episode_id, why)
        _close_quietly(ep.env)
        return RequestError(500, f"episode {episode_id!r} {why}")

    # ------------------------------------------------------------------ API
    def reset(self, body: dict[str, Any]) -> dict[str, Any]:
        seed, options = body.get("seed"), body.get("options")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise RequestError(400, f"seed must be a non-negative integer or null, got {seed!r}")
        if options is not None and not isinstance(options, dict):
            raise RequestError(400, f"options must be an object, got {type(options).__name__}")
        episode_id = body.get("episode_id")
        if episode_id is None:
            with self._lock:
                if len(self._episodes) >= self.max_episodes:
                    raise RequestError(503, f"the server holds its maximum of {self.max_episodes} episodes; close some")
                episode_id = f"{self._prefix}-{next(self._ids)}"
                ep = self._episodes[episode_id] = _Episode(env=None, last_used=self.clock())
            try:
                ep.env = self.make_env()
            except Exception as exc:  # noqa: BLE001 - the factory's failure is the request's answer
                self._forget(episode_id, "its env could not be made")
                raise RequestError(500, f"the env could not be made ({type(exc).__name__}: {exc})") from None
        else:
            ep = self._get(episode_id)
        with ep.lock:
            try:
                obs, info = ep.env.reset(seed=seed, options=options)
            except (ValueError, KeyError, TypeError) as exc:  # bad options: the episode stays usable
                if not ep.started:
                    self._forget(episode_id, "its first reset was refused")
                    _close_quietly(ep.env)
                raise RequestError(400, f"reset refused: {_one_line(exc)}") from None
            except Exception as exc:  # noqa: BLE001
                raise self._crashed(episode_id, ep, exc) from None
            ep.started, ep.tools = True, ToolsCache()
            return step_json(ep.env, episode_id, obs, 0.0, False, False, info, ep.tools)

    def step(self, body: dict[str, Any]) -> dict[str, Any]:
        episode_id = body.get("episode_id")
        ep = self._get(episode_id)
        if "action" not in body:
            raise RequestError(400, "step needs an action (a string: a message, tool calls or a code block)")
        with ep.lock:
            episode = getattr(ep.env, "episode", None)
            if episode is not None and episode.done:
                raise RequestError(409, f"episode {episode_id!r} has ended; reset it or close it")
            try:
                obs, reward, terminated, truncated, info = ep.env.step(body["action"])
            except Exception as exc:  # noqa: BLE001 - an env that raises loses its episode, not the server
                raise self._crashed(episode_id, ep, exc) from None
            return step_json(ep.env, episode_id, obs, reward, terminated, truncated, info, ep.tools)

    def state(self, episode_id: Any) -> dict[str, Any]:
        ep = self._get(episode_id)
        with ep.lock:
            episode = ep.env.episode
            return {
                "episode_id": episode_id, "scenario_id": episode.scenario.id, "step_count": episode.step_count,
                "round_index": episode.round_index, "terminated": episode.terminated, "truncated": episode.truncated,
                "done": episode.done, "entity_f1": episode.f1, "messages": len(episode.transcripts[episode.ASSISTANT]),
                "verdict": None if episode.verdict is None else episode.verdict.to_json(),
                "episode_seed": getattr(ep.env, "episode_seed", None),
            }

    def close(self, episode_id: Any) -> dict[str, Any]:
        ep = self._get(episode_id)
        self._forget(episode_id, "it was closed")
        with ep.lock:
            _close_quietly(ep.env)
        return {"closed": True, "episode_id": episode_id}

    def reap(self, now: float | None = None) -> list[str]:
        """Close the episodes idle for longer than ``idle_timeout_s``; return their ids."""
        now = self.clock() if now is None else now
        with self._lock:
            idle = [i for i, ep in self._episodes.items() if now - ep.last_used > self.idle_timeout_s]
        for episode_id in idle:
            ep = self._forget(episode_id, f"it timed out after {self.idle_timeout_s:g} s idle and was closed")
            if ep is not None:
                with ep.lock:
                    _close_quietly(ep.env)
        return idle

    def close_all(self) -> None:
        with self._lock:
            items = list(self._episodes.items())
        for episode_id, _ in items:
            ep = self._forget(episode_id, "the server shut down")
            if ep is not None:
                _close_quietly(ep.env)


def _close_quietly(env: Any) -> None:
    try:
        if env is not None:
            env.close()
    except Exception:  # noqa: BLE001 - closing a broken env must not take the server down
        pass


def _one_line(exc: BaseException) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(text.split()) or type(exc).__name__


def _json_default(value: Any) -> Any:
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        return item()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "EnvServer"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet unless asked
        if self.server.verbose:
            super().log_message(format, *args)

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False, default=_json_default).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> dict[str, Any]:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            self.close_connection = True  # the body's end is unknown: this connection cannot be reused
            raise RequestError(411, "send a JSON body with a Content-Length header")
        if int(length) > MAX_BODY:
            self.close_connection = True
            raise RequestError(413, f"the body is {length} bytes; the limit is {MAX_BODY}")
        raw = self.rfile.read(int(length))
        try:
            body = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RequestError(400, f"the body is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise RequestError(400, f"the body must be a JSON object, got {type(body).__name__}")
        return body

    def _route(self, method: str) -> None:
        url = urlsplit(self.path)
        registry = self.server.registry
        try:
            body = self._body() if method == "POST" else {}  # read first: keeps a kept-alive connection in sync
            if method == "GET" and url.path == "/health":
                payload = {"ok": True, "episodes": len(registry)}
            elif method == "GET" and url.path == "/state":
                payload = registry.state((parse_qs(url.query).get("episode_id") or [None])[0])
            elif method == "POST" and url.path == "/reset":
                payload = registry.reset(body)
            elif method == "POST" and url.path == "/step":
                payload = registry.step(body)
            elif method == "POST" and url.path == "/close":
                payload = registry.close(body.get("episode_id"))
            else:
                raise RequestError(404, f"no route {method} {url.path}; routes: POST /reset, POST /step, "
                                        "GET /state?episode_id=..., POST /close, GET /health")
        except RequestError as exc:
            self._send(exc.status, {"error": str(exc)})
            return
        except Exception as exc:  # noqa: BLE001 - last line of defence: answer, keep serving
            self._send(500, {"error": f"internal error ({type(exc).__name__}: {_one_line(exc)})"})
            return
        self._send(200, payload)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._route("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._route("POST")


class EnvServer(ThreadingHTTPServer):
    """``EnvServer((host, port), make_env)``; ``serve_forever()`` in a thread, ``shutdown()`` to stop.

    ``make_env()`` builds one episode's env (an :class:`~mmtsb_env.envs.gym_env.MMToolSandboxEnv`).
    Port 0 picks a free port (``server.url`` says which).
    """

    daemon_threads = True
    request_queue_size = 256

    def __init__(self, address: tuple[str, int], make_env: Callable[[], Any], *, idle_timeout_s: float = 600.0,
                 max_episodes: int = 1024, verbose: bool = False) -> None:
        self.registry = EpisodeRegistry(make_env, idle_timeout_s=idle_timeout_s, max_episodes=max_episodes)
        self.verbose = verbose
        super().__init__(address, _Handler)
        self._stop = threading.Event()
        self._reaper = threading.Thread(target=self._reap_loop, name="mmtsb-reaper", daemon=True)
        self._reaper.start()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def _reap_loop(self) -> None:
        period = min(max(self.registry.idle_timeout_s / 4, 0.05), 5.0)
        while not self._stop.wait(period):
            self.registry.reap()

    def server_close(self) -> None:
        self._stop.set()
        self.registry.close_all()
        super().server_close()


def serve_in_thread(make_env: Callable[[], Any], host: str = "127.0.0.1", port: int = 0, **kwargs: Any) -> EnvServer:
    """Start an :class:`EnvServer` on a daemon thread; stop it with ``server.shutdown(); server.server_close()``."""
    server = EnvServer((host, port), make_env, **kwargs)
    threading.Thread(target=server.serve_forever, name="mmtsb-serve", daemon=True).start()
    return server
