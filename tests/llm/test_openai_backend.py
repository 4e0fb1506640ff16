"""OpenAICompatibleBackend against a real HTTP server on localhost that answers like vLLM."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("openai", reason="the openai client is not installed (pip install '.[vllm]')")

from mmtsb_env.llm.base import BackendError  # noqa: E402
from mmtsb_env.llm.openai_backend import OpenAICompatibleBackend  # noqa: E402


def _choice(content=None, tool_calls=None, token_ids=None, logprobs=None, index=0):
    choice = {"index": index, "finish_reason": "tool_calls" if tool_calls else "stop",
              "message": {"role": "assistant", "content": content, "tool_calls": tool_calls}}
    if token_ids is not None:
        choice["token_ids"] = token_ids
    if logprobs is not None:
        choice["logprobs"] = {"content": [{"token": f"t{i}", "logprob": lp, "bytes": [], "top_logprobs": []}
                                          for i, lp in enumerate(logprobs)]}
    return choice


def _response(*choices, prompt_token_ids=None):
    body = {"id": "x", "object": "chat.completion", "created": 0, "model": "served-model", "choices": list(choices),
            "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}
    if prompt_token_ids is not None:
        body["prompt_token_ids"] = prompt_token_ids
    return 200, body


class FakeServer:
    """Replies from a queue of (status, body); records requests and the peak number in flight."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, dict]] = []
        self.requests: list[dict] = []
        self.delay = 0.0
        self.in_flight = self.peak = 0
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def _send(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._send(200, {"object": "list", "data": [{"id": "served-model", "object": "model", "created": 0, "owned_by": "x"}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.requests.append(body)
                    server.in_flight += 1
                    server.peak = max(server.peak, server.in_flight)
                    status, reply = server.replies.pop(0) if server.replies else _response(_choice("default"))
                time.sleep(server.delay)
                with server.lock:
                    server.in_flight -= 1
                self._send(status, reply)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = FakeServer()
    yield s
    s.close()


def _backend(server, **kwargs):
    kwargs.setdefault("backoff_s", 0.01)
    return OpenAICompatibleBackend(server.url, **kwargs)


MESSAGES = [{"role": "system", "content": "rules"}, {"role": "user", "content": [
    {"type": "text", "text": "[image 0]"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]
TOOLS = [{"type": "function", "function": {"name": "get_battery", "parameters": {"type": "object", "properties": {}}}}]


def test_request_carries_messages_tools_and_vllm_extras(server):
    server.replies.append(_response(_choice("hi", token_ids=[5, 6, 2], logprobs=[-0.1, -0.2, -0.3]), prompt_token_ids=[1, 2, 3]))
    c = _backend(server, sampling={"temperature": 0.5}).complete(MESSAGES, TOOLS, max_new_tokens=9, seed=4)
    sent = server.requests[0]
    assert sent["model"] == "served-model"  # asked from /v1/models
    assert sent["messages"] == MESSAGES and sent["tools"] == TOOLS and sent["tool_choice"] == "auto"
    assert sent["max_tokens"] == 9 and sent["temperature"] == 0.5 and sent["seed"] == 4
    assert sent["logprobs"] is True and sent["return_token_ids"] is True
    assert (c.text, c.token_ids, c.prompt_token_ids, c.logprobs) == ("hi", [5, 6, 2], [1, 2, 3], [-0.1, -0.2, -0.3])
    assert c.usage == {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10} and c.model == "served-model"


def test_server_parsed_tool_calls_are_used(server):
    call = {"id": "chatcmpl-tool-1", "type": "function", "function": {"name": "get_battery", "arguments": "{}"}}
    server.replies.append(_response(_choice(None, tool_calls=[call])))
    c = _backend(server, model="m").complete(MESSAGES, TOOLS)
    assert c.tool_calls == [{"id": "chatcmpl-tool-1", "name": "get_battery", "arguments": {}}] and c.text == ""


def test_tool_calls_are_read_from_text_when_the_server_does_not_parse(server):
    server.replies.append(_response(_choice('Sure. <tool_call>{"name": "get_battery", "arguments": {}}</tool_call>')))
    c = _backend(server, model="m").complete(MESSAGES, TOOLS)
    assert c.text == "Sure." and c.tool_calls[0]["name"] == "get_battery"
    assert c.raw_text.endswith("</tool_call>")


def test_n_choices_and_prefill(server):
    server.replies.append(_response(_choice("a", index=0), _choice("b", index=1)))
    cs = _backend(server, model="m").complete_n(MESSAGES, None, n=2, prefill="<tool_call>")
    sent = server.requests[0]
    assert sent["n"] == 2 and sent["messages"][-1] == {"role": "assistant", "content": "<tool_call>"}
    assert sent["continue_final_message"] is True and sent["add_generation_prompt"] is False
    assert [c.raw_text for c in cs] == ["<tool_call>a", "<tool_call>b"]


def test_retries_5xx_with_backoff_then_succeeds(server):
    server.replies += [(503, {"message": "busy"}), (500, {"message": "oops"}), _response(_choice("finally"))]
    assert _backend(server, model="m", max_retries=3).complete(MESSAGES).text == "finally"
    assert len(server.requests) == 3


def test_gives_up_after_the_retries_with_a_clear_error(server):
    server.replies += [(503, {"message": "busy"})] * 3
    with pytest.raises(BackendError, match=r"failed at .* after 3 attempt\(s\): InternalServerError"):
        _backend(server, model="m", max_retries=2).complete(MESSAGES)
    assert len(server.requests) == 3


def test_bad_request_is_not_retried(server):
    server.replies.append((400, {"object": "error", "message": "image limit exceeded", "type": "BadRequestError", "code": 400}))
    with pytest.raises(BackendError, match=r"refused .* \(HTTP 400\): image limit exceeded"):
        _backend(server, model="m", max_retries=3).complete(MESSAGES)
    assert len(server.requests) == 1


def test_return_token_ids_is_dropped_for_servers_that_reject_it(server):
    server.replies += [(400, {"message": "Unrecognized request argument supplied: return_token_ids"}), _response(_choice("ok"))]
    backend = _backend(server, model="m")
    assert backend.complete(MESSAGES).text == "ok"
    assert "return_token_ids" not in server.requests[1] and backend.return_token_ids is False


def test_server_down_raises_backend_error_naming_the_url():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    backend = OpenAICompatibleBackend(f"http://127.0.0.1:{port}", model="m", max_retries=1, backoff_s=0.01, timeout=2)
    with pytest.raises(BackendError, match=rf"cannot reach the model server at http://127.0.0.1:{port}/v1 after 2 attempt"):
        backend.complete(MESSAGES)


def test_concurrency_is_limited_by_the_semaphore(server):
    from concurrent.futures import ThreadPoolExecutor

    server.delay = 0.15
    backend = _backend(server, model="m", max_concurrency=2)
    with ThreadPoolExecutor(6) as pool:  # six callers, as six env workers would be
        out = list(pool.map(lambda _: backend.complete(MESSAGES).text, range(6)))
    assert out == ["default"] * 6 and len(server.requests) == 6
    assert server.peak == 2
    assert [c.text for c in backend.complete_batch([MESSAGES] * 3)] == ["default"] * 3
