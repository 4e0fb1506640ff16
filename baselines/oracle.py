"""OracleAgent: plays each round's reference solution through the public env API.

It is the proof that a scenario is solvable (entity F1 = 1.0, passing verdict) and a
sanity baseline. It reads only what any agent gets: the observation and ``info``.

With tool search on (the paper's harness), a tool must be found before it can be called: the
oracle then searches for each tool of the solution by its name, page by page, until the result
lists it, and only then calls it. Whether search is needed it learns like any agent would: from
the tools offered (tool mode) or the system prompt's search note (code mode), unless told
(``search=True/False``).
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..scenario.model import Scenario
from ..scenario.suites import load_suite

SEARCH_TOOL = "api_docs_search_api_docs"
SEARCH_PAGE = 20  # the search tool's largest page
MAX_SEARCH_PAGES = 30


def _resolve(value: Any, saved: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            label, _, path = value["$ref"].partition(".")
            result = saved[label]
            for part in filter(None, path.split(".")):
                result = result[int(part)] if isinstance(result, list) else result[part]
            return result
        return {k: _resolve(v, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, saved) for v in value]
    return value


def _last_result(info: dict[str, Any]) -> Any:
    for message in reversed(info.get("messages", [])):
        content = message["content"]
        if isinstance(content, list):  # a result that shows images: its text comes first
            content = next((p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"), "")
        if message["role"] == "tool":
            text = content
        elif message["role"] == "user" and isinstance(content, str) and content.startswith("Execution result:"):
            text = content.split("\n", 1)[1] if "\n" in content else ""
        else:
            continue
        try:
            return json.loads(text.strip().splitlines()[0]) if text.strip() else None
        except (json.JSONDecodeError, IndexError):
            return None
    return None


def _found_names(result: Any) -> set[str]:
    """Tool names listed by a search result (``{"found": n, "tools": [{"tool_name": ...}]}``)."""
    if not isinstance(result, dict):
        return set()
    return {t["tool_name"] for t in result.get("tools", []) if isinstance(t, dict) and "tool_name" in t}


class OracleAgent:
    """``act(obs, info) -> action``; works in tool mode and (``mode="code"``) in code mode.

    Args:
        scenarios: where to look up ``info["scenario_id"]`` (default: every built-in suite).
        mode: ``"tool"`` or ``"code"``.
        search: whether tools must be found with the search tool first (None: tell from ``info``).
    """

    reads_images = False  # it never looks at pixels: runners skip drawing and encoding them

    def __init__(self, scenarios: Iterable[Scenario] | None = None, mode: str = "tool", search: bool | None = None) -> None:
        if scenarios is None:
            scenarios = [s for name in ("demo", "nominal", "ui") for s in load_suite(name)]
        self.scenarios = {s.id: s for s in scenarios}
        self.mode = mode
        self._episode_key: Any = None
        self._round = -1
        self._pointer = 0
        self._saved: dict[str, Any] = {}
        self._pending_save: str | None = None
        self.search = search
        self._found: set[str] = set()
        self._searching: tuple[str, int] | None = None  # (tool name, page) of the search in flight
        self.search_calls = 0

    def reset(self) -> None:
        self._episode_key = None

    def act(self, obs: Any, info: dict[str, Any]) -> str:
        scenario = self.scenarios[info["scenario_id"]]
        if scenario.id != self._episode_key or info.get("step", 0) == 0:  # a new episode
            self._episode_key, self._round, self._pointer, self._saved = scenario.id, -1, 0, {}
            self._pending_save, self._found, self._searching = None, set(), None
        if self._searching is not None:
            name, page = self._searching
            self._searching = None
            found = _found_names(_last_result(info))
            self._found.update(found)
            if name not in found and found and page + 1 < MAX_SEARCH_PAGES:
                return self._search(name, page + 1)
        if self._pending_save is not None:
            self._saved[self._pending_save] = _last_result(info)
            self._pending_save = None
        round_index = info.get("round_index", 0)
        if round_index != self._round:
            self._round, self._pointer = round_index, 0
        rnd = scenario.rounds[max(round_index, 0)]
        if self._pointer < len(rnd.solution):
            step = rnd.solution[self._pointer]
            if "say" not in step and step["name"] not in self._found and self._must_search(step["name"], info):
                return self._search(step["name"], 0)
            self._pointer += 1
            if "say" in step:
                return step["say"]
            arguments = _resolve(step.get("arguments", {}), self._saved)
            self._pending_save = step.get("save_as")
            return self._format_call(step["name"], arguments)
        return rnd.answer or "Done."

    def _must_search(self, name: str, info: dict[str, Any]) -> bool:
        if self.search is not None:
            return self.search
        if self.mode == "tool":
            offered = {t.get("function", t).get("name") for t in info.get("tools") or []}
            return name not in offered and SEARCH_TOOL in offered
        messages = info.get("messages") or []
        system = messages[0].get("content") if messages and messages[0].get("role") == "system" else ""
        return isinstance(system, str) and f"{SEARCH_TOOL}(query" in system

    def _search(self, name: str, page: int) -> str:
        self._searching = (name, page)
        self.search_calls += 1
        return self._format_call(SEARCH_TOOL, {"query": name, "page_index": page, "page_limit": SEARCH_PAGE})

    def _format_call(self, name: str, arguments: dict[str, Any]) -> str:
        if self.mode == "code":
            args = json.dumps(arguments, ensure_ascii=False)
            return f"```python\nimport json\nresult = {name}(**json.loads({args!r}))\nprint(json.dumps(result))\n```"
        return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
