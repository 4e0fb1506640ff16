"""OracleAgent: plays each round's reference solution through the public env API.

It is the proof that a scenario is solvable (entity F1 = 1.0, passing verdict) and a
sanity baseline. It reads only what any agent gets: the observation and ``info``.

With tool search on (the paper's harness), a tool must be found before it can be called: the
oracle then searches for each tool of the solution by its name, page by page, until the result
lists it, and only then calls it. Whether search is needed it learns like any agent would: from
the tools offered (tool mode) or the system prompt's search note (code mode), unless told
(``search=True/False``).

A solution tool the episode cannot reach (outside its tool universe: search pages run out without
it, or, without search, it is not offered) is not retried: the oracle skips that step and every
later step that uses its saved result, plays the rest, and ends the round with one line naming
the tool instead of its usual answer. ``unreachable[scenario_id]`` lists such tools.
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


def _uses(value: Any, labels: set[str]) -> bool:
    """Whether ``value`` (a step's arguments) refers to the saved result of one of ``labels``."""
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            return value["$ref"].partition(".")[0] in labels
        return any(_uses(v, labels) for v in value.values())
    if isinstance(value, list):
        return any(_uses(v, labels) for v in value)
    return False


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
        self._missing: set[str] = set()  # tools of this episode's solution it cannot reach
        self._skipped: set[str] = set()  # save_as labels of skipped steps
        self.search_calls = 0
        self.unreachable: dict[str, list[str]] = {}

    def reset(self) -> None:
        self._episode_key = None

    def act(self, obs: Any, info: dict[str, Any]) -> str:
        scenario = self.scenarios[info["scenario_id"]]
        if scenario.id != self._episode_key or info.get("step", 0) == 0:  # a new episode
            self._episode_key, self._round, self._pointer, self._saved = scenario.id, -1, 0, {}
            self._pending_save, self._found, self._searching = None, set(), None
            self._missing, self._skipped = set(), set()
        if self._searching is not None:
            name, page = self._searching
            self._searching = None
            found = _found_names(_last_result(info))
            self._found.update(found)
            if name not in found:
                if len(found) == SEARCH_PAGE and page + 1 < MAX_SEARCH_PAGES:
                    return self._search(name, page + 1)
                self._mark_missing(scenario.id, name)
        if self._pending_save is not None:
            self._saved[self._pending_save] = _last_result(info)
            self._pending_save = None
        round_index = info.get("round_index", 0)
        if round_index != self._round:
            self._round, self._pointer = round_index, 0
        rnd = scenario.rounds[max(round_index, 0)]
        while self._pointer < len(rnd.solution):
            step = rnd.solution[self._pointer]
            if "say" not in step and (step["name"] in self._missing or _uses(step.get("arguments"), self._skipped)):
                self._pointer += 1  # unreachable, or needs the result of a step that was
                if step.get("save_as"):
                    self._skipped.add(step["save_as"])
                continue
            if "say" not in step and step["name"] not in self._found:
                if self._must_search(step["name"], info):
                    return self._search(step["name"], 0)
                if self._not_offered(step["name"], info):
                    self._mark_missing(scenario.id, step["name"])
                    continue
            self._pointer += 1
            if "say" in step:
                return step["say"]
            arguments = _resolve(step.get("arguments", {}), self._saved)
            self._pending_save = step.get("save_as")
            return self._format_call(step["name"], arguments)
        if self._missing:
            names = ", ".join(sorted(self._missing))
            return f"I could not finish: the solution needs {names}, which this episode's tools do not include."
        return rnd.answer or "Done."

    def _mark_missing(self, scenario_id: str, name: str) -> None:
        self._missing.add(name)
        listed = self.unreachable.setdefault(scenario_id, [])
        if name not in listed:
            listed.append(name)

    def _not_offered(self, name: str, info: dict[str, Any]) -> bool:
        """In tool mode without search, a tool the offered list lacks cannot be called."""
        if self.mode != "tool" or "tools" not in info:
            return False
        return name not in {t.get("function", t).get("name") for t in info.get("tools") or []}

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
